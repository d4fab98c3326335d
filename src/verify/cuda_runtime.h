#pragma once
// The CUDA runtime a build's libraries need (libcudart.so.N in NEEDED), checked against the torch
// they load with: torch brings its CUDA major's libcudart, so an extension built by an nvcc of
// another major loads a second runtime or none (the usual "built with CUDA 12.1, nvcc is 11.x").
#include <string>
#include <vector>

#include "verify/verify.h"

namespace ts::verify {

// One verdict per library that needs a libcudart: pass when its major is torch_cuda's ("13.2"),
// fail when not, a note when torch's CUDA is not known ("" or a CPU torch).
std::vector<Verdict> check_cuda_runtime(const VerifyReport& rep, const std::string& torch_cuda);

}  // namespace ts::verify
