#pragma once
// The build-environment remedies the plan decides for a setuptools/cpp_extension package (rule ids
// below), carried out inside the build by the build helper (src/run/pyshim/sitecustomize.py).
#include <string>

#include "plan/extension_internal.h"

namespace ts::plan::ext {

inline constexpr const char* kGpuTargetRule = "build.gpu-target";
inline constexpr const char* kArchListRule = "build.arch-list";
inline constexpr const char* kCxxStdRule = "build.cxx-std";
inline constexpr const char* kHostCompilerEnvRule = "build.host-compiler";
inline constexpr const char* kToolFlagsRule = "build.tool-flags";
inline constexpr const char* kAbsIncludeRule = "build.abs-include";
inline constexpr const char* kOneSetupRule = "build.one-setup";
inline constexpr const char* kFlagRemoveRule = "build.compiler-flag-remove";
inline constexpr const char* kGenerateSourcesRule = "build.generate-sources";
inline constexpr const char* kBuildOverlayRule = "build.overlay";
inline constexpr const char* kWheelhouseRule = "build.wheelhouse";
inline constexpr const char* kCmakeArchRule = "build.cmake-arch";
inline constexpr const char* kCmakeStdRule = "build.cmake-std";
inline constexpr const char* kCmakeToolchainRule = "build.cmake-toolchain";
inline constexpr const char* kParentLibraryRule = "build.parent-library";
inline constexpr const char* kFetchLocalRule = "build.fetch-local";
inline constexpr const char* kTorchPrefixRule = "build.torch-prefix";
inline constexpr const char* kLibEnvRule = "build.lib-env";
inline constexpr const char* kHeaderWheelRule = "build.header-wheel";
inline constexpr const char* kRemovedModuleRule = "build.removed-module";
inline constexpr const char* kUndeclaredModuleRule = "build.undeclared-module";
inline constexpr const char* kSetupFlagRule = "build.setup-flag";
inline constexpr const char* kScmVersionRule = "build.scm-version";
inline constexpr const char* kPlainVersionRule = "package.plain-version";

// A setup.py build through the target Python whose tree was read.
bool build_remedies_apply(const Ctx& c);
// --env KEY=VALUE into the build's environment (a key the plan sets itself is a conflict).
void choose_asked_env(Ctx& c);
// The remedies this package's setup.py needs, as env for the helper and one decision each (and --env).
void choose_build_remedies(Ctx& c);
// A CMake build driven from Python (scikit-build-core, scikit-build, a setup.py that runs cmake):
// the plan's arches through CMAKE_ARGS, and the build helper's CMake include forcing them and the
// standard torch's headers need over what the CMake files hard-code (cmake_remedies.cpp).
void choose_cmake_remedies(Ctx& c);
// Where find_package(Torch) finds the torch t: its torch.utils.cmake_prefix_path as probed, else the
// same path spelled from its package directory; "" for a torch with neither.
std::string torch_cmake_prefix(const TorchFacts& t);
// A well-known library's location the package's setup.py reads from its own variable with no default
// (NCCL_HOME, CUDNN_PATH; build.toml's [[package_env]]): set from the plan's toolkit or the library the
// host's facts place in the target Python's site-packages or the system's; unresolved, a warning.
void choose_library_env(Ctx& c);
// The package's Python reads its own installed version as a number: the wheel keeps that version
// as the package wrote it, with no '+pt..' label (package.plain-version).
void choose_plain_version(Ctx& c);
// The build helper (src/run/pyshim) first on the build's PYTHONPATH, once, with why and its source.
void use_build_helper(Ctx& c, const std::string& why, const char* source);

}  // namespace ts::plan::ext
