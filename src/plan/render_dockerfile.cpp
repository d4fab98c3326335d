// --format dockerfile: the same build inside an nvidia/cuda devel image.
#include <algorithm>
#include <set>
#include <sstream>

#include "core/version.h"
#include "plan/render.h"
#include "plan/toolkit_env.h"

namespace ts::plan {

namespace {

// Variables that name places on this host; the image has its own (set below).
const std::set<std::string> kHostPaths{"PATH", "CUDA_HOME", "CUDA_PATH", "CUDACXX", "CC", "CXX", "CUDAHOSTCXX", "CMAKE_CUDA_HOST_COMPILER",
                                       "CMAKE_PREFIX_PATH", "CUDNN_LIBRARY", "CUDNN_LIBRARY_PATH", "CUDNN_INCLUDE_DIR",
                                       "MAGMA_HOME", "NCCL_ROOT_DIR", "CONDA_PREFIX"};

std::string json_args(const std::vector<std::string>& argv) {
  std::string s = "[";
  for (const auto& a : argv) {
    std::string e;
    for (char c : a) e += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
    s += (s.size() > 1 ? ", \"" : "\"") + e + "\"";
  }
  return s + "]";
}

}  // namespace

std::string docker_image(const Plan& p, const BuildKb& b, const HostFacts& f, std::string* error) {
  if (p.cuda.empty()) return "ubuntu:22.04";
  const Image* img = b.image(p.cuda);
  if (!img) {
    if (error) *error = "build.toml names no nvidia/cuda image for CUDA " + p.cuda + " (add an [[image]] in a --kb overlay)";
    return "";
  }
  auto v = Version::parse(p.cuda);
  std::string tag = img->versions.back();
  for (const auto& t : img->versions)
    if (v && v->release().size() >= 3 && Version::parse(t) == v->truncated(3)) tag = t;
  std::string os = f.os.id + f.os.version_id;
  if (std::find(img->os.begin(), img->os.end(), os) == img->os.end()) os = img->os.back();
  bool cudnn = p.features.count("cudnn") && p.features.at("cudnn") && !img->cudnn.empty();
  return "nvidia/cuda:" + tag + (cudnn ? "-cudnn" + img->cudnn : "") + "-devel-" + os;
}

std::string render_dockerfile(const Plan& p, const BuildKb& b, const HostFacts& f, std::string* error) {
  std::string image = docker_image(p, b, f, error);
  if (image.empty()) return "";
  std::ostringstream o;
  std::string py = p.python_version.empty() ? "3.10" : Version::parse(p.python_version)->major_minor();
  o << "# torchsmith plan for torch==" << p.torch_version << " (" << p.build_version << "), in a container.\n"
    << "# Host paths of the plan (conda env, cuDNN, compilers) are replaced by the image's own.\n"
    << "FROM " << image << "\n"
    << "ARG DEBIAN_FRONTEND=noninteractive\n"
    << "RUN apt-get update && apt-get install -y --no-install-recommends git curl ca-certificates build-essential "
       "&& rm -rf /var/lib/apt/lists/*\n"
    << "# The plan's Python " << py << " with its build packages, in its own prefix.\n"
    << "RUN curl -fsSL -o /tmp/miniforge.sh "
       "https://github.com/conda-forge/miniforge/releases/latest/download/Miniforge3-Linux-$(uname -m).sh "
       "&& bash /tmp/miniforge.sh -b -p /opt/conda && rm /tmp/miniforge.sh\n";
  // The same NumPy the host build compiles against, and a CMake the release accepts.
  std::string numpy = p.numpy_version.empty() ? "'numpy<2'" : "numpy==" + p.numpy_version;
  std::string cmake = p.cmake_range.empty() ? "cmake" : "'cmake" + p.cmake_range + "'";
  o << "RUN /opt/conda/bin/conda create -y -p /opt/env python=" << py
    << " && /opt/env/bin/pip install pyyaml typing_extensions setuptools wheel ninja " << cmake << " " << numpy
    << " mkl-static mkl-include\n";
  o << "ENV PATH=/opt/env/bin:/usr/local/cuda/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \\\n"
    << "    CMAKE_PREFIX_PATH=/opt/env \\\n    CONDA_PREFIX=/opt/env";
  if (!p.cuda.empty())  // the image's toolkit, under the names the host plan set for its own
    for (const auto& e : toolkit_env("/usr/local/cuda")) o << " \\\n    " << e.name << "=" << e.value;
  for (const auto& [k, v] : p.env) {
    if (kHostPaths.count(k)) continue;
    std::string q;
    for (char c : v) q += (c == '"' || c == '\\' || c == '$') ? std::string("\\") + c : std::string(1, c);
    o << " \\\n    " << k << "=\"" << q << "\"";
  }
  o << "\n";
  std::string ref = p.source_ref.empty() ? "v" + p.torch_version : p.source_ref;
  std::string url = p.source_url.empty() ? "https://github.com/pytorch/pytorch" : p.source_url;
  o << "RUN git clone --branch " << ref << " --recursive --shallow-submodules --depth 1 " << url << " /src\n"
    << "WORKDIR /src\n";
  if (!p.fixes.empty()) {
    o << "COPY torchsmith /usr/local/bin/torchsmith\n";
    std::vector<std::string> fix{"torchsmith", "fix", "/src"};
    for (const auto& x : p.fixes) fix.insert(fix.end(), {"--fix", x.id});
    o << "RUN " << json_args(fix) << "\n";
  }
  for (const auto& s : p.steps) {
    if (s.name != "configure" && s.name != "build") continue;
    std::vector<std::string> argv = s.argv;
    for (auto& a : argv) {
      if (a == p.python) a = "/opt/env/bin/python";
      if (!p.python.empty() && a.rfind(p.python, 0) == 0) a = "/opt/env/bin/python";
    }
    if (!argv.empty() && argv[0].find("cmake") != std::string::npos) argv[0] = "cmake";
    o << "RUN " << json_args(argv) << "\n";
  }
  return o.str();
}

}  // namespace ts::plan
