// The script each Python runs once (`python -I -c SCRIPT`). It must work on Python 3.6 .. 3.14
// (no walrus, no importlib.metadata), and it never imports the build packages. Torch is only
// located (find_spec imports nothing of it) and its directory reported, so the probe reads its
// files (probe/torch_files.cpp); with TORCHSMITH_NO_TORCH_IMPORT unset the script imports it as
// before (`doctor --import-torch`). Anything torch prints while importing goes to stderr, so
// stdout holds one JSON object.
#include "probe/sections.h"

#include <algorithm>
#include <string>
#include <vector>

namespace ts::probe {

const char* python_probe_script() {
  return R"PY(
import sys, os, json, sysconfig
out = {}
def norm(n):
    return n.lower().replace("-", "_").replace(".", "_")
WANT = ["numpy", "setuptools", "wheel", "pyyaml", "typing_extensions", "ninja", "cmake", "pybind11", "pip", "torch",
        "scikit_build_core", "scikit_build", "packaging", "pathspec", "exceptiongroup", "tomli", "distro",
        "hatchling", "flit_core", "poetry_core", "setuptools_scm", "cython", "meson_python", "pdm_backend"]
def versions():
    # *.dist-info / *.egg-info names along sys.path, first hit wins as for imports. Listing the
    # directories is much cheaper than importing importlib.metadata, and works on 3.6/3.7 too.
    found = {}
    for d in sys.path:
        try:
            names = os.listdir(d or ".")
        except Exception:
            continue
        for e in names:
            if not (e.endswith(".dist-info") or e.endswith(".egg-info")):
                continue
            parts = e.rsplit(".", 1)[0].split("-")
            if len(parts) >= 2:
                n = norm(parts[0])
                if n in WANT and n not in found:
                    found[n] = parts[1]
    return found
try:
    v = sys.version_info
    out["version"] = "%d.%d.%d" % (v[0], v[1], v[2])
    ft = "t" if sysconfig.get_config_var("Py_GIL_DISABLED") else ""
    out["abi_tag"] = "cp%d%d%s" % (v[0], v[1], ft)
    out["platform_tag"] = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    out["site_packages"] = sysconfig.get_paths().get("purelib", "")
    out["prefix"] = sys.prefix
    out["stdlib"] = sysconfig.get_paths().get("stdlib", "")
    if os.path.isdir(os.path.join(sys.prefix, "conda-meta")):
        out["env_kind"] = "conda"
    elif sys.prefix != getattr(sys, "base_prefix", sys.prefix):
        out["env_kind"] = "venv"
    else:
        out["env_kind"] = "system"
    pk = versions()
    out["packages"] = dict((k, pk[k]) for k in pk if k != "torch")
    t = {"present": False}
    import importlib.util
    spec = None
    try:
        spec = importlib.util.find_spec("torch")
    except Exception:
        pass
    tdir = ""
    if spec is not None:
        origin = getattr(spec, "origin", None) or ""
        if os.path.basename(origin).startswith("__init__."):
            tdir = os.path.dirname(origin)
    else:
        # A finder that failed (a broken .pth hook): the plain sys.path layout still tells.
        for d in sys.path:
            if os.path.isfile(os.path.join(d or ".", "torch", "__init__.py")):
                tdir = os.path.join(d or ".", "torch")
                break
    if spec is not None or tdir:
        t["present"] = True
        t["version"] = pk.get("torch", "")
        if tdir:
            t["path"] = os.path.abspath(tdir)
        if os.environ.get("TORCHSMITH_NO_TORCH_IMPORT") != "1":
            saved = sys.stdout
            sys.stdout = sys.stderr
            try:
                import torch
                t["version"] = str(torch.__version__)
                t["cuda"] = torch.version.cuda or ""
                try:
                    cd = torch.backends.cudnn.version()
                    t["cudnn"] = str(cd) if cd else ""
                except Exception:
                    t["cudnn"] = ""
                t["cxx11_abi"] = bool(getattr(torch._C, "_GLIBCXX_USE_CXX11_ABI", False))
                arch = []
                try:
                    # Build-time list: torch.cuda.get_arch_list() is [] where no GPU answers.
                    if hasattr(torch._C, "_cuda_getArchFlags"):
                        arch = (torch._C._cuda_getArchFlags() or "").split()
                    if not arch and torch.version.cuda:
                        arch = list(torch.cuda.get_arch_list())
                except Exception:
                    pass
                t["arch_list"] = arch
                t["arch_list_known"] = bool(arch) or not torch.version.cuda
                t["debug"] = bool(getattr(torch.version, "debug", False))
                t["git_version"] = str(getattr(torch.version, "git_version", ""))
                t["path"] = os.path.dirname(torch.__file__)
                t["cmake_prefix_path"] = str(getattr(getattr(torch, "utils", None), "cmake_prefix_path", "") or "")
            except BaseException as e:
                msg = str(e).strip().splitlines()
                t["error"] = type(e).__name__ + (": " + msg[-1] if msg else "")
            finally:
                sys.stdout = saved
    out["torch"] = t
except BaseException as e:
    out["error"] = "probe script failed: %s: %s" % (type(e).__name__, e)
sys.stdout.write(json.dumps(out) + "\n")
sys.stdout.flush()
)PY";
}

bool python_probe_lists(std::string_view normalized_name) {
  // Read from the script's own WANT list, so the list lives in one place.
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    std::string_view text = python_probe_script();
    auto from = text.find("WANT = [");
    auto to = text.find(']', from);
    for (auto q = text.find('"', from); q != std::string_view::npos && q < to; ) {
      auto end = text.find('"', q + 1);
      out.emplace_back(text.substr(q + 1, end - q - 1));
      q = text.find('"', end + 1);
    }
    return out;
  }();
  return std::find(names.begin(), names.end(), normalized_name) != names.end();
}

}  // namespace ts::probe
