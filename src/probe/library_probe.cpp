// Libraries a PyTorch build links: cuDNN, NCCL, MAGMA, MKL. Found by their version headers, in
// the toolkits, the system include dirs, conda prefixes, oneAPI, and pip's nvidia/* packages
// inside each Python's site-packages (cuDNN from `pip install nvidia-cudnn`).
#include <algorithm>

#include "probe/places.h"
#include "probe/sections.h"
#include "probe/text.h"
#include "util/fs.h"

namespace ts::probe {
namespace {

struct Kind {
  const char* name;
  std::vector<const char*> headers;   // first that defines the version wins
  const char *major, *minor, *patch;  // #define names
  const char* lib_prefix;             // "libcudnn"
};

const std::vector<Kind>& kinds() {
  static const std::vector<Kind> k = {
      {"cudnn", {"cudnn_version.h", "cudnn_version_v9.h", "cudnn_version_v8.h", "cudnn.h"},
       "CUDNN_MAJOR", "CUDNN_MINOR", "CUDNN_PATCHLEVEL", "libcudnn"},
      {"nccl", {"nccl.h"}, "NCCL_MAJOR", "NCCL_MINOR", "NCCL_PATCH", "libnccl"},
      {"magma", {"magma_types.h"}, "MAGMA_VERSION_MAJOR", "MAGMA_VERSION_MINOR", "MAGMA_VERSION_MICRO", "libmagma"},
      {"mkl", {"mkl_version.h"}, "__INTEL_MKL__", "__INTEL_MKL_MINOR__", "__INTEL_MKL_UPDATE__", "libmkl_"},
  };
  return k;
}

struct IncludeDir {
  std::string dir;
  std::string source;  // "header", "conda", "pip:<dist>", "oneapi"
};

// The lib directory next to an include directory that holds lib_prefix*.so*.
std::string lib_dir_for(const Host& h, const std::string& inc, const char* lib_prefix) {
  std::string base = inc.substr(0, inc.rfind('/'));
  std::vector<std::string> cands;
  if (inc.starts_with("/usr/include")) {
    cands = {"/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib"};
  } else {
    cands = {base + "/lib64", base + "/lib", base + "/lib/x86_64-linux-gnu", base + "/lib/intel64",
             base + "/lib/aarch64-linux-gnu"};
  }
  for (auto& c : cands)
    for (auto& n : h.list(c))  // shared or static (conda's magma-cuda ships libmagma.a)
      if (n.starts_with(lib_prefix) && (n.find(".so") != std::string::npos || n.ends_with(".a"))) return c;
  return "";
}

// "nvidia_cudnn_cu12-9.1.0.70.dist-info" in site-packages -> "pip:nvidia-cudnn-cu12"
std::string pip_source(const Host& h, const std::string& site, const std::string& pkg) {
  std::string want = "nvidia_" + pkg;
  for (auto& n : h.list(site)) {
    if (!n.starts_with(want) || !n.ends_with(".dist-info")) continue;
    auto dist = n.substr(0, n.find('-'));
    std::replace(dist.begin(), dist.end(), '_', '-');
    return "pip:" + dist;
  }
  return "pip:nvidia-" + pkg;
}

}  // namespace

std::vector<LibraryFacts> probe_libraries(const Host& h, const std::vector<CudaToolkitFacts>& toolkits,
                                          const std::vector<PythonFacts>& pythons, Notes& notes) {
  std::vector<IncludeDir> dirs;
  for (auto& t : toolkits) {
    dirs.push_back({t.path + "/include", "header"});
    for (auto& tg : h.list(t.path + "/targets")) dirs.push_back({t.path + "/targets/" + tg + "/include", "header"});
  }
  for (auto d : {"/usr/include", "/usr/include/x86_64-linux-gnu", "/usr/include/aarch64-linux-gnu",
                 "/usr/local/include", "/usr/local/magma/include", "/opt/intel/mkl/include"})
    dirs.push_back({d, "header"});
  for (auto& v : h.list("/opt/intel/oneapi/mkl")) dirs.push_back({"/opt/intel/oneapi/mkl/" + v + "/include", "oneapi"});
  for (auto& p : conda_prefixes(h)) dirs.push_back({p + "/include", "conda"});
  for (auto& py : pythons) {
    if (py.site_packages.empty()) continue;
    for (auto pkg : {"cudnn", "nccl"})
      dirs.push_back({py.site_packages + "/nvidia/" + pkg + "/include", pip_source(h, py.site_packages, pkg)});
  }

  std::vector<LibraryFacts> out;
  // One entry per real header: /usr/include/cudnn_version.h is often an alternatives link to
  // /usr/include/x86_64-linux-gnu/cudnn_version_v8.h, and /usr/local/cuda is cuda-X.Y.
  std::vector<std::string> seen;
  for (auto& d : dirs) {
    if (!h.is_dir(d.dir)) continue;
    for (auto& k : kinds()) {
      for (auto hd : k.headers) {
        auto canon = h.canonical(d.dir + "/" + hd);
        if (canon.empty()) continue;
        if (std::find(seen.begin(), seen.end(), canon) != seen.end()) break;
        auto text = h.read(d.dir + "/" + hd, 2 << 20);
        if (!text) continue;
        auto a = define_value(*text, k.major), b = define_value(*text, k.minor), c = define_value(*text, k.patch);
        if (!all_digits(a)) continue;  // e.g. cudnn.h of cuDNN 8 only includes cudnn_version.h
        seen.push_back(canon);
        LibraryFacts f;
        f.name = k.name;
        f.version = FactVersion(a + "." + (all_digits(b) ? b : "0") + "." + (all_digits(c) ? c : "0"));
        f.include_dir = d.dir;
        f.library_dir = lib_dir_for(h, d.dir, k.lib_prefix);
        f.source = d.source;
        f.cuda_major = pip_cuda_major(f.source);
        out.push_back(f);
        break;
      }
    }
  }
  (void)notes;
  return out;
}

}  // namespace ts::probe
