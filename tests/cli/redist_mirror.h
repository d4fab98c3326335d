#pragma once
// NVIDIA's redistributable layout made from this machine's CUDA 13.0 (/usr/local/cuda, assembled from
// NVIDIA's wheels, whose RECORDs say which file is whose): one archive per component,
// cuda_nvcc/linux-x86_64/cuda_nvcc-linux-x86_64-13.0.88-archive.tar.xz with one top folder, and a
// redistrib_13.0.2.json of the real manifests' shape (size as a string, md5, license_path). Used by
// the redist tests here and by ProvisionCli.CudaExtension*'s redist step.
#include <chrono>
#include <string>

#include "util/fs.h"
#include "util/process.h"

namespace ts::testing {

inline const char* kRedistCuda = "/usr/local/cuda";

// The compiler and runtime components, from the wheels' RECORDs (nvidia/cu13/X -> X).
inline const char* kMakeRedistMirror = R"PY(
import hashlib, json, os, subprocess, sys, tarfile
cuda, out = sys.argv[1], sys.argv[2]
parts = {"cuda_nvcc": "nvidia_cuda_nvcc-", "cuda_crt": "nvidia_cuda_crt-", "libnvvm": "nvidia_nvvm-",
         "cuda_cudart": "nvidia_cuda_runtime-", "cuda_cccl": "nvidia_cuda_cccl-"}
manifest = {"release_date": "2025-10-09", "release_label": "13.0.2", "release_product": "cuda"}
for comp, prefix in parts.items():
    info = [d for d in os.listdir(cuda + "/dist-info") if d.startswith(prefix)][0]
    version = info[len(prefix):-len(".dist-info")]
    top = "%s-linux-x86_64-%s-archive" % (comp, version)
    rel = "%s/linux-x86_64/%s.tar.xz" % (comp, top)
    os.makedirs(os.path.join(out, comp, "linux-x86_64"), exist_ok=True)
    plain = os.path.join(out, rel[:-3])
    with tarfile.open(plain, "w", format=tarfile.PAX_FORMAT) as t:
        for line in open(os.path.join(cuda, "dist-info", info, "RECORD")):
            path = line.rsplit(",", 2)[0]
            if path.startswith("nvidia/cu13/") and os.path.lexists(os.path.join(cuda, path[len("nvidia/cu13/"):])):
                t.add(os.path.join(cuda, path[len("nvidia/cu13/"):]), top + "/" + path[len("nvidia/cu13/"):], recursive=False)
        for so in os.listdir(cuda + "/lib"):  # the runtime archive's link-time names, as NVIDIA ships them
            if comp == "cuda_cudart" and so == "libcudart.so":
                t.add(os.path.join(cuda, "lib", so), top + "/lib/" + so)
    subprocess.run(["xz", "-0", "-T2", "-f", "--", plain], check=True)
    data = open(os.path.join(out, rel), "rb").read()
    manifest[comp] = {"name": comp, "license": "CUDA Toolkit", "license_path": comp + "/LICENSE.txt", "version": version,
                      "linux-x86_64": {"relative_path": rel, "sha256": hashlib.sha256(data).hexdigest(),
                                       "md5": hashlib.md5(data).hexdigest(), "size": str(len(data))}}
json.dump(manifest, open(os.path.join(out, "redistrib_13.0.2.json"), "w"), indent=4)
)PY";

// A --kb overlay's 13.0 entry: the five components above (the built-in one also lists nvrtc and nvtx).
inline const char* kRedistOverlay = R"(
[[redist]]
version = "13.0.88"
release = "13.0.2"
manifest = "https://developer.download.nvidia.com/compute/cuda/redist/redistrib_13.0.2.json"
components = ["cuda_nvcc", "cuda_crt", "libnvvm", "cuda_cudart", "cuda_cccl"]
source = "https://developer.download.nvidia.com/compute/cuda/redist/redistrib_13.0.2.json"
)";

// Writes the mirror under `out` and the overlay as `kb_dir`/provision.toml; "" or why not.
inline std::string make_redist_mirror(const std::string& scratch, const std::string& out, const std::string& kb_dir) {
  if (auto e = util::write_file_atomic(scratch + "/make_mirror.py", kMakeRedistMirror); !e.empty()) return e;
  if (auto e = util::write_file_atomic(kb_dir + "/provision.toml", kRedistOverlay); !e.empty()) return e;
  util::RunOptions o;
  o.timeout = std::chrono::minutes(5);
  auto r = util::run({"python3", scratch + "/make_mirror.py", kRedistCuda, out}, o);
  return r.ok() ? "" : "making the mirror failed: " + r.describe(o.timeout) + ": " + r.err;
}

}  // namespace ts::testing
