#pragma once
// The pieces of a conda package's identity, each from the wheel, the plan or the user: build
// string (py3.8_cuda11.0.221_cudnn8.0.5_0), subdir, Python version and run dependencies.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "package/conda_wheel.h"

namespace ts::package {

// py<X.Y>_cuda<cuda>_cudnn<cudnn>_<N>; "_cudnn.." left out without cuDNN; py<X.Y>_cpu_<N> without
// CUDA.
std::string conda_build_string(std::string_view python_mm, std::string_view cuda,
                               std::string_view cudnn, int build_number);
// "cp38" → "3.8", "cp311" → "3.11"; "" when the tag names no single CPython (py3, py2.py3).
std::string python_from_tag(std::string_view python_tag);
// linux_x86_64 / manylinux_2_28_x86_64 / manylinux2014_aarch64 → linux-64 / linux-aarch64;
// "any" → the subdir of this machine; "" when the platform is not Linux.
std::string subdir_from_platform(std::string_view platform_tag);
// "X.Y.Z" → "X.Y"; "" when it has no minor part.
std::string major_minor(std::string_view version);

// A Requires-Dist line as a conda match spec ("typing-extensions>=4.10.0" → "typing-extensions
// >=4.10.0"); nullopt when it carries an environment marker (nvidia-*, triton: pip-only, platform
// specific), with *why saying so.
std::optional<std::string> conda_spec_from_requirement(std::string_view req, std::string* why);
// The package name of a match spec ("numpy >=1.23" → "numpy").
std::string spec_name(std::string_view spec);

// A conda file name "NAME-VERSION-BUILD.tar.bz2|.conda", read once: the build string's parts that
// conda_build_string writes come typed, so no caller cuts the build string again.
struct CondaDist {
  std::string name, version, build;  // "pytorch", "1.8.0", "py3.8_cuda11.0.221_cudnn8.0.5_0"
  std::string cudnn;                 // what follows "_cudnn" up to the next '_': "8.0.5"; "" when none
  std::optional<int> build_number;   // the build string's last "_N"; none when it ends otherwise
};
// nullopt when the name is not a conda file name.
std::optional<CondaDist> parse_conda_file_name(std::string_view file_name);

}  // namespace ts::package
