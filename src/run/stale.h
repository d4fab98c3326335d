#pragma once
// A build directory configured for another toolchain cannot be reused: CMake keeps the first
// compiler it found, refuses another generator, and breaks when the tree moved (a moved tree: the
// cure was rm -rf build). This reads build/CMakeCache.txt and says, with reasons, whether the
// plan's build can continue in it; cleaning keeps its logs first.
#include <map>
#include <string>
#include <vector>

#include "plan/plan.h"

namespace ts::run {

// What the plan's build will configure with; "" = not checked.
struct TreeExpectation {
  std::string home_directory;  // the source tree (CMAKE_HOME_DIRECTORY)
  std::string cxx_compiler;    // CMAKE_CXX_COMPILER
  std::string cuda_compiler;   // nvcc (CMAKE_CUDA_COMPILER or FindCUDA's CUDA_NVCC_EXECUTABLE)
  std::string python;          // Python_EXECUTABLE / PYTHON_EXECUTABLE
  std::string generator;       // "Ninja"
};
TreeExpectation expectation_from_plan(const plan::Plan& p, const std::string& src_dir);

struct StaleCheck {
  bool exists = false;  // a configured build directory (it has CMakeCache.txt) is there
  bool stale = false;
  std::vector<std::string> reasons;  // "compiler /usr/bin/g++-11 (the cache) vs /usr/bin/g++-12 (the plan)"
};
// Every CMakeCache.txt under build_dir's top (PyTorch's own at build/, plus nested ones CMake
// projects put in build/<sub>/) is checked; the first is enough for a torch tree.
StaleCheck check_stale(const std::string& build_dir, const TreeExpectation& want);

// NAME:TYPE=VALUE lines; comments and blank lines skipped.
std::map<std::string, std::string> parse_cmake_cache(const std::string& text);

// Copies build_dir's logs (CMake's output/error/configure logs, .ninja_log) into keep_dir, then
// removes build_dir. Returns "" or what went wrong; *kept lists the copied files.
std::string clean_build_dir(const std::string& build_dir, const std::string& keep_dir,
                            std::vector<std::string>* kept);

}  // namespace ts::run
