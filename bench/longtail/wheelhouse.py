#!/usr/bin/env python3
"""The long-tail bench's wheelhouse for a device with no index (pack_device.sh --wheelhouse).

Reads what each packed package's Python build and runtime declare (pyproject.toml's [build-system]
requires and [project] dependencies, setup.py's literal install_requires / setup_requires lists and
setup.cfg's [options] setup_requires, or
a name bound to one, a function of setup.py returning one, or the requirements file its
install_requires reads, or a list setup.py binds at its top level and a later top-level statement
fills, from a requirements file (alpaca_lora_4bit) or with strings, pybind11 where a CMake file
fetches it with FetchContent, a build-time
module setup.py imports that modules.toml names (pybind11 for a get_pybind_include(), as torchsmith's
build.undeclared-module installs it), and the
distribution build.toml's [[header_wheel]] names for headers its C/C++/CUDA sources include and its
archive lacks: nvidia-cutlass for `cutlass/`, as torchsmith's build.header-wheel installs it, and a
release that still has a module setup.py imports and build.toml's [[removed_module]] says a later one
removed: setuptools<82 for pkg_resources, as build.removed-module installs it), and downloads those wheels with their
dependencies from PyPI for the device's Python on manylinux x86_64 (binary wheels only). Never torch
or its kin: a requirement whose dependencies reach one is skipped and named, and no such wheel is
kept. The build's requirements are always taken; a runtime dependency only where it and what it
brings come to at most --runtime-mib (default 4 MiB: the device's carry is 64 MiB in all, so
tensorboard or matplotlib stay out, named). Prints what it took, per package, and the size.

  wheelhouse.py --packages DEST/packages.tsv --sources DEST --dest DEST/wheelhouse [--python 3.12]
"""
import argparse
import ast
import configparser
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))

# torch and what pins or replaces it, and CUDA's own wheels: the device's torch is the one under test.
KIN = re.compile(r"^(torch|torchvision|torchaudio|triton|pytorch-triton.*|nvidia-.*|.*-cu\d+)$")
# The device's torch environment has these (the bench's header prints numpy's version); torchsmith
# provisions its own cmake and ninja.
THERE = {"numpy", "setuptools", "wheel", "pip", "cmake", "ninja"}
PLATFORMS = ["manylinux2014_x86_64", "manylinux_2_17_x86_64", "manylinux_2_28_x86_64", "linux_x86_64"]


def norm(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def req_name(req):
    m = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", req)
    return norm(m.group(1)) if m else ""


def literal_lists(setup_py, keys=("install_requires", "setup_requires"), read=None):
    # install_requires=['yacs', ...] as written in setup.py's syntax tree, or a name bound to such a
    # list at its top level (VoGE's INSTALL_REQUIREMENTS = ['numpy', 'torch', 'plyfile']), or a call of
    # a function setup.py defines (gradsim's install_requires=get_requirements()), followed into its
    # body: the list it returns, else the requirements file it reads; or an expression naming a
    # requirements file the tree has (open('requirements.txt'), read by `read`). Nothing is executed;
    # a list computed otherwise is not read.
    try:
        tree = ast.parse(setup_py)
    except (SyntaxError, ValueError):
        return []
    bound, functions = {}, {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            bound[node.targets[0].id] = node.value
        elif isinstance(node, ast.FunctionDef):
            functions[node.name] = node
    out = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.keyword) and node.arg in keys):
            continue
        value = bound.get(node.value.id, node.value) if isinstance(node.value, ast.Name) else node.value
        out += declared_by(value, bound, functions, read)
        if isinstance(node.value, ast.Name) and node.value.id in bound:
            out += [r for r in grown_at_top(tree, node.value.id, read) if r not in out]
    return out


def grown_at_top(tree, name, read):
    # What setup.py's top level adds to a list it bound (alpaca_lora_4bit: install_requires = [], then
    # `with open("./requirements.txt") as f: for r in ...: install_requires.append(r)`): the strings a
    # top-level statement appends or extends it with, else the requirements file that statement names.
    out = []
    for stmt in tree.body:
        grows = [n for n in ast.walk(stmt) if
                 (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("append", "extend")
                  and isinstance(n.func.value, ast.Name) and n.func.value.id == name) or
                 (isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and n.target.id == name)]
        if not grows:
            continue
        literal = []
        for n in grows:
            args = n.args if isinstance(n, ast.Call) else [n.value]
            for a in args:
                literal += [a.value] if isinstance(a, ast.Constant) and isinstance(a.value, str) else \
                    strings(a) if isinstance(a, (ast.List, ast.Tuple)) else []
        files = txt_files(stmt)
        out += literal if literal or not files else requirement_lines((read(files[0]) if read else None) or "")
    return out


def strings(value):
    # The string constants of a list or tuple literal.
    return [e.value for e in value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]


def declared_by(value, bound, functions, read, depth=0):
    # The requirements an install_requires value names: a literal list, a call of a function of
    # setup.py's top level (what its body returns: a literal list, a name it binds to one, or the
    # requirements file it reads), else the first requirements file the expression itself names.
    if isinstance(value, (ast.List, ast.Tuple)):
        return strings(value)
    fn = value.func.id if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) else None
    if fn in functions and depth < 3:
        body = functions[fn]
        local = {n.targets[0].id: n.value for n in ast.walk(body) if isinstance(n, ast.Assign)
                 and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)}
        for ret in (n for n in ast.walk(body) if isinstance(n, ast.Return) and n.value is not None):
            got = ret.value
            if isinstance(got, ast.Name):
                got = local.get(got.id, bound.get(got.id, got))
            reqs = (strings(got) if isinstance(got, (ast.List, ast.Tuple)) else
                    declared_by(got, bound, functions, read, depth + 1) if isinstance(got, ast.Call) else [])
            if reqs:
                return reqs
        # The function reads a file: named by the call (parse_requirements("requirements/runtime.txt"),
        # over a default the signature gives) or in its body.
        files = txt_files(value) + txt_files(body)
    else:
        files = txt_files(value)
    for f in files[:1]:
        text = read(f) if read else None
        return requirement_lines(text or "")
    return []


def txt_files(node):
    return [e.value for e in ast.walk(node) if isinstance(e, ast.Constant) and isinstance(e.value, str)
            and e.value.endswith(".txt")]


def requirement_lines(text):
    # A requirements file's requirements: no comments, options (-r, -e, --index-url) or blank lines.
    out = []
    for line in text.splitlines():
        line = line.split(" #")[0].strip()
        if line and not line.startswith(("#", "-")):
            out.append(line)
    return out


def member_text(t, top):
    # A file of the package's directory in the archive, by its path relative to setup.py; None if absent.
    def read(rel):
        try:
            f = t.extractfile(top + os.path.normpath(rel))
        except KeyError:
            return None
        return f.read().decode("utf-8", "replace") if f else None
    return read


IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+([A-Za-z_]\w*)[\w.]*[ \t]+import\b|import[ \t]+([A-Za-z_][\w., \t]*))", re.M)


def build_modules(modules_toml=os.path.join(HERE, "..", "..", "data", "kb", "modules.toml")):
    # modules.toml's build-time modules: {module: distribution}, the table torchsmith's plan reads.
    with open(modules_toml, "rb") as f:
        return {m["name"]: m["pypi"] for m in tomllib.load(f).get("module", [])
                if m.get("build_signature") == "PYTHON_BUILD_DEPS_MISSING"}


def setup_imports(text, table):
    # (module, distribution) for each build-time module a setup.py imports, at any indentation, as
    # torchsmith's scan reads them (a comment line is no import).
    out = []
    for frm, names in IMPORT.findall(text):
        for mod in [frm] if frm else [n.strip().split(" ")[0].split(".")[0] for n in names.split(",")]:
            if mod in table and (mod, table[mod]) not in out:
                out.append((mod, table[mod]))
    return out


def declared(tar_path, subdir, table=(), modules=None, removed=None):
    # What one package declares, from its archive: (requirement, where, kind) triples; kind "headers" is a
    # distribution that carries headers its sources include (installed with --no-deps, never imported);
    # kind "removed" a release of a distribution the device has that still has a module setup.py imports.
    out = []
    top = "" if subdir in (".", "") else subdir.rstrip("/") + "/"
    with tarfile.open(tar_path) as t:
        out += [(d, where, "headers") for d, where in unshipped_header_wheels(t, top, table)]
        for m in t.getmembers():
            if not m.isfile() or not m.name.startswith(top):
                continue
            rel = m.name[len(top):]
            if rel == "pyproject.toml":
                try:
                    doc = tomllib.loads(t.extractfile(m).read().decode("utf-8", "replace"))
                except tomllib.TOMLDecodeError:
                    continue
                out += [(r, "pyproject.toml [build-system]", "build")
                        for r in doc.get("build-system", {}).get("requires", [])]
                out += [(r, "pyproject.toml [project]", "runtime") for r in doc.get("project", {}).get("dependencies", [])]
            elif rel == "setup.py":
                text = t.extractfile(m).read().decode("utf-8", "replace")
                out += [(d, "setup.py import %s" % mod, "build") for mod, d in setup_imports(text, modules or {})]
                out += [(r, "setup.py import %s" % mod, "removed") for mod, r in setup_imports(text, removed or {})]
                out += [(r, "setup.py setup_requires", "build") for r in literal_lists(text, ("setup_requires",))]
                out += [(r, "setup.py", "runtime") for r in literal_lists(text, ("install_requires",), read=member_text(t, top))]
            elif rel == "setup.cfg":
                text = t.extractfile(m).read().decode("utf-8", "replace")
                out += [(r, "setup.cfg setup_requires", "build") for r in setup_cfg_requires(text)]
            elif (rel.endswith(".cmake") or rel.endswith("CMakeLists.txt")) and "third_party/" not in rel:
                text = t.extractfile(m).read().decode("utf-8", "replace")
                if re.search(r"FetchContent_Declare\s*\(\s*pybind11\b", text):
                    out.append(("pybind11", rel + " FetchContent", "build"))
    return out


INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*["<]([\w.+-]+(?:/[\w.+-]+)+)[">]', re.M)
SOURCE_EXT = (".cu", ".cuh", ".cpp", ".cc", ".cxx", ".c", ".h", ".hpp", ".hh", ".inl")


def setup_cfg_requires(text):
    # setup.cfg's [options] setup_requires, one requirement a line (pyronn-torch's pyscaffold>=3.2a0,<3.3a0),
    # as torchsmith's scan reads it: setuptools fetches them when setup() runs, whatever setup.py says.
    cp = configparser.ConfigParser(interpolation=None, comment_prefixes=("#", ";"), inline_comment_prefixes=None,
                                   strict=False)
    try:
        cp.read_string(text)
    except configparser.Error:
        return []
    value = cp.get("options", "setup_requires", fallback="")
    return [line.split(" #")[0].strip() for line in value.splitlines() if line.split(" #")[0].strip()]


def removed_modules(build_toml=os.path.join(HERE, "..", "..", "data", "kb", "build.toml")):
    # build.toml's [[removed_module]]: {module: requirement}, a release of the distribution that still has it
    # (pkg_resources: setuptools<82), which torchsmith's build.removed-module installs from the wheelhouse.
    with open(build_toml, "rb") as f:
        return {m["module"]: m["requirement"] for m in tomllib.load(f).get("removed_module", [])}


def header_wheels(build_toml=os.path.join(HERE, "..", "..", "data", "kb", "build.toml")):
    # build.toml's [[header_wheel]]: (folder, distribution), the table torchsmith's plan reads.
    with open(build_toml, "rb") as f:
        return [(h["header"], h["distribution"]) for h in tomllib.load(f).get("header_wheel", [])]


def unshipped_header_wheels(t, top, table):
    # The distributions whose headers the package's sources include and no file of its archive provides
    # (a file that is or ends with the included path), as torchsmith's scan decides: (distribution, where).
    files, uses = [], []
    for m in t.getmembers():
        if not m.isfile() or not m.name.startswith(top) or not m.name.endswith(SOURCE_EXT):
            continue
        rel = m.name[len(top):]
        files.append(rel)
        if rel.startswith("third_party/"):
            continue
        text = t.extractfile(m).read().decode("utf-8", "replace")
        uses += [(inc, rel) for inc in INCLUDE.findall(text)]
    out = {}
    for inc, rel in uses:
        dist = next((d for h, d in table if inc.startswith(h)), None)
        if not dist or dist in out or any(f == inc or f.endswith("/" + inc) for f in files):
            continue
        out[dist] = "%s #include %s" % (rel, inc)
    return sorted(out.items())


def download(req, dest, python, constraints, deps=True):
    argv = [sys.executable, "-m", "pip", "download", "--disable-pip-version-check", "--only-binary", ":all:",
            "--python-version", python, "--implementation", "cp", "-c", constraints, "-d", dest]
    if not deps:
        argv.append("--no-deps")
    for p in PLATFORMS:
        argv += ["--platform", p]
    return subprocess.run(argv + ["--", req], capture_output=True, text=True)


def take(req, kind, dest, python, constraints, cap):
    # Into a scratch directory first: a runtime dependency is kept only within the cap, and what the
    # device has or torch's kin never (a "headers" or "removed" distribution, named by build.toml, is kept alone).
    with tempfile.TemporaryDirectory() as scratch:
        r = download(req, scratch, python, constraints, deps=kind not in ("headers", "removed"))
        if r.returncode != 0:
            return "skipped: " + (r.stderr.strip().splitlines() or ["?"])[-1][:200]
        new = [f for f in os.listdir(scratch) if (kind in ("headers", "removed") or (norm(f.split("-")[0]) not in THERE and
               not KIN.match(norm(f.split("-")[0])))) and not os.path.exists(os.path.join(dest, f))]
        size = sum(os.path.getsize(os.path.join(scratch, f)) for f in new)
        if kind == "runtime" and size > cap * 2**20:
            return "skipped: %.1f MiB with what it brings (%s), over the %g MiB a runtime dependency may take" % (
                size / 2**20, " ".join(sorted(new))[:200], cap)
        for f in new:
            os.replace(os.path.join(scratch, f), os.path.join(dest, f))
        return "%d wheel(s), %.1f MiB" % (len(new), size / 2**20)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--packages", required=True)
    ap.add_argument("--sources", required=True)
    ap.add_argument("--dest", required=True)
    ap.add_argument("--python", default="3.12")
    ap.add_argument("--runtime-mib", type=float, default=4.0)
    a = ap.parse_args()
    wanted = {}  # (requirement, kind) -> [package (where)]
    table = header_wheels()
    modules = build_modules()
    removed = removed_modules()
    for line in open(a.packages):
        f = line.rstrip("\n").split("\t")
        if len(f) < 5 or not f[4].endswith(".tar.gz"):
            continue
        for req, where, kind in declared(os.path.join(a.sources, f[4]), f[2], table, modules, removed):
            n = req_name(req)
            if kind in ("headers", "removed"):
                wanted.setdefault((req, kind), []).append("%s (%s)" % (f[0], where))
                continue
            if not n or KIN.match(n) or n in THERE or "@" in req:  # a direct URL is no index's
                continue
            wanted.setdefault((req.strip(), kind), []).append("%s (%s)" % (f[0], where))
    os.makedirs(a.dest, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as c:
        # An impossible pin for each of torch's kin: a requirement that depends on one cannot resolve.
        c.write("".join("%s===0.0.0+torchsmith.never\n" % k for k in ("torch", "torchvision", "torchaudio", "triton")))
        c.flush()
        # The build's requirements first: they are taken whatever their size.
        for req, kind in sorted(wanted, key=lambda k: (k[1] == "runtime", k[0])):
            what = take(req, kind, a.dest, a.python, c.name, a.runtime_mib)
            print("wheelhouse: %s (%s) for %s: %s" % (req, kind, ", ".join(wanted[(req, kind)]), what))
    size = sum(os.path.getsize(os.path.join(a.dest, f)) for f in os.listdir(a.dest))
    print("wheelhouse: %d wheels, %.1f MiB in %s" % (len(os.listdir(a.dest)), size / 2**20, a.dest))
    return 0


if __name__ == "__main__":
    sys.exit(main())
