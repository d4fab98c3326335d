#pragma once
// CUDA code as a test writes it ("80", "90a") and the arch judgement as lines ("fail: missing sm_80").
#include <string>
#include <vector>

#include "verify/arch_check.h"

namespace ts::verify {

inline CudaCode code(std::vector<std::string> sass, std::vector<std::string> ptx) {
  CudaCode c;
  c.present = true;
  for (const auto& s : sass) c.sass.push_back(*CudaArch::parse(s));
  for (const auto& p : ptx) {
    CudaArch a = *CudaArch::parse(p);
    a.ptx = true;
    c.ptx.push_back(a);
  }
  return c;
}

// only_asked: the plan's list is target-only (verify --plan), so unplanned generations fail.
inline std::vector<std::string> lines(const CudaCode& c, const std::string& asked, bool only_asked = false) {
  std::vector<std::string> out;
  for (const auto& v : check_arches(c, *ArchList::parse(asked), "lib.so", only_asked))
    out.push_back(std::string(outcome_name(v.outcome)) + ": " + v.detail);
  return out;
}

}  // namespace ts::verify
