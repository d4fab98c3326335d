#pragma once
// What a package directory reaches outside itself: fairseq's modules/lightconv_layer compiles
// lightconv_cuda_kernel.cu, which does `#include "../cuda_utils.cu"`. A copy of the directory alone
// cannot build; the copy must hold those files too, at the same place relative to the package.
#include <string>
#include <vector>

namespace ts::source {

struct OutsideReach {
  int depth = 0;                   // how many levels above the package dir the farthest file lies (0: none)
  std::vector<std::string> files;  // relative to the package dir, normalized: "../cuda_utils.cu"
  std::vector<std::string> why;    // the first include that reached each: "lightconv_cuda_kernel.cu:8: #include ..."
};

// Quoted #include lines of the C/C++/CUDA files under `dir` (and, in turn, of each outside file they
// reach) resolved against the including file's directory; only files that exist, at most
// `max_depth` levels above `dir`. Never throws; an unreadable tree reaches nothing.
OutsideReach find_outside_reach(const std::string& dir, int max_depth = 3);

// `dir`'s last `depth` path components ("lightconv_layer" for depth 1): where the package lies in a
// copy that holds what it reaches.
std::string tail_components(const std::string& dir, int depth);

}  // namespace ts::source
