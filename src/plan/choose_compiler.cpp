// The host compiler: one GCC for the build's C++ and as nvcc's host compiler, within the toolkit's
// gcc_max (nvcc refuses newer: "unsupported GNU version!") and, for torch, at least the release's gcc_min.
#include "compat/facts_util.h"
#include "compat/host_compiler_rule.h"
#include "plan/extension_internal.h"
#include "plan/resolve_ctx.h"
#include "plan/steps.h"

namespace ts::plan::detail {

std::string user_compiler_vars(const CompilerFacts& cc) {
  if (cc.from_env == "CXX") return "CXX=" + cc.cxx;
  return "CC=" + cc.cc + (cc.from_env == "CC CXX" ? ", CXX=" + cc.cxx : "");
}

std::string user_compiler_why(const CompilerFacts& cc) {
  return "your " + user_compiler_vars(cc) + " (plain pip and cpp_extension compile with it, nvcc gets it as -ccbin)";
}

// A torch build takes the fitting GCC or refuses (none installed fits), and sets CC/CXX and nvcc's
// host compiler here.
void take_compiler(Ctx& c, const CompilerFacts& def, const compat::HostGcc& host, int lo, int hi) {
  const auto& rel = *c.release;
  std::string rel_src = cite(rel.source, rel.origin);
  // nvcc's limit comes from the CUDA release the build targets (its citation is that entry's).
  std::string cuda_src = hi ? cite(c.cuda_rel->source, c.cuda_rel->origin) : "";
  int dv = def.version.parsed()->major();
  const CompilerFacts* pick = host.pick;
  std::string why = host.user ? user_compiler_why(*pick) : "the default compiler (g++ on PATH)";
  if (host.moved) {
    std::string limit = hi ? "CUDA " + c.cuda_mm() + " accepts gcc <= " + c.cuda_rel->gcc_max.original() : "";
    if (lo && dv < lo) limit = "torch " + rel.version.original() + " needs gcc >= " + rel.gcc_min->original();
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
          fixes.push_back("or use CUDA >= " + alt->version.original() + ", which accepts gcc " + std::to_string(dv));
      c.conflict("gcc " + def.version + (hi ? " with CUDA " + c.cuda_mm() : ""),
                 limit + (hi && dv > hi ? ": nvcc stops with 'unsupported GNU version! gcc versions later than " +
                                              c.cuda_rel->gcc_max.original() + " are not supported!'"
                                        : ""),
                 fixes, hi && dv > hi ? cuda_src : rel_src, compat::kHostCompilerRule);
      return;
    }
    why = "the default gcc " + def.version + " does not fit (" + limit + "): the newest installed one that does";
  }
  c.compiler = pick;
  std::string range = (lo ? ">= " + std::to_string(lo) : std::string()) +
                      (hi ? std::string(lo ? ", " : "") + "<= " + std::to_string(hi) : std::string());
  c.decide("compiler", "gcc " + pick->version + " (" + pick->cxx + ")",
           why + (range.empty() ? "" : "; torch " + rel.version.original() + (hi ? " with CUDA " + c.cuda_mm() : "") +
                                          " needs gcc " + range),
           hi ? cuda_src : rel_src, host.user ? compat::kUserCompilerRule : compat::kHostCompilerRule);
  core::set_compiler_env(c, *pick, "one compiler for the whole build (no ABI mix)");
  if (c.cuda_on) {
    c.set_env("CUDAHOSTCXX", pick->cxx, "nvcc's host compiler; setup.py maps it to CUDA_HOST_COMPILER (1.13 misspells that name itself, so this spelling is the one that always works)");
    c.set_env("CMAKE_CUDA_HOST_COMPILER", pick->cxx, "the same host compiler for CMake's CUDA language");
  }
}

}  // namespace ts::plan::detail

namespace ts::plan::steps {

// plan.compiler, the rule once for every kind: the default GCC (g++ on PATH), moved to the newest
// installed one within the build's limits when it does not fit: nvcc's gcc_max for the CUDA it
// compiles with and, for a torch build, the release's gcc_min (an extension builds against a torch
// already built). How a misfit ends is the kind's: a torch build refuses and sets CC/CXX/CUDAHOSTCXX
// here; an extension keeps the default and the contract's check_host_compiler says why (its
// compiler variables are written in plan.env).
void choose_compiler(Ctx& c) {
  const CompilerFacts* def = compat::default_gcc(c.facts());
  bool torch = c.kind == core::kTorchBuild;
  if (!def) {
    c.conflict("C++ compiler", std::string("no GCC with g++ was found (") +
               (torch ? "the build stops with 'c++: not found'" : "cpp_extension runs $CXX, default c++") + ")",
               {"apt-get install g++ (or build-essential)"}, "facts");
    return;
  }
  auto gcc_min = c.release ? c.release->gcc_min : std::nullopt;
  int lo = gcc_min ? gcc_min->major() : 0;
  // A torch build's nvcc limit comes from its CUDA release only (the KB entry its decision cites).
  int hi = torch && !c.cuda_rel ? 0 : core::nvcc_gcc_max(c);
  compat::HostGcc host = compat::host_gcc(*def, c.facts(), lo, hi);
  // The user's CC/CXX when it fits the same limits: plain pip compiles with it, so the plan does too.
  if (const CompilerFacts* user = compat::user_compiler(c.facts())) {
    std::string cuda_mm = c.cuda_rel ? c.cuda_rel->version.major_minor() : c.toolkit ? c.toolkit->version.major_minor() : "";
    std::string misfit = compat::user_gcc_misfit(
        *user, lo, hi, lo ? "torch " + c.release->version.original() + " needs gcc >= " + c.release->gcc_min->original() : "",
        hi ? "nvcc of CUDA " + cuda_mm + " accepts gcc <= " + std::to_string(hi) +
                 " (it stops with 'unsupported GNU version!')"
           : "");
    if (misfit.empty()) {
      def = user;
      host = {user, false, true};
    } else {
      c.record("compiler", "passed over: " + detail::user_compiler_vars(*user),
               misfit + "; the compiler is chosen as if it were unset", "facts ($CC/$CXX)", true,
               compat::kUserCompilerRule);
    }
  }
  if (torch)
    detail::take_compiler(c, *def, host, lo, hi);
  else
    ext::take_compiler(c, *def, host);
  if (c.compiler) c.p.host_compiler = c.compiler->cxx;
}

}  // namespace ts::plan::steps
