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

// The parts of a conda file name "NAME-VERSION-BUILD.tar.bz2|.conda"; false when it is not one.
bool split_conda_file_name(std::string_view file_name, std::string& name, std::string& version,
                           std::string& build);

}  // namespace ts::package
