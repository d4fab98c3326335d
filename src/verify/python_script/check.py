
import sys, os, json, traceback
OUT = sys.stdout
sys.stdout = sys.stderr
ARGS = json.loads(sys.argv[1]) if len(sys.argv) > 1 else {}

def emit(kind, **kw):
    kw["kind"] = kind
    OUT.write("@@torchsmith " + json.dumps(kw, default=str) + "\n")
    OUT.flush()

def why(e):
    lines = traceback.format_exception_only(type(e), e)
    return (lines[-1] if lines else repr(e)).strip()

def step(name, fn):
    emit("begin", step=name)
    try:
        v = fn()
    except BaseException as e:
        emit("end", step=name, ok=False, error=why(e))
        return None, False
    emit("end", step=name, ok=True, value=v)
    return v, True

torch = None
def import_torch():
    global torch
    import torch as t
    torch = t
    v = getattr(t, "version", None)
    return {"version": str(t.__version__), "file": getattr(t, "__file__", None),
            "cuda": getattr(v, "cuda", None), "git_version": getattr(v, "git_version", None),
            "debug": getattr(v, "debug", None), "python": sys.version.split()[0]}

def facts():
    out, errors = {}, {}
    def get(key, fn):
        try:
            out[key] = fn()
        except BaseException as e:
            errors[key] = why(e)
    get("cudnn", lambda: torch.backends.cudnn.version())
    # get_arch_list() is [] without a usable GPU; _cuda_getArchFlags reads the compiled-in list.
    get("arch_flags", lambda: torch._C._cuda_getArchFlags() if hasattr(torch._C, "_cuda_getArchFlags") else None)
    get("cxx11_abi", lambda: bool(torch._C._GLIBCXX_USE_CXX11_ABI))
    get("config", lambda: torch.__config__.show())
    out["errors"] = errors
    return out

def gpu_devices():
    import warnings
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        avail = bool(torch.cuda.is_available())
        n = int(torch.cuda.device_count()) if avail else 0
    names, caps = [], []
    for i in range(n):
        names.append(torch.cuda.get_device_name(i))
        c = torch.cuda.get_device_capability(i)
        caps.append("%d.%d" % (c[0], c[1]))
    return {"available": avail, "count": n, "names": names, "capabilities": caps,
            "warnings": ([str(x.message).strip() for x in w] or WARM_WARNINGS)[:3],
            "arch_list": torch.cuda.get_arch_list() if avail else []}

def gpu_randn():
    x = torch.randn(2, 64, 512, device="cuda", dtype=torch.float16)
    torch.cuda.synchronize()
    return {"shape": list(x.shape), "dtype": str(x.dtype), "device": str(x.device),
            "finite": bool(torch.isfinite(x).all().item())}

def gpu_matmul():
    torch.backends.cuda.matmul.allow_tf32 = False
    g = torch.Generator().manual_seed(0)
    a = torch.randn(128, 256, generator=g)
    b = torch.randn(256, 64, generator=g)
    want = a @ b
    got = (a.cuda() @ b.cuda()).cpu()
    diff = (got - want).abs().max().item()
    return {"max_abs_diff": diff, "close": bool(torch.allclose(got, want, rtol=1e-3, atol=1e-3))}

def gpu_move(i):
    def run():
        src = torch.arange(4096, dtype=torch.float32)
        t = src.to("cuda:%d" % i)
        via0 = src.to("cuda:0").to("cuda:%d" % i)
        torch.cuda.synchronize(i)
        return {"device": str(t.device), "equal": bool(torch.equal(t.cpu(), src)) and bool(torch.equal(via0.cpu(), src))}
    return run

PACKAGE = {"imported": False}
IMPORTED = set()  # the modules whose import step succeeded

# A module another distribution makes (fvcore for detectron2), which the import of `name` stopped on:
# its name, or "" when the error is the package's own, or torch's: a torch module the torch under
# test lacks (torch._six, gone since 2.0) is code written for another torch, which no install gives.
def missing_dependency(e, name):
    missing = getattr(e, "name", None) or ""
    if type(e).__name__ != "ModuleNotFoundError" or not missing:
        return ""
    names = [name, ARGS.get("import_name") or "", "torch"] + list(ARGS.get("modules") or []) + list(ARGS.get("own") or [])
    ours = {m.split(".")[0] for m in names if m}
    return "" if missing.split(".")[0] in ours else missing
def import_package(name):
    def run():
        try:
            m = __import__(name)
        except ImportError as e:
            # Another distribution's module missing (fvcore for detectron2): a runtime dependency,
            # not something the build made; the smoke code still decides whether the op works.
            missing = missing_dependency(e, name)
            if missing:
                return {"file": None, "missing_dependency": missing, "error": why(e)}
            raise
        PACKAGE["imported"] = True
        IMPORTED.add(name)
        return {"file": where(m)}
    return run

def where(m):
    # A namespace package (a directory without __init__.py, as simple-knn ships) has no __file__:
    # where it was found is its __path__.
    f = getattr(m, "__file__", None)
    if not f:
        p = list(getattr(m, "__path__", None) or [])
        f = p[0] if p else None
    return f

def import_module(name):
    def run():
        import importlib
        try:
            m = importlib.import_module(name)
        except ImportError as e:
            missing = missing_dependency(e, name)
            if missing:
                return {"file": None, "missing_dependency": missing, "error": why(e)}
            # A .so that is a plain library (no PyInit_) in the package: loaded, but no module.
            if "module export function" in str(e):
                return {"file": None, "not_a_module": why(e)}
            # `from ..x import` in a package the wheel installs top-level: it was written as a
            # subpackage (Deformable-DETR's models/ops/modules): import it as one, from where it is.
            if "relative import beyond top-level package" in str(e):
                return as_subpackage(name, e)
            raise
        IMPORTED.add(name)
        return {"file": where(m)}
    return run

# A compiled module of the wheel whose import did not succeed (its package's __init__ failed, or
# stopped on a missing dependency): loaded from its file alone, so whether the code the build made
# loads against this torch is answered apart from the package's Python.
def load_extension(name, path):
    def run():
        import importlib.machinery, importlib.util
        m = sys.modules.get(name)
        if m is not None and os.path.realpath(getattr(m, "__file__", "") or "") == os.path.realpath(path):
            return {"file": path, "by": "the package's import, before it stopped"}
        loader = importlib.machinery.ExtensionFileLoader(name, path)
        spec = importlib.util.spec_from_file_location(name, path, loader=loader)
        loader.exec_module(importlib.util.module_from_spec(spec))
        return {"file": path}
    return run

# The plan's module when it is an op library (no PyInit_<name>): loaded as the package loads it.
def load_op_library(path):
    def run():
        torch.ops.load_library(path)
        return {"file": path, "op_library": True}
    return run

def as_subpackage(name, err):
    import importlib, importlib.util, types
    spec = importlib.util.find_spec(name.split(".")[0])
    locs = list(spec.submodule_search_locations or []) if spec else []
    if not locs:
        raise err
    parent = "__torchsmith_parent__"
    pkg = types.ModuleType(parent)
    pkg.__path__ = [os.path.dirname(locs[0])]
    pkg.__package__ = parent
    sys.modules[parent] = pkg
    m = importlib.import_module(parent + "." + name)
    return {"file": where(m), "as_subpackage": why(err)}

def smoke(device):
    def run():
        g = {"torch": torch, "device": device, "__name__": "__torchsmith_smoke__"}
        if ARGS.get("import_name") and PACKAGE["imported"]:
            g[ARGS["import_name"].split(".")[0]] = __import__(ARGS["import_name"])
        try:
            exec(compile(ARGS["smoke"], "<plan smoke>", "exec"), g)
        except ImportError as e:
            # The smoke stopped on another distribution's module: said as such, not as the op failing.
            missing = missing_dependency(e, ARGS.get("import_name") or "")
            if missing:
                return {"device": device, "missing_dependency": missing, "error": why(e)}
            raise
        return {"device": device}
    return run

# While it waits, CUDA starts (with --gpu), so the GPU checks do not pay for it after the build.
# torch may warn only once why CUDA is unusable: kept for the gpu devices step.
WARM_WARNINGS = []
def warm_cuda():
    import warnings
    try:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            if torch.cuda.is_available():
                torch.cuda.init()
        WARM_WARNINGS.extend(str(x.message).strip() for x in w)
    except BaseException:
        pass  # the gpu devices step meets it again and reports it

# Started before the wheel is installed (torch's import overlaps pip's, or a whole build when a
# build run started it): wait for the caller's word, or end when the caller is gone.
def wait_go():
    f = ARGS.get("go_file")
    if not f:
        return True
    import time
    if ARGS.get("gpu"):
        warm_cuda()
    parent = ARGS.get("parent_pid")
    while not os.path.exists(f):
        if parent and os.getppid() != parent:
            return False
        time.sleep(0.01)
    with open(f) as h:
        g = json.load(h)
    if not g.get("go"):
        return False
    if g.get("deadline"):
        import signal
        signal.alarm(int(g["deadline"]))  # verify's --timeout, counted from its word
    ARGS.update(g.get("args") or {})
    extra = [p for p in g.get("path") or [] if p not in sys.path]
    after = ARGS.get("go_after")
    at = sys.path.index(after) + 1 if after in sys.path else 0
    sys.path[at:at] = extra
    import importlib
    importlib.invalidate_caches()  # the target directory was filled after torch's import listed it
    return True

_, ok = step("import torch", import_torch)
if ok:
    step("torch facts", facts)
    if not wait_go():
        sys.exit(0)
    if ARGS.get("import_name"):
        name = ARGS["import_name"]
        lib = ARGS.get("own_library")
        step("import " + name, load_op_library(lib) if lib else import_package(name))
    for name in ARGS.get("modules") or []:
        step("import " + name, import_module(name))
    for name, path in sorted((ARGS.get("compiled") or {}).items()):
        if name not in IMPORTED:
            step("load " + name, load_extension(name, path))
    if ARGS.get("smoke") and not ARGS.get("gpu"):
        step("smoke", smoke("cpu"))
    if ARGS.get("gpu"):
        dev, ok = step("gpu devices", gpu_devices)
        if ok and dev["count"] > 0:
            step("gpu randn", gpu_randn)
            step("gpu matmul", gpu_matmul)
            for i in range(dev["count"]):
                step("gpu cuda:%d" % i, gpu_move(i))
            if ARGS.get("smoke"):
                step("gpu smoke", smoke("cuda"))
emit("done")
