// The CUDA toolkit (asked for, or the best installed one) and whether this driver runs what it builds.
#include <algorithm>

#include "compat/assess.h"
#include "compat/facts_util.h"
#include "plan/resolve_ctx.h"

namespace ts::plan::detail {

namespace {

bool compiles_for(const kb::CudaRelease& r, const std::string& cap) {
  return std::any_of(r.arches.begin(), r.arches.end(),
                     [&](const std::string& a) { return compat::capability_of(a) == cap; });
}

// Installed toolkits with a KB entry, best first: compiles for every GPU here, then newest.
std::vector<const CudaToolkitFacts*> ranked(const Ctx& c) {
  std::vector<const CudaToolkitFacts*> v;
  for (const auto& t : c.facts().cuda_toolkits)
    if (ver(t.version) && c.in.kb.find_cuda(t.version)) v.push_back(&t);
  auto all_gpus = [&](const CudaToolkitFacts* t) {
    const auto* r = c.in.kb.find_cuda(t->version);
    for (const auto& g : c.facts().gpus)
      if (!g.compute_capability.empty() && !compiles_for(*r, g.compute_capability)) return false;
    return true;
  };
  std::stable_sort(v.begin(), v.end(), [&](auto* a, auto* b) {
    bool ga = all_gpus(a), gb = all_gpus(b);
    if (ga != gb) return ga;
    return *ver(a->version) > *ver(b->version);
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
  compat::check_driver(one, c.in.kb, vs);
  for (auto v : vs) {
    if (!v.where.empty()) v.source += " (" + v.where + ")";
    if (v.rule == "driver.tegra") {  // L4T's own driver: none of a desktop driver's failure modes
      c.decide("driver", v.subject, v.reason, v.source);
      continue;
    }
    if (v.level == compat::Level::fail && c.facts().driver.present) {
      c.conflict(v.subject, v.reason,
                 {v.fix, "or build here for another machine on purpose: --facts its doctor --json report"},
                 v.source);
    } else if (v.level == compat::Level::fail || v.level == compat::Level::warn) {
      c.warn("driver", c.facts().driver.present ? c.facts().driver.version : "none loaded",
             v.reason + (c.facts().driver.present ? "" : "; the build needs no driver, the GPU smoke test will be skipped"),
             v.source);
    } else {
      c.decide("driver", c.facts().driver.version,
               v.reason + " (an older one would stop CUDA programs at run time: Error 35, or Error 804 with a "
                          "mismatched cuda-compat)",
               v.source);
    }
  }
}

}  // namespace

void choose_toolkit(Ctx& c) {
  if (!c.cuda_on) {
    c.decide("cuda", "off", "a CPU build (--without cuda)", c.spec().origin_of("without"));
    return;
  }
  const auto& kb = c.in.kb;
  const auto& rel = *c.release;
  const std::string& asked = c.spec().cuda;
  auto list = ranked(c);
  std::string why;
  if (!asked.empty()) {
    auto want = *Version::parse(asked);
    for (const auto& t : c.facts().cuda_toolkits)
      if (ver(t.version) && ver(t.version)->major_minor() == want.major_minor()) c.toolkit = &t;
    c.cuda_rel = kb.find_cuda(asked);
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
      return;
    }
    why = "asked for (" + c.spec().origin_of("cuda") + ")";
  } else {
    if (list.empty()) {
      std::string cudas;
      for (const auto& v : rel.cuda) cudas += (cudas.empty() ? "" : " or ") + v;
      c.conflict("CUDA toolkit", c.facts().cuda_toolkits.empty()
                                     ? "no CUDA toolkit (nvcc) is installed"
                                     : "no installed CUDA toolkit is in the knowledge base",
                 {"install CUDA " + cudas + " (what torch " + rel.version + " was released with)",
                  "or build without CUDA: --without cuda"},
                 cite(rel.source, rel.origin));
      return;
    }
    c.toolkit = list.front();
    c.cuda_rel = kb.find_cuda(c.toolkit->version);
    why = list.size() == 1 ? "the only CUDA toolkit installed"
                           : "the newest installed toolkit that compiles for every GPU here";
  }
  c.p.cuda = c.toolkit->version;
  c.p.cuda_home = c.toolkit->path;
  // A shell that points elsewhere (two-toolkits: CUDA_HOME -> 11.8, PATH -> 12.4) is overridden, said so.
  for (const auto& t : c.facts().cuda_toolkits)
    for (const auto& via : t.found_via)
      if (&t != c.toolkit && (via == "CUDA_HOME" || via == "CUDA_PATH" || via == "PATH"))
        why += "; the shell's " + via + " points at " + t.path + ", the plan sets its own";
  c.decide("cuda", c.toolkit->version + " (" + c.toolkit->path + ")", why,
           c.cuda_rel ? cite(c.cuda_rel->source, c.cuda_rel->origin) : "facts");
  std::string mm = c.cuda_mm();
  if (std::find(rel.cuda.begin(), rel.cuda.end(), mm) == rel.cuda.end()) {
    std::string cudas;
    for (const auto& v : rel.cuda) cudas += (cudas.empty() ? "" : ", ") + v;
    c.warn("cuda", mm + " is not an official toolkit of torch " + rel.version,
           "torch " + rel.version + " was released for CUDA " + cudas +
               "; its build scripts and cpp_extension tables may not know " + mm + " (fixes below cover what is known)",
           cite(rel.source, rel.origin));
  }
  check_driver(c);
}

}  // namespace ts::plan::detail
