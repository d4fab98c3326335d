#include "core/gpu_code.h"

#include <nlohmann/json.hpp>

namespace ts {

GpuCodeList GpuCodeList::read(const std::vector<std::string>& names, std::size_t* skipped) {
  GpuCodeList l;
  for (const auto& n : names) {
    if (auto a = CudaArch::parse(n)) l.code_.push_back(*a);
    else if (skipped) ++*skipped;
  }
  return l;
}

std::string code_name(const CudaArch& a) { return a.ptx ? a.compute() : a.sm(); }

std::vector<std::string> GpuCodeList::names() const {
  std::vector<std::string> out;
  for (const auto& a : code_) out.push_back(code_name(a));
  return out;
}

std::string GpuCodeList::joined(std::string_view sep) const {
  std::string out;
  for (const auto& a : code_) out += (out.empty() ? "" : std::string(sep)) + code_name(a);
  return out;
}

void to_json(nlohmann::json& j, const GpuCodeList& l) { j = l.names(); }

void from_json(const nlohmann::json& j, GpuCodeList& l) {
  std::vector<std::string> names;
  if (j.is_array())
    for (const auto& x : j)
      if (x.is_string()) names.push_back(x.get<std::string>());
  l = GpuCodeList::read(names);
}

}  // namespace ts
