// The remedies for a CMake build that Python drives (scikit-build-core, scikit-build, a setup.py
// with its own CMakeExtension/build_ext), decided from the CMake side of the tree (SourceScan's
// cmake_* fields) and carried out in the build by the helper (src/run/pyshim/):
//  CMAKE_ARGS       the plan's -DCMAKE_CUDA_ARCHITECTURES, which scikit-build-core and scikit-build
//                   read, and which the helper appends to a setup.py's own cmake configure call;
//  build.cmake-arch the CMake files (or setup.py's cmake args) hard-code arches: a set() or a
//                   CACHE FORCE beats -D, so the helper's CMake include (CMAKE_PROJECT_INCLUDE_BEFORE)
//                   sets the plan's before languages are enabled and, once the project is read,
//                   on every target, dropping -gencode flags of its own;
//  build.cmake-std  the CMake files ask a C++/CUDA standard below what torch's headers need:
//                   raised on every target (a newer one is kept);
//  build.cmake-toolchain the CMake files (or cmake args) name the author's compilers or toolkit by a
//                   literal path: the include gives CMake the plan's (CUDACXX, CUDA_HOME, CC/CXX) instead;
//  build.fetch-local the CMake files download pybind11 with FetchContent: FetchContent gets the
//                   helper's stand-in source tree, which finds the pybind11 the build has.
#include <cstdlib>

#include "compat/facts_util.h"
#include "plan/build_remedies.h"
#include "plan/extension_internal.h"

namespace ts::plan::ext {

namespace {

constexpr const char* kHelper = "src/run/pyshim/sitecustomize.py; src/run/pyshim/torchsmith_project.cmake";
constexpr const char* kCmakeDocs =
    "https://cmake.org/cmake/help/latest/variable/CMAKE_PROJECT_INCLUDE_BEFORE.html; "
    "https://cmake.org/cmake/help/latest/prop_tgt/CUDA_ARCHITECTURES.html";
constexpr const char* kBackendDocs =
    "https://scikit-build-core.readthedocs.io/en/latest/configuration/index.html (CMAKE_ARGS); "
    "https://github.com/opencv/opencv-python/issues/830 (scikit-build reads CMAKE_ARGS)";

std::string joined(const std::vector<std::string>& v, std::size_t most = 3) {
  std::string out;
  for (std::size_t i = 0; i < v.size() && i < most; ++i) out += (out.empty() ? "" : "; ") + v[i];
  if (v.size() > most) out += "; and " + std::to_string(v.size() - most) + " more";
  return out;
}

// A Python build reads the include through the helper on PYTHONPATH; the plan's own cmake
// configure step (a tree with no Python build) is given it by the run (run/pyshim.h).
void use_helper(Ctx& c, const std::string& why) {
  if (c.req->scan.cmake_driver != "cmake") use_build_helper(c, why, kHelper);
}

// build.torch-prefix: a Python-driven CMake build whose CMake files find_package(Torch) (shocc's
// setup.py runs cmake with no -DCMAKE_PREFIX_PATH) cannot find TorchConfig.cmake, which lives inside
// the torch package; CMake also reads CMAKE_PREFIX_PATH from the environment (':'-separated here), so
// the target torch's torch.utils.cmake_prefix_path goes first there and a value already set stays after it.
void choose_torch_prefix(Ctx& c) {
  const auto& scan = c.req->scan;
  if (!scan.cmake_finds_torch || scan.cmake_driver == "cmake") return;  // the plan's own configure passes -D
  std::string prefix = torch_cmake_prefix(c.python->torch);
  if (prefix.empty()) return;
  auto it = c.p.env.find("CMAKE_PREFIX_PATH");
  std::string was = it == c.p.env.end() ? "" : it->second;
  if (was == prefix || was.rfind(prefix + ":", 0) == 0) return;
  const std::string src = "https://cmake.org/cmake/help/latest/envvar/CMAKE_PREFIX_PATH.html; "
                          "https://github.com/pytorch/pytorch/blob/main/torch/utils/__init__.py (cmake_prefix_path)";
  c.set_env("CMAKE_PREFIX_PATH", was.empty() ? prefix : prefix + ":" + was,
            "find_package(Torch) finds the target torch" + std::string(was.empty() ? "" : " (the value given is kept after it)"),
            src, kTorchPrefixRule);
  c.decide("remedy", std::string(kTorchPrefixRule) + " " + prefix,
           "the CMake files find_package(Torch) (" + scan.cmake_finds_torch_at + ") and " +
               (scan.cmake_driver == "setup.py" ? "setup.py's own cmake call" : scan.cmake_driver) +
               " tells CMake nothing of where torch is, so configure stops at 'Could not find a package configuration "
               "file provided by \"Torch\"'; the build's CMAKE_PREFIX_PATH, which CMake reads from the environment, "
               "starts with the target torch's torch.utils.cmake_prefix_path",
           src, kTorchPrefixRule);
}

// build.cmake-toolchain: a set() of CMAKE_CUDA_COMPILER (or the C/C++ compiler, the toolkit root) wins
// over the CUDACXX/CC/CXX/CUDA_HOME the plan exports, so the configure looks for the author's
// /usr/local/cuda-10.2/bin/nvcc; the helper's include puts the plan's back at every project().
void choose_cmake_toolchain(Ctx& c, const std::string& given) {
  const auto& own = c.req->scan.cmake_own_toolchain;
  if (own.empty()) return;
  std::vector<std::string> lines;
  std::string vars;
  for (const auto& [var, where] : own) {
    lines.push_back(where);
    vars += (vars.empty() ? "" : ", ") + var;
  }
  const std::string src = "https://cmake.org/cmake/help/latest/envvar/CUDACXX.html; "
                          "https://cmake.org/cmake/help/latest/variable/CMAKE_LANG_COMPILER.html; " + std::string(kHelper);
  use_helper(c, "it gives the CMake project the plan's compilers and toolkit");
  c.set_env("TORCHSMITH_CMAKE_TOOLCHAIN", "1", "the CMake files name their own compilers or toolkit", src,
            kCmakeToolchainRule);
  c.decide("remedy", std::string(kCmakeToolchainRule) + " " + vars,
           "the CMake files name the author's compilers or CUDA toolkit (" + joined(lines) + "), which win over "
           "the CUDACXX, CC/CXX and CUDA_HOME the build is given, so the configure looks for tools this machine may "
           "not have, or mixes two toolkits; the build helper's CMake include" + given + " sets the plan's (CUDACXX "
           "for the CUDA compiler, CUDA_HOME for the toolkit root, CC/CXX/CUDAHOSTCXX when the plan sets them, "
           "else CMake's own choice) at every project() and wherever the project sets them again",
           src, kCmakeToolchainRule);
}

}  // namespace

std::string torch_cmake_prefix(const TorchFacts& t) {
  if (!t.cmake_prefix_path.empty()) return t.cmake_prefix_path;
  return t.path.empty() ? "" : t.path + "/share/cmake";  // torch/utils/__init__.py's own definition
}

void choose_cmake_remedies(Ctx& c) {
  const auto& scan = c.req->scan;
  if (!c.python || !scan.scanned || scan.cmake_driver.empty()) return;
  choose_torch_prefix(c);
  const std::string drv = scan.cmake_driver;
  const std::string by = drv == "setup.py" ? "setup.py's own cmake call" : drv;
  const std::string given = drv == "cmake" ? " (the run passes it to the configure step as "
                                             "-DCMAKE_PROJECT_INCLUDE_BEFORE)" : "";
  if (c.cuda_on && !c.arches.empty()) {
    std::string list = c.arches.cmake_cuda_architectures();
    auto it = c.p.env.find("CMAKE_ARGS");
    std::string was = it == c.p.env.end() ? "" : it->second;
    if (drv != "cmake")  // the plan's own configure step passes -DCMAKE_CUDA_ARCHITECTURES itself
      c.set_env("CMAKE_ARGS", (was.empty() ? "" : was + " ") + "-DCMAKE_CUDA_ARCHITECTURES=" + list,
                "the plan's arches for " + by + (drv == "setup.py" ? " (the build helper appends it to that call)" : ""),
                kBackendDocs);
    if (drv == "setup.py") use_helper(c, "it passes the plan's CMake arguments to setup.py's cmake call");
    if (!scan.cmake_own_arches.empty()) {
      use_helper(c, "it forces the plan's CUDA arches in the CMake project");
      c.set_env("TORCHSMITH_CMAKE_ARCHES", list, "the CMake files hard-code their CUDA arches", kHelper, kCmakeArchRule);
      c.decide("remedy", std::string(kCmakeArchRule) + " " + list,
               "the package fixes its own CUDA arches (" + joined(scan.cmake_own_arches) + "), which a -D on the "
               "command line does not beat (a set() or a CACHE FORCE wins over it); the build helper's CMake include" +
                   given + " sets " + list + " before the languages are enabled and, once the project is read, on every "
               "target's CUDA_ARCHITECTURES, dropping -gencode/-arch flags of its own",
               std::string(kCmakeDocs) + "; " + kHelper, kCmakeArchRule);
    }
  }
  choose_cmake_toolchain(c, given);
  // A configure-time download fails on a machine with no network (an offline runner, a GPU box): the
  // one dependency torchsmith can give from the build environment is pybind11 (a Python package, and
  // Debian's pybind11-dev), through FETCHCONTENT_SOURCE_DIR_<NAME>, which FetchContent_Populate and
  // FetchContent_MakeAvailable both honour (CMake >= 3.11).
  for (const auto& [dep, where] : scan.cmake_fetches) {
    if (dep != "pybind11" || drv == "cmake") continue;  // the plan's own configure step takes no CMAKE_ARGS
    const std::string def = "-DFETCHCONTENT_SOURCE_DIR_PYBIND11=" + std::string(kPyshimPlaceholder) + "/fetch/pybind11";
    auto it = c.p.env.find("CMAKE_ARGS");
    std::string was = it == c.p.env.end() ? "" : it->second;
    const std::string src = "https://cmake.org/cmake/help/latest/module/FetchContent.html (FETCHCONTENT_SOURCE_DIR_"
                            "<uppercaseName>); src/run/pyshim/fetch_pybind11.cmake";
    if (drv == "setup.py") use_helper(c, "it passes the plan's CMake arguments to setup.py's cmake call");
    c.set_env("CMAKE_ARGS", (was.empty() ? "" : was + " ") + def,
              "FetchContent gets pybind11 from the build environment, not the network", src, kFetchLocalRule);
    c.decide("remedy", std::string(kFetchLocalRule) + " pybind11",
             "the CMake files download pybind11 at configure time (" + where + "), which fails with no network; "
             "FetchContent is given the build helper's stand-in for its source tree (FETCHCONTENT_SOURCE_DIR_PYBIND11), "
             "which uses the pybind11 the build environment has: the target Python's pybind11 package, else the "
             "system's (pybind11-dev); with neither, configure stops saying so",
             src, kFetchLocalRule);
  }
  if (!scan.cmake_stds.empty()) {
    const kb::TorchRelease* rel = c.kb().find_torch(c.python->torch.version);
    int need = rel ? rel->cxx_standard : 0;
    std::vector<std::string> older;
    for (const auto& [year, where] : scan.cmake_stds)
      if (cxx_std_older(year, need)) older.push_back(where);
    if (!older.empty()) {
      std::string src = compat::cite(rel->source, rel->origin);
      use_helper(c, "it raises the CMake project's language standard");
      c.set_env("TORCHSMITH_CMAKE_STD", std::to_string(need), "the torch's headers need C++" + std::to_string(need),
                src, kCmakeStdRule);
      c.decide("remedy", std::string(kCmakeStdRule) + " c++" + std::to_string(need),
               "the CMake files ask for an older standard (" + joined(older) + ") while torch " + rel->version.original() +
                   "'s headers need C++" + std::to_string(need) + "; the build helper's CMake include" + given + " raises "
                   "CXX_STANDARD/CUDA_STANDARD and -std flags below it on every target (newer ones are kept)",
               src + "; " + kHelper, kCmakeStdRule);
    }
  }
}

}  // namespace ts::plan::ext
