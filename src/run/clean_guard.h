#pragma once
// What `torchsmith clean` (and a stale-tree cleanup) may remove: only a directory that holds a
// build (CMakeCache.txt, build.ninja, or torchsmith's output marker), and never /, $HOME, the
// current directory or one of its parents, a git checkout, an in-source CMake build, or the
// source tree being built. `clean ../..` and `clean /` used to remove whatever they named.
#include <string>

namespace ts::run {

// "" when dir may be removed; else the reason, naming dir. source_tree ("" = unknown) is refused too.
// require_build false skips only the "holds a build" test (for a caller that removes nothing
// unless it found a CMakeCache.txt itself).
std::string why_not_removable(const std::string& dir, const std::string& source_tree = "", bool require_build = true);

}  // namespace ts::run
