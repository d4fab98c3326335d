// The arch list: native (the GPUs here), portable (the official list for this CUDA), family names
// and numbers; each arch checked against the toolkit and against what this torch release knows.
#include <algorithm>

#include "compat/arch_rule.h"
#include "compat/facts_util.h"
#include "plan/extension_internal.h"
#include "plan/resolve_ctx.h"
#include "plan/steps.h"

namespace ts::plan::detail {

namespace {

// The torch release's own CUDA versions (torch.toml) that compile for a: the toolkits to name in a
// way out, since a build with one of them is the tested combination.
std::string own_cudas_with(const kb::Kb& kb, const kb::TorchRelease& rel, const CudaArch& a) {
  std::string s;
  for (const auto& v : rel.cuda)
    if (const auto* r = kb.find_cuda(v); r && compat::arch_listed(r->arches, a)) s += (s.empty() ? "" : ", ") + v.original();
  return s;
}

const kb::TorchRelease* first_torch_with(const kb::Kb& kb, const CudaArch& a) {
  for (const auto& r : kb.torch)
    if (compat::arch_listed(r.arch_names, a)) return &r;
  return nullptr;
}

std::string gpu_names(const HostFacts& f, const CudaArch& a) {
  std::string s;
  for (const auto& g : f.gpus)
    if (g.compute_capability && g.compute_capability->same_capability(a))
      s += (s.empty() ? "" : ", ") + (g.name.empty() ? "unnamed GPU" : g.name) + " (" +
           (g.integrated ? "integrated" : g.vendor_id + ":" + g.device_id) +
           (g.identified_by.empty() ? "" : ", named by " + g.identified_by) + ")";
  return s;
}

}  // namespace

// A torch build's list: --arch (its own name "portable": build.toml's official list for the CUDA)
// or the GPUs here, decided; nullopt when refused (bad_spec or a conflict). `src` is its source.
std::optional<ArchList> read_arches(Ctx& c, const std::string& text, std::string& src) {
  const auto& kb = c.in->kb;
  src = c.spec().origin_of("arch");
  bool no_portable = false;
  const PortableList* portable = nullptr;
  core::ArchNames names;
  names.own = [&](const std::string& n, std::string* err) -> std::optional<std::vector<CudaArch>> {
    if (n != "portable") return std::nullopt;
    portable = c.toolkit || c.cuda_rel ? c.in->build.portable_for(c.cuda_rel ? c.cuda_rel->version : *c.toolkit->version.parsed(),
                                                                 c.torch_version())
                                       : nullptr;
    if (!portable) {
      no_portable = true;
      *err = "no portable list";
      return std::vector<CudaArch>{};
    }
    return ArchList::parse(portable->arches)->arches();
  };
  std::string err;
  auto list = core::parse_arches(c, text, names, &err);
  if (!list) {
    if (!names.unknown.empty()) {
      std::string fams;
      for (const auto& f : kb.families) fams += (fams.empty() ? "" : ", ") + f.name;
      c.out.bad_spec = "--arch: '" + names.unknown + "' is not an arch name (write native, portable, a family: " + fams +
                       ", or numbers such as 8.9;12.0+PTX)";
    } else if (names.no_gpu) {
      auto ways = core::no_gpu_ways_out(c.facts());
      ways.push_back("or --arch portable (the official list for this CUDA)");
      c.conflict("--arch native",
                 c.facts().gpus.empty() ? "no GPU was found on this machine"
                                        : "no GPU with a known compute capability was found on this machine",
                 ways, "facts");
    } else if (no_portable) {
      c.conflict("--arch portable", "build.toml has no official arch list for CUDA " + c.cuda_mm(),
                 {"name the arches: --arch \"8.0;8.6;9.0\"", "or add a [[portable]] entry to build.toml in a --kb overlay"},
                 "build.toml");
    } else {
      c.out.bad_spec = "--arch: " + err;
    }
    return std::nullopt;
  }
  std::string why;
  if (names.native) {
    for (const auto& a : list->arches())
      why += (why.empty() ? "" : "; ") + a.capability() + " = " + gpu_names(c.facts(), a);
    why = "the GPUs on this machine: " + why;
  } else if (portable) {
    why = "the official builds' list for CUDA " + portable->cuda.original();
    src = cite(portable->source, portable->origin);
  } else {
    why = "asked for (" + c.spec().origin_of("arch") + ")";
  }
  const auto& lim = c.in->build;
  if (static_cast<int>(list->size()) <= lim.max_arches)
    why += "; " + std::to_string(list->size()) + " arch" + (list->size() > 1 ? "es" : "") + ", within the " +
           std::to_string(lim.max_arches) + " that link safely (longer lists risk 'relocation truncated to fit')";
  c.decide("arch", list->torch_cuda_arch_list(), why, src);
  return list;
}

// What a torch build's list must satisfy: nvcc compiles every arch, it covers a GPU here (unless the
// package is for elsewhere), it links (the length limit); then the variables torch's CMake reads.
void check_arch_list(Ctx& c, const std::string& src) {
  const auto& kb = c.in->kb;
  const ArchList* list = &c.arches;
  // Against the toolkit: nvcc cannot compile for an arch it does not know.
  if (c.cuda_rel)
    for (const auto& a : list->arches()) {
      if (compat::arch_listed(c.cuda_rel->arches, a)) continue;
      auto span = compat::arch_span(kb, a);
      auto [lo, hi] = std::pair{span.lo, span.hi};
      const Version& tv = c.cuda_rel->version;
      bool newer = lo && lo->version > tv;
      std::string own = own_cudas_with(kb, *c.release, a);
      std::string own_note = own.empty() ? "" : " (torch " + c.release->version.original() + "'s own CUDA versions with " + a.sm() + ": " + own + ")";
      std::vector<std::string> fixes{
          newer ? "install CUDA " + lo->version.original() + " or newer and plan with --cuda " + lo->version.original() + own_note
                : hi ? "use CUDA " + hi->version.original() + " or older" + own_note : "check the arch"};
      // What this toolkit can build instead that still runs on the GPU: SASS of a lower minor of the
      // same major (8.6 on 8.9), or the newest older arch as PTX.
      if (auto n = compat::nearest_runnable(kb, *c.cuda_rel, a.sass_only()))
        fixes.push_back(n->ptx ? "or build " + n->str() + " instead: PTX the driver JIT-compiles for " + a.sm() +
                                     " at first use (slow start): --arch " + n->str()
                               : "or build for " + n->sm() + " instead, whose SASS runs on " + a.sm() +
                                     " (same major, lower minor): --arch " + n->str());
      fixes.push_back("or leave " + a.sass_only().str() + " out of --arch");
      c.conflict("arch " + a.sass_only().str() + " with CUDA " + c.cuda_rel->version.original(),
                 a.sm() + (newer ? " needs CUDA >= " + lo->version.original()
                                 : hi ? " was dropped after CUDA " + hi->version.original() : " is unknown to every CUDA in the KB") +
                     ": nvcc " + c.cuda_rel->version.original() + " stops with 'Unsupported gpu architecture " + a.compute() + "'",
                 fixes, cite(c.cuda_rel->source, c.cuda_rel->origin), compat::kArchToolkitRule);
    }
  // GPUs here that the list does not cover (an explicit or portable list). When it covers none of
  // them, the wheel cannot run here at all: a conflict, unless the package is meant for elsewhere.
  std::vector<const GpuFacts*> uncovered;
  int known = 0;
  for (const auto& g : c.facts().gpus) {
    const auto& cap = g.compute_capability;
    if (!cap) continue;
    ++known;
    if (compat::coverage(list->arches(), *cap) == compat::Coverage::none) uncovered.push_back(&g);
  }
  bool none_runs = known > 0 && static_cast<int>(uncovered.size()) == known && !c.redistributable;
  for (const auto* g : uncovered) {
    const CudaArch cap = *g->compute_capability;
    std::string who = (g->name.empty() ? g->device_id : g->name) + " here has compute " + cap.capability();
    if (!none_runs) {
      c.warn("arch", "no code for " + cap.sm(), who + ", which the list does not cover: CUDA ops will fail there "
             "with 'no kernel image is available'", src, compat::kArchCoverageRule);
      continue;
    }
    std::vector<std::string> fixes;
    if (!c.cuda_rel || compat::arch_listed(c.cuda_rel->arches, cap)) {
      fixes.push_back("add it: --arch \"" + list->torch_cuda_arch_list() + ";" + cap.str() + "\" (or --arch native)");
    } else {
      auto span = compat::arch_span(kb, cap);
      std::string own = own_cudas_with(kb, *c.release, cap);
      if (span.hi && span.hi->version < c.cuda_rel->version)
        fixes.push_back("CUDA " + c.cuda_rel->version.original() + " cannot build " + cap.sm() + ": install CUDA " + span.hi->version.original() +
                        " or older" + (own.empty() ? "" : " (torch " + c.release->version.original() + "'s own with it: " + own + ")") +
                        " and plan with --cuda X.Y --arch " + cap.str());
      else if (span.lo)
        fixes.push_back("CUDA " + c.cuda_rel->version.original() + " cannot build " + cap.sm() + ": install CUDA " + span.lo->version.original() +
                        " or newer and plan with --cuda X.Y --arch " + cap.str());
      if (auto n = compat::nearest_runnable(kb, *c.cuda_rel, cap))
        fixes.push_back("or --arch " + n->str() + (n->ptx ? " (PTX, JIT-compiled for " : " (its SASS runs on ") + cap.sm() + ")");
    }
    fixes.push_back("or build for another machine on purpose: --facts its doctor --json report (or --arch portable)");
    c.conflict("--arch " + list->torch_cuda_arch_list() + " on this machine",
               who + ", which the list does not cover, and no GPU here is covered: the wheel's CUDA ops fail with "
               "'no kernel image is available for execution on the device' and verify cannot pass here",
               fixes, src, compat::kArchCoverageRule);
  }
  // Long lists risk a libtorch_cuda too large to link (pytorch/pytorch#48588).
  const auto& b = c.in->build;
  if (static_cast<int>(list->size()) > b.max_arches) {
    std::vector<CudaArch> shorter;
    for (const auto& g : c.facts().gpus)
      if (g.compute_capability) shorter.push_back(*g.compute_capability);
    if (shorter.empty()) {
      auto all = list->arches();
      shorter.assign(all.end() - b.max_arches, all.end());
    }
    c.warn("arch", std::to_string(list->size()) + " arches",
           "more than " + std::to_string(b.max_arches) + " arches risk 'relocation truncated to fit' when linking "
           "libtorch_cuda; a shorter list: " + ArchList(shorter).torch_cuda_arch_list(),
           cite(b.max_arches_source, b.limits_origin));
  }
  c.set_env("TORCH_CUDA_ARCH_LIST", list->torch_cuda_arch_list(), "the arch list above, read by torch's CMake from the environment");
  c.set_env("TORCH_NVCC_FLAGS", "-Xfatbin -compress-all",
            "compressed fatbins, as every official build: smaller libtorch_cuda, less link pressure");
}

// Arches this torch release does not know by name need a KB fix; without one the build fails.
void check_arch_fixes(Ctx& c) {
  const auto& rel = *c.release;
  for (const auto& a : c.arches.arches()) {
    if (compat::arch_listed(rel.arch_names, a)) continue;
    std::string ids;
    for (const auto& f : c.selected_fixes)
      if (std::any_of(f.arches_any.begin(), f.arches_any.end(), [&](const CudaArch& x) { return x.same_capability(a); }))
        ids += (ids.empty() ? "" : ", ") + f.ref.id;
    if (!ids.empty()) {
      c.decide("arch", a.sass_only().str() + " (with fix " + ids + ")",
               a.sass_only().str() + " is not among the arches torch " + rel.version.original() +
                   "'s build scripts accept (torch.toml arch_names); planned with the fix that teaches them (its "
                   "reason says which file fails and how)",
               cite(rel.source, rel.origin));
      continue;
    }
    const auto* first = first_torch_with(c.in->kb, a);
    c.conflict("arch " + a.sass_only().str() + " with torch " + c.version(),
               "torch " + rel.version.original() + "'s build scripts do not know " + a.sass_only().str() +
                   " and no fix in the knowledge base teaches it",
               {first ? "build torch " + first->version.original() + " or newer, which knows " + a.sass_only().str()
                      : "no torch release in the KB knows it yet",
                "or add a fix for it under fixes/ in a --kb overlay", "or leave it out of --arch"},
               cite(rel.source, rel.origin));
  }
}

}  // namespace ts::plan::detail

namespace ts::plan::steps {

// plan.arches, the rule once for every kind: a CPU build compiles none; a CUDA build's list is
// --arch (numbers, native, a family, or the kind's own name) or else the GPUs here, decided in
// TORCH_CUDA_ARCH_LIST's spelling, then checked. Kinds differ in their own name (a torch build's
// "portable", an extension's "torch") and the checks: a torch build's against the toolkit, the GPUs
// here and the link limit; an extension's through the contract (check_arches), which needs nvcc.
void choose_arches(Ctx& c) {
  bool torch = c.kind == core::kTorchBuild;
  if (!c.cuda_on) {
    if (!torch) ext::unused_arch_options(c);
    return;
  }
  if (!torch && !c.toolkit) return;  // the toolkit is a conflict: an extension's list is checked against nvcc
  std::string text = c.p.spec.arch.empty() ? "native" : c.p.spec.arch;
  std::string src;
  auto list = torch ? detail::read_arches(c, text, src) : ext::read_arches(c, text);
  if (!list) return;
  c.arches = *list;
  c.p.arch_list = *list;
  if (torch)
    detail::check_arch_list(c, src);
  else
    ext::check_arch_list(c);
}

}  // namespace ts::plan::steps
