#pragma once
// torchsmith's Python helper for extension builds (src/run/pyshim/sitecustomize.py, embedded):
// put first on the build's PYTHONPATH, it builds a package's setuptools extensions side by side
// within TORCHSMITH_EXT_JOBS compile slots. A plan names its directory as {pyshim} in env values.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "plan/plan.h"

namespace ts::run {

using plan::kPyshimPlaceholder;  // "{pyshim}" in a plan's env values

// The helper's source text, as embedded at build time.
std::string_view pyshim_sitecustomize();

// Its CMake side (src/run/pyshim/torchsmith_project.cmake): the include the helper passes to a
// CMake build's configure call for the build.cmake-arch / build.cmake-std remedies.
std::string_view pyshim_cmake_include();

// torchsmith's PEP 517 frontend (src/run/pyshim/torchsmith_pep517.py): a plan's build step runs it
// as `python -m torchsmith_pep517 -w dist .` (plan/contract.h).
std::string_view pyshim_pep517();

// Its stand-in for pybind11's source tree (src/run/pyshim/fetch_pybind11.cmake), written as
// DIR/fetch/pybind11/CMakeLists.txt: FetchContent's pybind11 under build.fetch-local.
std::string_view pyshim_fetch_pybind11();

// Writes DIR/sitecustomize.py, DIR/torchsmith_project.cmake, DIR/torchsmith_pep517.py and
// DIR/fetch/pybind11/CMakeLists.txt atomically; returns "" or what went wrong.
std::string write_pyshim(const std::string& dir);

// The -D that makes a plan's own `cmake` configure step (a CMake project with no setup.py or
// pyproject) read the helper's CMake include DIR/torchsmith_project.cmake, when the step's
// environment asks a CMake remedy (TORCHSMITH_CMAKE_ARCHES / TORCHSMITH_CMAKE_STD / TORCHSMITH_NO_LTO / TORCHSMITH_CMAKE_TOOLCHAIN, from the plan or
// a live trigger); "" for any other step. The lock never names the include (lock_check.h refuses it).
std::string cmake_include_define(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
                                 const std::string& dir);

// Env values with {pyshim} replaced by dir; true when any value named it (the helper is needed).
bool expand_pyshim(std::map<std::string, std::string>& env, const std::string& dir);

}  // namespace ts::run
