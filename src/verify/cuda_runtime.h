#pragma once
// The CUDA a build's libraries need, checked against the torch they load with: the runtime in
// NEEDED (libcudart.so.N) and the release that compiled their GPU code (the fatbin's own banner,
// cuda_release.h). torch brings its CUDA major's libcudart, so an extension built by an nvcc of
// another major loads a second runtime or none (the usual "built with CUDA 12.1, nvcc is 11.x").
#include <string>
#include <vector>

#include "verify/verify.h"

namespace ts::verify {

// Per library: a "cuda runtime" verdict when it needs a libcudart, a "cuda code" verdict when its
// fatbin says which release compiled it. Pass when the major is torch_cuda's ("13.2"), fail naming
// both when not, a note when torch's CUDA is not known ("" or a CPU torch).
std::vector<Verdict> check_cuda_runtime(const VerifyReport& rep, const std::string& torch_cuda);

}  // namespace ts::verify
