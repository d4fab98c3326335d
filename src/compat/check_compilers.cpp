// Host compilers vs each toolkit: nvcc refuses a GCC/Clang newer than its host_config.h allows.
#include <algorithm>

#include "compat/assess.h"
#include "compat/facts_util.h"
#include "compat/host_compiler_rule.h"

namespace ts::compat {

namespace {

Verdict gcc_vs_toolkit(const HostFacts& f, const kb::Kb& kb, const CompilerFacts& cc,
                       const CudaToolkitFacts& tk) {
  Verdict v;
  v.topic = "compiler";
  std::string mm = tk.version.major_minor();  // parsed when probed
  v.subject = "gcc " + cc.version + " (" + (cc.cxx.empty() ? cc.cc : cc.cxx) + ") as nvcc " + mm +
              "'s host compiler";
  const kb::CudaRelease* rel = kb.find_cuda(tk.version);
  auto cv = cc.version.parsed();
  int max = gcc_max_major(kb, tk.version);
  if (!rel || !cv || !max) {
    v.level = Level::warn;
    v.reason = "the newest GCC that CUDA " + mm + " accepts is not in the knowledge base";
    return v;
  }
  v.source = rel->source;
  v.where = where(rel->origin);
  v.rule = kHostCompilerRule;
  if (gcc_fits(cc.version, 0, max)) {
    v.level = Level::ok;
    v.reason = "CUDA " + mm + " accepts gcc <= " + rel->gcc_max.original();
    return v;
  }
  v.level = Level::fail;
  v.reason = "gcc " + cc.version + " is newer than CUDA " + mm + " accepts (<= " + rel->gcc_max.original() +
             "): nvcc stops with 'unsupported GNU version! gcc versions later than " +
             rel->gcc_max.original() + " are not supported!'";
  if (const CompilerFacts* fit = newest_gcc(f, 0, max)) {
    v.fix = "gcc " + fit->version + " is installed at " + fit->cc +
            ": set CUDAHOSTCXX=" + fit->cxx + " (torchsmith plan picks it)";
  } else {
    v.fix = install_gcc_advice(max);
  }
  return v;
}

}  // namespace

void check_compilers(const HostFacts& f, const kb::Kb& kb, const Target& t,
                     std::vector<Verdict>& out) {
  bool any_cxx = std::any_of(f.compilers.begin(), f.compilers.end(),
                             [](const CompilerFacts& c) { return !c.cxx.empty(); });
  if (!any_cxx) {
    out.push_back({"compiler", "C++ compiler", Level::fail,
                   "no C++ compiler found (PyTorch's build stops with 'c++: not found')",
                   "install one: apt-get install g++ (or build-essential)", "", "", "compiler.present"});
    return;
  }
  const CompilerFacts* host = default_host_compiler(f);
  if (!host) {
    out.push_back({"compiler", "gcc", Level::warn,
                   "no GCC found: PyTorch's Linux builds and nvcc expect GCC by default",
                   "apt-get install g++", "", "", "compiler.present"});
    return;
  }
  for (const auto& tk : f.cuda_toolkits) out.push_back(gcc_vs_toolkit(f, kb, *host, tk));
  const kb::TorchRelease* rel = t.torch.empty() ? nullptr : kb.find_torch(t.torch);
  auto min = rel ? rel->gcc_min : std::nullopt;
  auto hv = host->version.parsed();
  if (min && hv) {
    Verdict v{"compiler",
              "gcc " + host->version + " for torch " + t.torch,
              Level::ok,
              "",
              "",
              rel->source,
              where(rel->origin),
              kHostCompilerRule};
    if (hv->major() < min->major()) {
      v.level = Level::fail;
      v.reason = "torch " + rel->version.original() + " needs gcc >= " + min->original() +
                 (rel->cxx_standard ? " (C++" + std::to_string(rel->cxx_standard) + ")" : "") +
                 unverified(*rel, "gcc_min");
      v.fix = "install g++-" + min->original() + " or newer and build with CC/CXX pointing at it";
    } else {
      v.reason =
          "torch " + rel->version.original() + " needs gcc >= " + min->original() + unverified(*rel, "gcc_min");
    }
    out.push_back(v);
  }
}

}  // namespace ts::compat
