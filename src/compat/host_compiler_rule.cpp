#include "compat/host_compiler_rule.h"

#include "compat/facts_util.h"

namespace ts::compat {

int gcc_max_major(const kb::Kb& kb, const std::string& cuda_version) {
  const kb::CudaRelease* rel = cuda_version.empty() ? nullptr : kb.find_cuda(cuda_version);
  return rel ? rel->gcc_max.major() : 0;
}

const kb::CudaRelease* oldest_cuda_for_gcc(const kb::Kb& kb, int gcc_major) {
  const kb::CudaRelease* best = nullptr;
  for (const auto& r : kb.cuda) {
    if (!r.gcc_max.major() || r.gcc_max.major() < gcc_major) continue;  // 0: not known
    if (!best || r.version < best->version) best = &r;
  }
  return best;
}

bool gcc_fits(const FactVersion& version, int lo, int hi) {
  const auto& v = version.parsed();
  if (!v) return false;
  return !(lo && v->major() < lo) && !(hi && v->major() > hi);
}

const CompilerFacts* newest_gcc(const HostFacts& f, int lo, int hi) {
  const CompilerFacts* best = nullptr;
  for (const auto& cc : f.compilers) {
    if (cc.family != "gcc" || cc.cxx.empty() || !gcc_fits(cc.version, lo, hi)) continue;
    if (!best || *cc.version.parsed() > *best->version.parsed()) best = &cc;
  }
  return best;
}

const CompilerFacts* default_gcc(const HostFacts& f) {
  const CompilerFacts* def = default_host_compiler(f);
  if (!def || def->cxx.empty() || !def->version.parsed()) def = newest_gcc(f, 0, 0);
  return def;
}

const CompilerFacts* user_compiler(const HostFacts& f) {
  for (const auto& c : f.compilers)
    if (!c.from_env.empty()) return &c;
  return nullptr;
}

std::string user_gcc_misfit(const CompilerFacts& cc, int lo, int hi, const std::string& lo_why,
                            const std::string& hi_why) {
  if (cc.family != "gcc") return "it is " + cc.family + ", and the build's host compiler is a GCC";
  if (cc.cxx.empty()) return "no C++ driver beside " + cc.cc + " (set CXX)";
  auto v = cc.version.parsed();
  if (!v) return "its version could not be read";
  if (hi && v->major() > hi) return "gcc " + cc.version + " is too new: " + hi_why;
  if (lo && v->major() < lo) return "gcc " + cc.version + " is too old: " + lo_why;
  return "";
}

HostGcc host_gcc(const CompilerFacts& def, const HostFacts& f, int lo, int hi) {
  if (gcc_fits(def.version, lo, hi)) return {&def, false};
  return {newest_gcc(f, lo, hi), true};
}

std::string install_gcc_advice(int major) {
  std::string n = std::to_string(major);
  return "apt-get install gcc-" + n + " g++-" + n + " and set CUDAHOSTCXX=/usr/bin/g++-" + n;
}

}  // namespace ts::compat
