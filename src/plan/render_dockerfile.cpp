// --format dockerfile: the same build inside an nvidia/cuda devel image.
#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>

#include "core/version.h"
#include "plan/build_frontend.h"
#include "plan/render.h"
#include "plan/toolkit_env.h"
#include "util/printable.h"

namespace ts::plan {

namespace {

// Variables that name places on this host; the image has its own (set below).
const std::set<std::string> kHostPaths{"PATH", "CUDA_HOME", "CUDA_PATH", "CUDACXX", "CC", "CXX", "CUDAHOSTCXX", "CMAKE_CUDA_HOST_COMPILER",
                                       "CMAKE_PREFIX_PATH", "CUDNN_LIBRARY", "CUDNN_LIBRARY_PATH", "CUDNN_INCLUDE_DIR",
                                       "MAGMA_HOME", "NCCL_ROOT_DIR", "CONDA_PREFIX"};

bool env_name(const std::string& k) {
  if (k.empty() || std::isdigit(static_cast<unsigned char>(k[0]))) return false;
  return std::all_of(k.begin(), k.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

bool has_control(const std::string& v) {
  return std::any_of(v.begin(), v.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

}  // namespace

std::string docker_image(const Plan& p, const BuildKb& b, const HostFacts& f, std::string* error) {
  if (p.cuda.is_conflict()) {  // no image is derived from a CUDA the plan refused
    if (error) *error = "the plan's CUDA is a conflict (" + p.cuda.conflict_what() + "): no nvidia/cuda image is chosen";
    return "";
  }
  const Version* v = p.cuda.version();
  if (!v) return "ubuntu:22.04";
  const Image* img = b.image(*v);
  if (!img) {
    if (error) *error = "build.toml names no nvidia/cuda image for CUDA " + p.cuda.text() + " (add an [[image]] in a --kb overlay)";
    return "";
  }
  std::string tag = img->versions.back().original();
  for (const auto& t : img->versions)
    if (v->release().size() >= 3 && t == v->truncated(3)) tag = t.original();
  std::string os = f.os.id + f.os.version_id;
  if (std::find(img->os.begin(), img->os.end(), os) == img->os.end()) os = img->os.back();
  bool cudnn = p.features.count("cudnn") && p.features.at("cudnn") && !img->cudnn.empty();
  return "nvidia/cuda:" + tag + (cudnn ? "-cudnn" + img->cudnn : "") + "-devel-" + os;
}

std::string render_dockerfile(const Plan& p, const BuildKb& b, const HostFacts& f, std::string* error) {
  std::string image = docker_image(p, b, f, error);
  if (image.empty()) return "";
  // Each value goes where it cannot be read as Dockerfile or shell syntax; what has no such place
  // (a newline in an ENV value, a key that is no variable name, an odd image name) is refused.
  auto refuse = [&](const std::string& why) {
    if (error) *error = why + "; a Dockerfile cannot carry it (plan --format sh or a lock can)";
    return std::string();
  };
  if (image.find_first_of(" \t\r\n\"'$`\\") != std::string::npos || has_control(image))
    return refuse("the image name " + util::printable(image) + " holds a space, quote or control character");
  for (const auto& [what, v] : {std::pair<const char*, const std::string&>{"the NumPy version", p.numpy_version},
                                 {"the CMake range", p.cmake_range}, {"the Python version", p.python_version}})
    if (has_control(v)) return refuse(std::string(what) + " " + util::printable(v) + " holds a control character");
  for (const auto& [k, v] : p.env)
    if (!kHostPaths.count(k) && (!env_name(k) || has_control(v)))
      return refuse("the environment " + util::printable(k) + "=" + util::printable(v) +
                    (env_name(k) ? " holds a control character" : " is not a variable name"));
  std::ostringstream o;
  std::string py = p.python_version.empty() ? "3.10" : p.python_version.major_minor();
  o << "# torchsmith plan for torch==" << util::printable(p.torch_version) << " (" << util::printable(p.build_version)
    << "), in a container.\n"
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
  std::string numpy = p.numpy_version.empty() ? sh_quote("numpy<2") : sh_quote("numpy==" + p.numpy_version);
  std::string cmake = sh_quote("cmake" + p.cmake_range);
  o << "RUN /opt/conda/bin/conda create -y -p /opt/env " << sh_quote("python=" + py)
    << " && /opt/env/bin/pip install pyyaml typing_extensions setuptools wheel ninja " << cmake << " " << numpy
    << " mkl-static mkl-include\n";
  o << "ENV PATH=/opt/env/bin:/usr/local/cuda/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \\\n"
    << "    CMAKE_PREFIX_PATH=/opt/env \\\n    CONDA_PREFIX=/opt/env";
  if (p.cuda.is_chosen())  // the image's toolkit, under the names the host plan set for its own
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
  o << "RUN " << docker_exec_form({"git", "clone", "--branch", ref, "--recursive", "--shallow-submodules", "--depth", "1", "--", url, "/src"})
    << "\nWORKDIR /src\n";
  if (!p.fixes.empty()) {
    o << "COPY torchsmith /usr/local/bin/torchsmith\n";
    std::vector<std::string> fix{"torchsmith", "fix", "/src"};
    for (const auto& x : p.fixes) fix.insert(fix.end(), {"--fix", x.id});
    o << "RUN " << docker_exec_form(fix) << "\n";
  }
  for (const auto& s : p.steps) {
    if (s.name != "configure" && s.name != "build") continue;
    std::vector<std::string> argv = by_hand(s.argv);
    for (auto& a : argv) {
      if (a == p.python) a = "/opt/env/bin/python";
      if (!p.python.empty() && a.rfind(p.python, 0) == 0) a = "/opt/env/bin/python";
    }
    if (!argv.empty() && argv[0].find("cmake") != std::string::npos) argv[0] = "cmake";
    o << "RUN " << docker_exec_form(argv) << "\n";
  }
  return o.str();
}

}  // namespace ts::plan
