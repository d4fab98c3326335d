#pragma once
// KB entries built in test code: their typed version and arch fields from literals ("13", "570.26", "8.6").
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "core/cuda_arch.h"
#include "core/version.h"

namespace ts::testkit {

// Throws std::bad_optional_access on a literal that is not a version: a broken test, not a case.
inline Version version_of(std::string_view s) { return Version::parse(s).value(); }
// An initializer list, not a vector<string>: {"8.0", "8.6"} would pick vector's iterator-pair constructor.
inline std::vector<CudaArch> arches_of(std::initializer_list<std::string_view> l) {
  std::vector<CudaArch> out;
  for (auto s : l) out.push_back(CudaArch::parse(s).value());
  return out;
}
inline std::vector<CudaArch> arches_of(const std::vector<std::string>& l) {
  std::vector<CudaArch> out;
  for (const auto& s : l) out.push_back(CudaArch::parse(s).value());
  return out;
}

}  // namespace ts::testkit
