// The host compiler: one GCC for torch's C++ and as nvcc's host compiler, within the toolkit's
// gcc_max (nvcc refuses newer: "unsupported GNU version!") and at least the release's gcc_min.
#include "compat/facts_util.h"
#include "compat/host_compiler_rule.h"
#include "plan/resolve_ctx.h"

namespace ts::plan::detail {

void choose_compiler(Ctx& c) {
  const auto& f = c.facts();
  const CompilerFacts* def = compat::default_gcc(f);
  if (!def) {
    c.conflict("C++ compiler", "no GCC with g++ was found (the build stops with 'c++: not found')",
               {"apt-get install g++ (or build-essential)"}, "facts");
    return;
  }
  const auto& rel = *c.release;
  int lo = ver(rel.gcc_min) ? ver(rel.gcc_min)->major() : 0;
  std::string rel_src = cite(rel.source, rel.origin);
  // nvcc's limit only when it comes from the CUDA release the build targets (its citation is that entry's).
  int hi = c.cuda_rel ? core::nvcc_gcc_max(c) : 0;
  std::string cuda_src = hi ? cite(c.cuda_rel->source, c.cuda_rel->origin) : "";
  int dv = ver(def->version)->major();
  const compat::HostGcc host = compat::host_gcc(*def, f, lo, hi);
  const CompilerFacts* pick = host.pick;
  std::string why = "the default compiler (g++ on PATH)";
  if (host.moved) {
    std::string limit = hi ? "CUDA " + c.cuda_mm() + " accepts gcc <= " + c.cuda_rel->gcc_max : "";
    if (lo && dv < lo) limit = "torch " + rel.version + " needs gcc >= " + rel.gcc_min;
    if (!pick) {
      int need = hi && dv > hi ? hi : lo;
      std::string n = std::to_string(need);
      // Debian/Ubuntu name versioned compilers gcc-N/g++-N and install them as /usr/bin/g++-N.
      std::vector<std::string> fixes{"install gcc-" + n + ": apt-get install gcc-" + n + " g++-" + n +
                                     " (torchsmith plan then picks it" +
                                     (c.cuda_on ? " and sets CUDAHOSTCXX=/usr/bin/g++-" + n + ", nvcc's host compiler" : "") +
                                     "; a compiler cannot be provisioned from PyPI)"};
      if (hi && dv > hi)
        if (const auto* alt = compat::oldest_cuda_for_gcc(c.in->kb, dv))
          fixes.push_back("or use CUDA >= " + alt->version + ", which accepts gcc " + std::to_string(dv));
      c.conflict("gcc " + def->version + (hi ? " with CUDA " + c.cuda_mm() : ""),
                 limit + (hi && dv > hi ? ": nvcc stops with 'unsupported GNU version! gcc versions later than " +
                                              c.cuda_rel->gcc_max + " are not supported!'"
                                        : ""),
                 fixes, hi && dv > hi ? cuda_src : rel_src, compat::kHostCompilerRule);
      return;
    }
    why = "the default gcc " + def->version + " does not fit (" + limit + "): the newest installed one that does";
  }
  c.compiler = pick;
  c.p.host_compiler = pick->cxx;
  std::string range = (lo ? ">= " + std::to_string(lo) : std::string()) +
                      (hi ? std::string(lo ? ", " : "") + "<= " + std::to_string(hi) : std::string());
  c.decide("compiler", "gcc " + pick->version + " (" + pick->cxx + ")",
           why + (range.empty() ? "" : "; torch " + rel.version + (hi ? " with CUDA " + c.cuda_mm() : "") +
                                          " needs gcc " + range),
           hi ? cuda_src : rel_src, compat::kHostCompilerRule);
  core::set_compiler_env(c, *pick, "one compiler for the whole build (no ABI mix)");
  if (c.cuda_on) {
    c.set_env("CUDAHOSTCXX", pick->cxx, "nvcc's host compiler; setup.py maps it to CUDA_HOST_COMPILER (1.13 misspells that name itself, so this spelling is the one that always works)");
    c.set_env("CMAKE_CUDA_HOST_COMPILER", pick->cxx, "the same host compiler for CMake's CUDA language");
  }
}

}  // namespace ts::plan::detail
