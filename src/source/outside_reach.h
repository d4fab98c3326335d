#pragma once
// What a package directory reaches outside itself: fairseq's modules/lightconv_layer compiles
// lightconv_cuda_kernel.cu, which does `#include "../cuda_utils.cu"`. A copy of the directory alone
// cannot build; the copy must hold those files too, at the same place relative to the package.
#include <string>
#include <utility>
#include <vector>

namespace ts::source {

struct OutsideReach {
  int depth = 0;                   // how many levels above the package dir the farthest file lies (0: none)
  std::vector<std::string> files;  // relative to the package dir, normalized: "../cuda_utils.cu"
  std::vector<std::string> why;    // the first include that reached each: "lightconv_cuda_kernel.cu:8: #include ..."
  // What setup.py names above the package and is not copied, and why ("../..: holds the package itself").
  std::vector<std::string> left;
  // Paths setup.py spells through a parent back to the package's own folder by its name (AudioStyleNet's
  // op/setup.py: `Path(__file__).parent / '..' / 'op'`), and why: the copy keeps that name (depth counts them).
  std::vector<std::string> own_name;
};

// The paths a setup.py text spells relative to its own directory that climb above it: a run of string
// literals (and os.pardir) joined by `,` or `/` whose first part is '..' or starts with '../'
// ("os.path.join(this_dir, '..', 'external', 'eigen3')" -> "../external/eigen3"), each with its
// 1-based line. Comments and triple-quoted strings are skipped.
std::vector<std::pair<std::string, int>> setup_py_paths_above(const std::string& setup_py);

// Quoted #include lines of the C/C++/CUDA files under `dir` (and, in turn, of each outside file they
// reach) resolved against the including file's directory; and the paths `dir`/setup.py spells above
// itself (its include_dirs and sources: NeuralTracking's csrc/setup.py joins its directory with '..',
// 'external', 'eigen3'), a directory with every file under it. Only what exists, at most `max_depth`
// levels above `dir`, never a directory that holds `dir` itself. Never throws; an unreadable tree
// reaches nothing.
OutsideReach find_outside_reach(const std::string& dir, int max_depth = 3);

// `dir`'s last `depth` path components ("lightconv_layer" for depth 1): where the package lies in a
// copy that holds what it reaches.
std::string tail_components(const std::string& dir, int depth);

}  // namespace ts::source
