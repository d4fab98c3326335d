# torchsmith's PEP 517 build frontend, written by `torchsmith build` beside sitecustomize.py: the
# plan's build step runs `PY -m torchsmith_pep517 -w dist .` with this directory on PYTHONPATH.
#
# It does what `pip wheel --no-build-isolation --no-deps -w dist .` does for a local tree, in one
# process: the backend that pyproject.toml names (setuptools' legacy backend when it names none, as
# pip does) is imported from the target Python itself (no isolation, nothing installed) and its
# build_wheel hook writes the wheel. pip first runs the metadata hook in a process of its own, a
# second run of setup.py that imports torch; this frontend, like pypa/build, asks build_wheel alone.
# Works on every Python a torch supports (no f-strings, tomllib only when there).
import os
import re
import shutil
import sys
import traceback

USAGE = "usage: python -m torchsmith_pep517 -w WHEEL_DIR SOURCE_DIR"


def _say(msg):
    sys.stdout.write("torchsmith_pep517: %s\n" % msg)
    sys.stdout.flush()


def _die(msg, code=2):
    sys.stderr.write("torchsmith_pep517: error: %s\n" % msg)
    sys.exit(code)


def _by_hand(text):
    # The [build-system] table's two keys, for a Python with neither tomllib nor tomli.
    m = re.search(r"^\[build-system\][ \t]*$(.*?)(?=^\[|\Z)", text, re.M | re.S)
    section = m.group(1) if m else ""
    b = re.search(r"^\s*build-backend\s*=\s*[\"']([^\"']+)[\"']", section, re.M)
    p = re.search(r"^\s*backend-path\s*=\s*\[([^\]]*)\]", section, re.M)
    return (b.group(1) if b else None), (re.findall(r"[\"']([^\"']+)[\"']", p.group(1)) if p else [])


def backend_of(src):
    """(backend, backend_path) from SRC/pyproject.toml; setuptools' legacy backend when it names none."""
    legacy = ("setuptools.build_meta:__legacy__", [])
    path = os.path.join(src, "pyproject.toml")
    if not os.path.isfile(path):
        return legacy
    with open(path, "rb") as f:
        raw = f.read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        _die("%s is not UTF-8 (%s): fix the file" % (path, e))
    toml = None
    try:
        import tomllib as toml
    except ImportError:
        try:
            import tomli as toml
        except ImportError:
            toml = None
    if toml is None:
        backend, bpath = _by_hand(text)
    else:
        try:
            table = toml.loads(text).get("build-system", {})
        except Exception as e:  # the TOML library's own error type differs between tomllib and tomli
            _die("%s is not valid TOML (%s): fix the file" % (path, e))
        backend, bpath = table.get("build-backend"), table.get("backend-path", [])
    if not backend:
        return legacy
    if not isinstance(bpath, list) or not all(isinstance(p, str) for p in bpath):
        _die("%s: [build-system] backend-path must be a list of strings" % path)
    return backend, bpath


def load_backend(src, backend, bpath):
    # PEP 517: backend-path entries are relative to the tree and must stay inside it.
    root = os.path.realpath(src)
    for p in reversed(bpath):
        full = os.path.realpath(os.path.join(root, p))
        if full != root and not full.startswith(root + os.sep):
            _die("backend-path entry %r leaves the source tree" % p)
        sys.path.insert(0, full)
    module, _, attr = backend.partition(":")
    try:
        obj = __import__(module, fromlist=["__name__"])
    except ImportError:
        traceback.print_exc()
        # pip's wording (pyproject_hooks), so the same diagnosis reads both.
        _die("BackendUnavailable: Cannot import %r: the build backend is not installed in %s "
             "(builds run without isolation: install it there)" % (module, sys.executable), 1)
    for part in [a for a in attr.split(".") if a]:
        obj = getattr(obj, part)
    if not hasattr(obj, "build_wheel"):
        _die("the build backend %r has no build_wheel hook" % backend, 1)
    return obj


def _wheels(dirs):
    """{path: mtime} of every wheel in DIRS."""
    found = {}
    for d in dirs:
        if os.path.isdir(d):
            for f in os.listdir(d):
                if f.endswith(".whl"):
                    found[os.path.join(d, f)] = os.stat(os.path.join(d, f)).st_mtime
    return found


def build_wheel(hooks, src, wheel_dir):
    # A setup.py that reads its own positional arguments (`setup.py install 75`) and deletes them
    # takes setuptools' --dist-dir with them: bdist_wheel then writes to its default dist/ and the
    # backend, looking in its temporary folder, says "No distribution was found". The wheel that
    # build wrote, and only a wheel it wrote, is the build's result.
    places = [wheel_dir, os.path.join(src, "dist")]
    before = _wheels(places)
    try:
        return hooks.build_wheel(wheel_dir)
    except ValueError as e:
        if not str(e).startswith("No distribution was found"):
            raise
        new = sorted(p for p, t in _wheels(places).items() if before.get(p) != t)
        if len(new) != 1:
            raise
        _say("the backend found no wheel where it asked for one (the setup.py took --dist-dir off "
             "sys.argv), but the build wrote %s: taking it" % new[0])
        name = os.path.basename(new[0])
        if os.path.realpath(os.path.dirname(new[0])) != os.path.realpath(wheel_dir):
            shutil.copy2(new[0], os.path.join(wheel_dir, name))
        return name


def main(argv):
    # `python -m` put the working directory first on sys.path; pip's hook process does not, and a
    # tree's own top-level folder must not stand in for a backend (setuptools' legacy backend adds
    # the tree itself, as pip's does).
    if sys.path and sys.path[0] in ("", os.getcwd()):
        del sys.path[0]
    wheel_dir, src = None, None
    args = list(argv)
    while args:
        a = args.pop(0)
        if a in ("-w", "--wheel-dir") and args:
            wheel_dir = args.pop(0)
        elif a == "--":
            src = args.pop(0) if args else None
        elif a.startswith("-") or src is not None:
            _die("unknown argument %r (%s)" % (a, USAGE))
        else:
            src = a
    if not wheel_dir or not src:
        _die(USAGE)
    if not os.path.isdir(src):
        _die("no such source directory: %s" % src)
    wheel_dir = os.path.abspath(wheel_dir)
    src = os.path.abspath(src)
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(line_buffering=True)  # its lines and the compilers' keep their order
    backend, bpath = backend_of(src)
    _say("building a wheel of %s with %s (no isolation, no dependencies)" % (src, backend))
    os.chdir(src)  # backends read the tree from the working directory
    hooks = load_backend(src, backend, bpath)
    if not os.path.isdir(wheel_dir):
        os.makedirs(wheel_dir)
    name = build_wheel(hooks, src, wheel_dir)
    if not name or not os.path.isfile(os.path.join(wheel_dir, name)):
        _die("the build backend returned %r, which is not a file in %s" % (name, wheel_dir), 1)
    _say("Created wheel: %s" % os.path.join(wheel_dir, name))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
