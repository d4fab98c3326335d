// The CUDA toolkit (asked for, or the best installed one) and whether this driver runs what it builds.
#include <algorithm>
#include <cstdlib>

#include "compat/arch_rule.h"
#include "compat/assess.h"
#include "compat/facts_util.h"
#include "plan/provision_choice.h"
#include "plan/extension_internal.h"
#include "plan/resolve_ctx.h"
#include "plan/steps.h"

namespace ts::plan::detail {

namespace {

// Installed toolkits with a KB entry, best first: compiles for every GPU here, then newest.
std::vector<const CudaToolkitFacts*> ranked(const Ctx& c) {
  std::vector<const CudaToolkitFacts*> v;
  for (const auto& t : c.facts().cuda_toolkits)
    if (t.version.parsed() && c.in->kb.find_cuda(t.version)) v.push_back(&t);
  auto all_gpus = [&](const CudaToolkitFacts* t) {
    const auto* r = c.in->kb.find_cuda(t->version);
    for (const auto& g : c.facts().gpus)
      if (g.compute_capability && !compat::toolkit_compiles(*r, *g.compute_capability)) return false;
    return true;
  };
  std::stable_sort(v.begin(), v.end(), [&](auto* a, auto* b) {
    bool ga = all_gpus(a), gb = all_gpus(b);
    if (ga != gb) return ga;
    return *a->version.parsed() > *b->version.parsed();
  });
  return v;
}

// Reuses compat's driver rule on this one toolkit. A failing driver is a conflict when a driver
// is loaded (the plan verifies on this machine, and that would fail with Error 35/804); without
// a driver (a container or CI box that only builds) it is a warning: building needs no driver.
void check_driver(Ctx& c) {
  HostFacts one = c.facts();
  one.cuda_toolkits = {*c.toolkit};
  std::vector<compat::Verdict> vs;
  compat::check_driver(one, c.in->kb, vs);
  for (auto v : vs) {
    if (!v.where.empty()) v.source += " (" + v.where + ")";
    if (v.rule == "driver.tegra") {  // L4T's own driver: none of a desktop driver's failure modes
      c.decide("driver", v.subject, v.reason, v.source, v.rule);
      continue;
    }
    if (v.level == compat::Level::fail && c.facts().driver.present) {
      c.conflict(v.subject, v.reason,
                 {v.fix, "or build here for another machine on purpose: --facts its doctor --json report"},
                 v.source, v.rule);
    } else if (v.level == compat::Level::fail || v.level == compat::Level::warn) {
      c.warn("driver", c.facts().driver.present ? c.facts().driver.version : "none loaded",
             v.reason + (c.facts().driver.present ? "" : "; the build needs no driver, the GPU smoke test will be skipped"),
             v.source, v.rule);
    } else {
      c.decide("driver", c.facts().driver.version,
               v.reason + " (an older one would stop CUDA programs at run time: Error 35, or Error 804 with a "
                          "mismatched cuda-compat)",
               v.source, v.rule);
    }
  }
}

std::string official_list(const kb::TorchRelease& rel, const char* sep) {
  std::string cudas;
  for (const auto& v : rel.cuda) cudas += (cudas.empty() ? "" : sep) + v.original();
  return cudas;
}

// The CUDA series a provision may take for this torch: its official ones; when --arch names a GPU none
// of them compiles for (sm_89 with torch 1.13's 11.6 and 11.7), the catalog's newer minors of the
// newest official major that compile for every arch asked for (11.8).
std::vector<Version> provision_series(const Ctx& c, const ProvisionContext& pc) {
  const auto& rel = *c.release;
  const std::vector<CudaArch>& want = c.spec().arch_numbers;  // parsed with the request (names resolve later)
  auto compiles_all = [&](const std::string& mm) {
    const auto* r = c.in->kb.find_cuda(mm);
    if (!r) return false;
    for (const auto& a : want)
      if (!compat::arch_listed(r->arches, a)) return false;
    return true;
  };
  if (want.empty() || !pc.catalog) return rel.cuda;
  int major = 0;
  for (const auto& v : rel.cuda) {
    if (compiles_all(v.original())) return rel.cuda;
    major = std::max(major, v.major());
  }
  std::vector<Version> newer;
  for (const auto& t : pc.catalog->tools) {
    const Version& v = t.version;  // parsed when provision.toml loaded
    if (t.kind != "cuda" || v.major() != major) continue;
    Version mm = v.truncated(2);
    if (!rel.official_cuda(v) &&
        std::find(newer.begin(), newer.end(), mm) == newer.end() && compiles_all(mm.major_minor()))
      newer.push_back(mm);
  }
  return newer.empty() ? rel.cuda : newer;
}

// Takes catalog entry `t` as the toolkit: the plan's CUDA_HOME is its cache directory and the run's
// provision step makes it exist.
void use_provisioned(Ctx& c, const ProvisionContext& given, const ToolRelease& t, const std::string& why) {
  ProvisionContext pc = given;
  pc.torch_build = true;  // redist/conda: torch's build also needs cuBLAS, cuFFT, cuRAND, cuSOLVER, cuSPARSE, CUPTI
  // cuDNN on and none installed for this CUDA major: NVIDIA's cuDNN archive joins NVIDIA's CUDA ones.
  const std::optional<Version> v = t.version;  // parsed when provision.toml loaded
  std::string other;  // an installed cuDNN of another CUDA major (inside CUDA 13's tree, pip's -cu13)
  bool have_cudnn = false;
  for (const auto& l : c.facts().libraries) {
    if (l.name != "cudnn") continue;
    int major = l.cuda_major;  // pip's nvidia-cudnn-cuNN: the probe read NN
    for (const auto& k : c.facts().cuda_toolkits)
      if (auto kv = k.version.parsed(); kv && !k.path.empty() && l.library_dir.rfind(k.path + "/", 0) == 0) major = kv->major();
    if (v && major && major != v->major()) other = "cuDNN " + l.version + " in " + l.library_dir + " is CUDA " + std::to_string(major) + "'s";
    else have_cudnn = true;
  }
  if (t.via == "redist" && c.p.features.count("cudnn") && c.p.features["cudnn"] && !have_cudnn && pc.catalog && v)
    pc.cudnn = pc.catalog->cudnn_for(v->major(), c.release->version);
  core::use_provisioned_toolkit(c, pc, t);
  c.cuda_rel = c.in->kb.find_cuda(t.version);
  c.decide("provision", "cuda " + t.version.original() + " from " + provision_where(pc, t), why,
           pc.cli_source.empty() ? cite(t.source, t.origin) : pc.cli_source);
  if (pc.cudnn) {
    c.provisioned_cudnn = pc.cudnn->version.original();
    c.decide("provision", "cudnn " + pc.cudnn->version.original() + " from NVIDIA's cuDNN archives (" +
             (provision_mirror(pc, t).empty() ? pc.cudnn->manifest : "the mirror " + provision_mirror(pc, t)) + ")",
             "cuDNN is on and none is installed for CUDA " + std::to_string(v->major()) + (other.empty() ? "" : " (" + other + ")") +
                 ": the archive for CUDA " + std::to_string(v->major()) + " of cuDNN " +
                 pc.cudnn->release + " (the newest the knowledge base lists for torch " + c.release->version.original() +
                 "), merged into the provisioned CUDA_HOME",
             cite(pc.cudnn->source, pc.cudnn->origin));
  }
}

// The toolkit a provisioning plan takes instead of the installed choice, or a conflict; true when
// it decided (the caller stops), false to go on with the installed choice.
bool take_provisioned(Ctx& c, std::string& why) {
  const ProvisionContext* pc = c.in->provision;
  if (!pc) return false;
  using K = ToolkitChoice::Kind;
  const auto& rel = *c.release;
  const std::optional<Version>& asked = c.spec().cuda;
  std::vector<Version> series = !asked ? provision_series(c, *pc) : std::vector<Version>{asked->truncated(2)};
  auto refuse = [&](const std::string& what, const std::string& reason) {
    const ToolRelease* known = pc->catalog ? pc->catalog->find("cuda", series.back()) : nullptr;
    for (const auto& mm : series)
      if (const auto* t = pc->catalog ? pc->catalog->find("cuda", mm) : nullptr) known = t;
    std::string newest = series.empty() ? "" : series.back().major_minor();
    std::string pypi = known && !known->complete ? "; " + no_whole_compiler(*known) : "";
    c.conflict(what, reason + pypi, {runfile_advice(newest), "or build with the installed toolkit anyway: --toolkit system"},
               known ? cite(known->source, known->origin) : cite(rel.source, rel.origin));
  };
  if (pc->choice.kind == K::pip || pc->choice.kind == K::wheelhouse || pc->choice.kind == K::redist ||
      pc->choice.kind == K::conda) {
    const ToolRelease* t = provisionable_cuda(*pc, series);
    if (!t || pc->cache_root.empty()) {
      refuse("--toolkit " + provision_from(*pc), "no CUDA " + official_list(rel, " or ") + " can be provisioned" +
             (pc->cache_root.empty() ? " (no cache directory: no $HOME and no --cache-dir)" : ""));
      return true;
    }
    why = "asked for (" + pc->cli_source + "): " + (!asked ? "the newest official CUDA of torch " + rel.version.original() +
          " that can be provisioned" : "--cuda " + asked->str());
    use_provisioned(c, *pc, *t, why);
    return true;
  }
  if (pc->choice.kind == K::path) {
    c.toolkit = core::toolkit_at(c, pc->choice.dir);
    if (!c.toolkit) {
      c.conflict("--toolkit " + pc->choice.dir, "no CUDA toolkit with bin/nvcc and a readable version was found there",
                 {"give the directory that holds bin/nvcc (a CUDA_HOME)"}, "--toolkit");
      return true;
    }
    c.cuda_rel = c.in->kb.find_cuda(c.toolkit->version);
    why = "asked for (--toolkit " + pc->choice.dir + ")";
    return false;
  }
  if (pc->choice.kind == K::system || asked || !c.toolkit) return false;
  // Automatic: an installed toolkit of a major newer than every official CUDA of the release cannot
  // compile it (its build scripts and cpp_extension tables stop at the majors it was released for).
  auto have = c.toolkit->version.parsed();
  int newest_major = 0;
  for (const auto& v : rel.cuda) newest_major = std::max(newest_major, v.major());
  if (!have || newest_major == 0 || have->major() <= newest_major) return false;
  for (const auto* t : ranked(c))
    if (rel.official_cuda(t->version.parsed())) {
      c.toolkit = t;
      c.cuda_rel = c.in->kb.find_cuda(t->version);
      why = "the installed official CUDA of torch " + rel.version.original() + " (CUDA " + have->major_minor() +
            " is of a newer major than torch " + rel.version.original() + " was released for)";
      return false;
    }
  std::string reason = "CUDA " + have->major_minor() + " (installed) is of a newer major than every official CUDA of torch " +
                       rel.version.original() + " (" + official_list(rel, ", ") + "): its build does not compile with it";
  if (const ToolRelease* t = pc->cache_root.empty() ? nullptr : provisionable_cuda(*pc, provision_series(c, *pc))) {
    bool official = rel.official_cuda(t->version);
    why = reason + "; CUDA " + t->version.original() + (official ? " is official" : " compiles for every --arch asked for (the official ones do not)") +
          " and is provisioned from " + provision_where(*pc, *t) +
          (t->via == "pip" ? "" : " (PyPI's wheels of that series carry no whole compiler)");
    use_provisioned(c, *pc, *t, why);
    return true;
  }
  series = rel.cuda;
  refuse("CUDA for torch " + rel.version.original(), reason + "; none of " + official_list(rel, ", ") + " is installed");
  return true;
}

}  // namespace

// A torch build's toolkit: --toolkit as asked, --cuda's, else the installed one the KB knows that
// compiles for every GPU here (newest first), provisioned when none is installed or the installed
// one is of a major newer than the release's; false when refused (a conflict says why).
bool pick_toolkit(Ctx& c) {
  const auto& kb = c.in->kb;
  const auto& rel = *c.release;
  const std::optional<Version>& want = c.spec().cuda;
  auto list = ranked(c);
  std::string why;
  const ProvisionContext* pc = c.in->provision;
  bool forced = pc && pc->choice.kind != ToolkitChoice::Kind::automatic && pc->choice.kind != ToolkitChoice::Kind::system;
  if (forced) {
    take_provisioned(c, why);  // --toolkit pip|wheelhouse:DIR|PATH
    if (!c.toolkit) return false;
  } else if (want) {
    const std::string asked = want->str();
    for (const auto& t : c.facts().cuda_toolkits)
      if (t.version.parsed() && t.version.parsed()->major_minor() == want->major_minor()) c.toolkit = &t;
    c.cuda_rel = kb.find_cuda(*want);
    if (!c.cuda_rel)
      c.conflict("CUDA " + asked, "CUDA " + asked + " is not in the knowledge base (its arches, GCC and driver limits are unknown)",
                 {"add a [[release]] for it to cuda.toml in a --kb overlay"}, "cuda.toml");
    if (!c.toolkit) {
      std::string installed;
      for (const auto& t : c.facts().cuda_toolkits) installed += (installed.empty() ? "" : ", ") + t.version;
      c.conflict("CUDA " + asked, "CUDA " + asked + " is not installed" +
                 (installed.empty() ? std::string() : " (found: " + installed + ")"),
                 {"install CUDA " + asked + " (developer.nvidia.com/cuda-toolkit-archive), or use an nvidia/cuda:" +
                      asked + " devel image (--format dockerfile)",
                  installed.empty() ? "or build without CUDA: --without cuda" : "or plan with an installed one: --cuda X.Y"},
                 "facts");
      return false;
    }
    why = "asked for (" + c.spec().origin_of("cuda") + ")";
  } else {
    const ToolRelease* prov = pc && !pc->cache_root.empty() && pc->choice.kind == ToolkitChoice::Kind::automatic
                                  ? provisionable_cuda(*pc, provision_series(c, *pc)) : nullptr;
    if (list.empty() && prov) {
      why = "no CUDA toolkit is installed; CUDA " + prov->version.original() + " is the newest official one of torch " + rel.version.original() +
            " that can be provisioned";
      use_provisioned(c, *pc, *prov, why);
    } else if (list.empty()) {
      std::string cudas;
      for (const auto& v : rel.cuda) cudas += (cudas.empty() ? "" : " or ") + v.original();
      c.conflict("CUDA toolkit", c.facts().cuda_toolkits.empty()
                                     ? "no CUDA toolkit (nvcc) is installed"
                                     : "no installed CUDA toolkit is in the knowledge base",
                 {"install CUDA " + cudas + " (what torch " + rel.version.original() + " was released with)",
                  "or build without CUDA: --without cuda"},
                 cite(rel.source, rel.origin));
      return false;
    } else {
      c.toolkit = list.front();
      c.cuda_rel = kb.find_cuda(c.toolkit->version);
      why = list.size() == 1 ? "the only CUDA toolkit installed"
                             : "the newest installed toolkit that compiles for every GPU here";
      if (take_provisioned(c, why) && c.toolkit != &c.provisioned) return false;  // refused: a conflict
    }
  }
  // A shell that points elsewhere (two-toolkits: CUDA_HOME -> 11.8, PATH -> 12.4) is overridden, said so.
  for (const auto& t : c.facts().cuda_toolkits)
    for (const auto& via : t.found_via)
      if (&t != c.toolkit && (via == "CUDA_HOME" || via == "CUDA_PATH" || via == "PATH"))
        why += "; the shell's " + via + " points at " + t.path + ", the plan sets its own";
  c.decide("cuda", c.toolkit->version + " (" + c.toolkit->path + ")", why,
           c.cuda_rel ? cite(c.cuda_rel->source, c.cuda_rel->origin) : "facts");
  return true;
}

// What a torch build's toolkit must satisfy: an official CUDA of the release (else a warning) and
// a driver that runs what it builds.
void check_toolkit(Ctx& c) {
  const auto& rel = *c.release;
  std::string mm = c.cuda_mm();
  std::optional<Version> have = c.toolkit ? c.toolkit->version.parsed() : std::nullopt;
  if (!rel.official_cuda(have)) {
    std::string cudas;
    for (const auto& v : rel.cuda) cudas += (cudas.empty() ? "" : ", ") + v.original();
    c.warn("cuda", mm + " is not an official toolkit of torch " + rel.version.original(),
           "torch " + rel.version.original() + " was released for CUDA " + cudas +
               "; its build scripts and cpp_extension tables may not know " + mm + " (fixes below cover what is known)",
           cite(rel.source, rel.origin));
  }
  check_driver(c);
}

}  // namespace ts::plan::detail

namespace ts::plan::steps {

// plan.toolkit, the rule once for every kind: a CPU build takes no nvcc; a CUDA build takes the
// kind's pick (--toolkit as asked, --cuda's, else an installed one that fits what is built against,
// provisioned when none fits) and checks it; a refusal leaves it without one, so nothing later
// (fixes, libraries, the version label) is derived from a CUDA the plan does not build with. What
// the toolkit must fit is the kind's: a torch build, the release's official CUDA and the KB (ranked
// by the GPUs here, the driver checked); an extension, the installed torch's CUDA (cpp_extension's
// major check).
void choose_toolkit(Ctx& c) {
  bool torch = c.kind == core::kTorchBuild;
  if (!c.cuda_on) {
    // An extension's plan.torch already said why it compiles no CUDA.
    if (torch) c.decide("cuda", "off", "a CPU build (--without cuda)", c.spec().origin_of("without"));
    return;
  }
  std::size_t before = c.conflicts.size();
  if (!(torch ? detail::pick_toolkit(c) : ext::pick_toolkit(c))) {
    c.toolkit = nullptr;  // not even the installed one a refusal ranked first
    c.cuda_rel = nullptr;
    c.p.cuda = CudaChoice::conflict(c.conflicts.size() > before ? c.conflicts.back().what : "");
    return;
  }
  c.p.cuda = CudaChoice::chosen(*c.toolkit->version.parsed());  // every pick is a usable_toolkit: its version parsed
  c.p.cuda_home = c.toolkit->path;
  if (torch)
    detail::check_toolkit(c);
  else
    check_cuda_major(*c.python, *c.toolkit, c);
}

}  // namespace ts::plan::steps
