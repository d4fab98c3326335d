#include "compat/facts_util.h"

#include <algorithm>
#include <cstdio>

namespace ts::compat {

std::optional<Version> ver(std::string_view s) {
  if (s.empty()) return std::nullopt;
  return Version::parse(s);
}

std::string major_minor(const std::string& version) {
  auto v = ver(version);
  return v ? v->major_minor() : version;
}

std::string cite(const std::string& source, const kb::Origin& o) {
  std::string at = where(o);
  if (source.empty()) return at;
  if (at.empty()) return source;
  return source + " (" + at + ")";
}

std::string where(const kb::Origin& o) {
  return o.file.empty() ? "" : o.file + ":" + std::to_string(o.line);
}

std::string capability_of(std::string_view arch) {
  for (std::string_view prefix : {"sm_", "compute_"}) {
    if (arch.substr(0, prefix.size()) == prefix) {
      auto a = CudaArch::parse(arch);
      return a ? a->capability() : "";
    }
  }
  auto a = CudaArch::parse(arch);
  return a ? a->capability() : "";
}

const CompilerFacts* default_host_compiler(const HostFacts& f) {
  auto base = [](const std::string& p) {
    auto s = p.rfind('/');
    return s == std::string::npos ? p : p.substr(s + 1);
  };
  for (const auto& c : f.compilers)
    if (c.family == "gcc" && (base(c.cxx) == "g++" || base(c.cc) == "gcc")) return &c;
  for (const auto& c : f.compilers)
    if (c.family == "gcc") return &c;
  return nullptr;
}

std::string gib(std::uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(bytes) / (1024.0 * 1024 * 1024));
  return buf;
}

std::string num(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", x);
  return buf;
}

int usable_cores(const CpuFacts& cpu) {
  return cpu.logical_cores > 0 ? cpu.logical_cores : std::max(cpu.online_cores, 0);
}

const kb::CudaRelease* newest_cuda_for_driver(const kb::Kb& kb, const Version& driver) {
  const kb::CudaRelease* best = nullptr;
  for (const auto& r : kb.cuda) {
    auto need = ver(r.driver_min_linux);
    auto v = ver(r.version);
    if (!need || !v || driver < *need) continue;
    if (!best || *v > *ver(best->version)) best = &r;
  }
  return best;
}

bool toolkit_compiles(const kb::CudaRelease& r, const std::string& capability) {
  for (const auto& a : r.arches)
    if (capability_of(a) == capability) return true;
  return false;
}

std::string ArchSpan::describe() const {
  if (first.empty() || !hi) return "";
  if (still_supported) return "since CUDA " + first;
  return "CUDA " + first + " to " + hi->version;
}

ArchSpan arch_span(const kb::Kb& kb, const std::string& capability) {
  ArchSpan s;
  const kb::CudaRelease* newest = nullptr;
  for (const auto& r : kb.cuda) {
    auto v = ver(r.version);
    if (!v) continue;
    if (!newest || *v > *ver(newest->version)) newest = &r;
    if (!toolkit_compiles(r, capability)) continue;
    if (!s.lo || *v < *ver(s.lo->version)) s.lo = &r;
    if (!s.hi || *v > *ver(s.hi->version)) s.hi = &r;
  }
  if (!s.lo) return s;
  s.first = s.lo->version;
  if (const kb::ArchSupport* a = kb.first_support(capability)) {
    auto f = ver(a->first_cuda);
    if (f && *f < *ver(s.lo->version)) {
      s.first = a->first_cuda;
      s.first_source = a->source;
    }
  }
  s.still_supported = s.hi == newest;
  return s;
}

std::optional<CudaArch> nearest_runnable(const kb::Kb& kb, const kb::CudaRelease& r, const CudaArch& gpu) {
  auto soc_arch = [&](const CudaArch& a) {
    for (const auto& t : kb.tegra)
      if (auto x = CudaArch::parse(t.arch); x && x->same_capability(a)) return true;
    return false;
  };
  bool gpu_is_soc = soc_arch(gpu);
  std::optional<CudaArch> sass, ptx;
  for (const auto& s : r.arches) {
    auto a = CudaArch::parse(s);
    if (!a || a->suffix) continue;  // 'a'/'f' code runs only on its own capability or family
    if (!gpu_is_soc && soc_arch(*a)) continue;  // an integrated GPU's arch is no target for a card
    if (a->runs_on(gpu) && (!sass || *a > *sass)) sass = a;
    if (*a < gpu && (!ptx || *a > *ptx)) ptx = a;
  }
  if (sass) return sass;
  if (ptx) {
    ptx->ptx = true;
    return ptx;
  }
  return std::nullopt;
}

}  // namespace ts::compat
