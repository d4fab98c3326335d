# torchsmith's parallel-extensions shim: written to OUT/.torchsmith/pyshim/ and put first on the
# build's PYTHONPATH, so the setup.py that pip runs in its own process loads it too.
#
# setuptools builds a package's extensions one after another; torch's BuildExtension then
# compiles the sources of one extension through ninja. A package of many extensions
# (torch-scatter: 8, apex: 20) therefore waits on each extension's slowest file in turn.
# This shim builds the extensions side by side when TORCHSMITH_EXT_JOBS is set:
#  - each extension gets its own build_temp, so its build.ninja and objects are its own
#    (two extensions that compile the same csrc/x.cpp with other macros no longer share x.o);
#  - at most TORCHSMITH_EXT_JOBS compile slots are taken at once: an extension holds
#    TORCHSMITH_NVCC_THREADS slots per CUDA source (nvcc --threads compiles that many arches at
#    once), or, without CUDA, one per C++ source, so the plan's cores-and-memory budget still
#    bounds the long compiles (a CUDA extension's few C++ sources end early and are not counted);
#  - only torch's ninja path is made parallel: the serial path (use_ninja=False) swaps the
#    compiler executable in place, which is not safe from two threads.
# The compile commands, flags and link of every extension are the ones setuptools would run,
# except that TORCHSMITH_FORCE_INCLUDE="h1 h2" (a remedy for sources that forgot a standard
# header) adds `-include h` to each extension's C++ flags; nvcc gets it from NVCC_APPEND_FLAGS.
# TORCHSMITH_NINJA=1 turns a setup.py's use_ninja=False back on (torch's BuildExtension then
# compiles the same sources with the same flags through ninja, MAX_JOBS at a time, instead of one
# file after another) when torch finds ninja; the package's files are not edited.
#
# Build-environment remedies, each set by the plan (src/plan/build_remedies.cpp) under a rule id:
#  - build.gpu-target, TORCHSMITH_GPU_TARGET="8.6": in this process only, torch.cuda answers for the
#    plan's target (is_available, device_count, get_device_capability/properties), so a setup.py
#    that refuses CUDA without a GPU builds its CUDA extension on a GPU-less machine;
#  - build.arch-list, TORCHSMITH_ARCH_LIST="8.6;9.0": setup.py's own writes to TORCH_CUDA_ARCH_LIST
#    keep the plan's value, and -gencode/-arch/-code flags in extra_compile_args are dropped, so
#    torch's cpp_extension derives them from the plan's list; and whenever TORCH_CUDA_ARCH_LIST is set,
#    a flag that merely holds the text 'arch' (-I/.../marching_cubes/include) no longer makes
#    cpp_extension add no arch flags at all (nvcc's default arch instead of the plan's);
#  - build.host-compiler, TORCHSMITH_HOST_COMPILER=1: setup.py's own writes to CC, CXX, CUDAHOSTCXX
#    or NVCC_CCBIN (flame-1's rasterizer: os.environ["CC"] = "gcc-8", a compiler this machine lacks)
#    keep the plan's compiler, as its arch-list writes keep the plan's list; a write naming the plan's
#    own compiler (the same program, by PATH and symlinks) is kept as written; CC gets the plan's C
#    compiler (where the plan named only a C++ one, the C driver beside it, else none: distutils'
#    default), never a C++ driver that would compile C as C++; LDSHARED/LDCXXSHARED, the link commands
#    distutils runs, keep their flags with the plan's C/C++ compiler first;
#  - build.tool-flags, TORCHSMITH_TOOL_WRAP="nvcc g++ gcc c++ cc": setup.py runs make or nvcc itself
#    (pytorch_winoconv's Makefile: -gencode from sm_30, g++ -std=c++14), compiles cpp_extension never
#    sees; wrappers of those names first on PATH in this build only give nvcc the plan's arches
#    (TORCHSMITH_ARCH_LIST) for its own -gencode/-arch/-code, and raise an -std older than
#    TORCHSMITH_CXX_STD in a compile that names torch's include directory, for nvcc and the host
#    compilers alike;
#  - build.cxx-std, TORCHSMITH_CXX_STD="17": a -std older than the torch's headers need, in the
#    C++ and nvcc flags, becomes that standard (a newer one the package asks for is kept);
#  - build.abs-include, TORCHSMITH_ABS_INCLUDE=1: a relative -I/-isystem in extra_compile_args, and an
#    extension's relative include_dirs entry naming a directory there, become absolute against
#    setup.py's directory (torch's ninja build compiles in build_temp);
#  - build.one-setup, TORCHSMITH_ONE_SETUP=1: a setup.py that calls setup() at its top level more
#    than once (a distribution per extension) gets one setup() call, every call's parts merged,
#    each call's extensions built by its own call's build_ext where the calls' differ;
#  - build.compiler-flag-remove, TORCHSMITH_FLAG_REMOVE=1: a build_ext subclass that removes a flag
#    from distutils' compiler command lists (motion-sparsity's
#    `self.compiler.compiler_so.remove('-Wstrict-prototypes')`, a flag CPython's CFLAGS dropped in 3.7)
#    finds lists whose remove() of a flag they do not hold does nothing (and says so) instead of
#    raising ValueError; a flag they hold is removed as before;
#  - build.generate-sources, TORCHSMITH_GENERATE="gen.py:a.cu,b.cu": before the first compile, each
#    script beside setup.py whose files are missing runs once with this Python (fairseq's
#    cuda_function_gen.py writes the .cu files its kernel includes; setup.py never runs it);
#  - build.pybind11-torch, TORCHSMITH_PYBIND11_FOR="3.11:2.10 3.12:2.11 3.13:2.13" (a live trigger): a
#    vendored pybind11 include dir older than this Python needs is set aside for a new enough one;
#    (its CMake half, a vendored tree a CMake file adds, is the run's: src/source/vendored_pybind11.h);
#  - build.no-lto, TORCHSMITH_NO_LTO=1 (a live trigger: the linker could not run GCC's lto-wrapper):
#    -flto*, -fno-fat-lto-objects and -fuse-linker-plugin leave every extension's extra_compile_args
#    and extra_link_args, so the objects are plain and the link runs no LTO; a CMake build gets
#    -DCMAKE_INTERPROCEDURAL_OPTIMIZATION=OFF and the CMake include (every target's own IPO off);
#  - build.source-reroot, TORCHSMITH_REROOT=1 (a live trigger: an extension reached cpp_extension
#    with no source): a setup.py written for another layout (Vox-Surf's globs vox_recon/nsvf_ext/src,
#    its tree has nsvf_ext/src) gets, where a relative glob, source, include dir or -I names nothing and
#    its first directory is not in the tree, the same path with its missing leading directories dropped
#    (the first shorter path that names something, keeping one directory);
#  - build.source-name, TORCHSMITH_SOURCE_NAME=1 (a live trigger: a compiler or ninja found no file
#    for an extension's listed source): a listed source that does not exist is replaced by the one file
#    in its directory with its suffix, listed by no extension, whose stem holds every '_'/'-' token of
#    the missing stem (depth-from-focus lists gauss_psf_kernel.cu, its tree has gauss_psf_cuda_kernel.cu),
#    or, where none does, the one whose stem's tokens (two or more) are all the missing stem's but one
#    (fast-snarf's check_sign lists mesh_intersection_cudae_cuda.cpp, its tree has mesh_intersection_cuda.cpp);
#    none or two such files, and the source stays as it was (the build fails as before, the helper says why);
#  - build.extension-name, TORCHSMITH_EXT_NAME=1 (a live trigger: setup.py called CUDAExtension or
#    CppExtension without the extension's name): such a call gets the name the package's own
#    torch.utils.cpp_extension.load(name=..., sources=...) gives the same source files (by file
#    name), read from the package's .py files (mlp_maps' hashencoder: name='_hashencoder' commented
#    out in setup.py, load(name='_hash_encoder') in backend.py); no such load(), or two names, and the
#    call fails as it did;
#  - build.subpackages, TORCHSMITH_SUBPACKAGES=1 (a live trigger: verify's import of the wheel could not
#    find a subpackage the source has as a package directory): setup()'s packages get every subpackage
#    of each package they list (a folder with __init__.py below it, under the same package_dir), as
#    setuptools.find_packages would; gauenk/dnls lists packages=["dnls"] and imports dnls.utils, which
#    its README's `pip install -e` finds and a wheel lacks;
#  - build.cpp-kernel-launch, TORCHSMITH_CPP_LAUNCH=1 (a live trigger: g++ stopped at a kernel launch's
#    `<<<` in a .cpp of a CUDA extension): such a C++ source is compiled by nvcc through a one-line
#    .cu in build_temp that includes it (with TORCHSMITH_NVCC_TEMPLATE_STUB where nvcc knows it), the
#    file itself unchanged;
#  - build.python-alias, TORCHSMITH_PY_ALIASES="configparser:SafeConfigParser=ConfigParser ..." (a live
#    trigger: setup.py stopped on a name the target Python removed, with the signature's table): each
#    removed name (module:owner.name) becomes the name it aliased, on the module or class, when the module
#    loads, only where absent; an old versioneer.py's configparser.SafeConfigParser()/readfp() on 3.12;
#  - build.cpp-extension-device-type, TORCHSMITH_CPP_EXT_DEVICE_TYPE=1 (a live trigger: setup.py called
#    torch.utils.cpp_extension.include_paths(cuda=True) or library_paths(cuda=True), whose `cuda` flag
#    torch 2.6 made `device_type`): where the function takes device_type and no cuda, cuda=True/False (or
#    a bool passed first) becomes device_type="cuda"/"cpu"; lookforthechange's setup.py;
#  - build.setup-flag, TORCHSMITH_SETUP_FLAGS="--cuda-ext": setup.py builds its CUDA extension only when
#    its own flag is in sys.argv and removes it itself (neuralnet-pytorch); setuptools' PEP 517 backend
#    runs setup.py with the flag added to the command line it sets;
#  - build.cccl-include, not planned: read from the toolkit on disk (CUDA_HOME/include/cccl), the
#    host compiler gets the CCCL headers that nvcc finds itself (CUDA 13 moved them there).
#
# CMake builds that Python drives (scikit-build-core, scikit-build, a setup.py running cmake), from
# src/plan/cmake_remedies.cpp: the plan's -DCMAKE_CUDA_ARCHITECTURES comes in CMAKE_ARGS (which the
# backends read); a cmake configure call made from this process gets it last, so it wins over the
# package's own -D (a shell command line's cmake too: os.system or shell=True, as k2-fsa's packages
# run it); build.fetch-local's -DFETCHCONTENT_SOURCE_DIR_PYBIND11 goes the same way. With
# build.cmake-arch (TORCHSMITH_CMAKE_ARCHES), build.cmake-std (TORCHSMITH_CMAKE_STD) or build.cmake-toolchain
# (TORCHSMITH_CMAKE_TOOLCHAIN), the call also gets -DCMAKE_PROJECT_INCLUDE_BEFORE=torchsmith_project.cmake
# (written beside this file), which forces them over what the CMake files set themselves.
import os
import sys


def _chain_other_sitecustomize():
    # Ours shadows the interpreter's own sitecustomize (Debian has one): load that one too.
    here = os.path.dirname(os.path.abspath(__file__))
    mine = sys.modules.get("sitecustomize")
    saved = list(sys.path)
    try:
        sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
        del sys.modules["sitecustomize"]
        import importlib

        importlib.import_module("sitecustomize")
    except ImportError:
        pass
    except Exception as e:  # their file's own error must not stop the build
        sys.stderr.write("torchsmith: the interpreter's sitecustomize failed: %r\n" % (e,))
    finally:
        sys.path[:] = saved
        if mine is not None:
            sys.modules["sitecustomize"] = mine


def _env_int(name, fallback):
    try:
        return int(os.environ.get(name, ""))
    except ValueError:
        return fallback


def _slots():
    n = _env_int("TORCHSMITH_EXT_JOBS", 0)
    return n if n > 1 else 0


def _say(msg):
    sys.stderr.write("torchsmith: " + msg + "\n")
    sys.stderr.flush()


def _force_includes():
    return os.environ.get("TORCHSMITH_FORCE_INCLUDE", "").split()


def _add_force_includes(exts, headers):
    flags = [f for h in headers for f in ("-include", h)]
    for ext in exts:
        args = getattr(ext, "extra_compile_args", None)
        if isinstance(args, dict):  # torch's BuildExtension: {"cxx": [...], "nvcc": [...]}
            args["cxx"] = list(args.get("cxx", [])) + flags
        else:
            ext.extra_compile_args = list(args or []) + flags
    _say("force-included %s in the C++ sources of %d extension%s (TORCHSMITH_FORCE_INCLUDE)" % (
        ", ".join("<%s>" % h for h in headers), len(exts), "" if len(exts) == 1 else "s"))


def _ninja_wanted():
    return os.environ.get("TORCHSMITH_NINJA", "") == "1"


def _turn_ninja_on(cmd):
    # torch's BuildExtension reads self.use_ninja in build_extensions (and in finalize_options,
    # for force): set it before both run. Only torch's class has the attribute.
    if getattr(cmd, "use_ninja", None) is not False:
        return
    try:
        from torch.utils.cpp_extension import is_ninja_available
    except Exception:  # not torch's BuildExtension after all
        return
    if not is_ninja_available():
        _say("setup.py turns ninja off (use_ninja=False) and torch finds no ninja: compiled one file at a time")
        return
    cmd.use_ninja = True
    cmd.force = True  # what BuildExtension.finalize_options does for ninja: ninja decides what is stale
    _say("setup.py turns ninja off (use_ninja=False): compiling through ninja instead, same sources and flags "
         "(TORCHSMITH_NINJA)")


# -- build.gpu-target ---------------------------------------------------------------------------

def _gpu_target():
    t = os.environ.get("TORCHSMITH_GPU_TARGET", "")
    try:
        major, minor = t.split(".")
        return int(major), int(minor)
    except ValueError:
        return None


class _PlannedDevice(object):
    # What torch.cuda.get_device_properties answers with; only the capability is the plan's.
    def __init__(self, cap):
        self.major, self.minor = cap
        self.name = "torchsmith planned target sm_%d%d (no GPU in this build)" % cap
        self.total_memory = 0
        self.multi_processor_count = 0
        self.is_integrated = False
        self.is_multi_gpu_board = False

    def __repr__(self):
        return "_PlannedDevice(name=%r, major=%d, minor=%d)" % (self.name, self.major, self.minor)


def _answer_for_target(torch_module):
    cap = _gpu_target()
    cuda = getattr(torch_module, "cuda", None)
    if cap is None or cuda is None or getattr(cuda, "_torchsmith_target", None):
        return
    try:
        if cuda.is_available():  # a real GPU answers for itself
            return
    except Exception:
        pass
    dev = _PlannedDevice(cap)
    cuda.is_available = lambda: True
    cuda.device_count = lambda: 1
    cuda.current_device = lambda: 0
    cuda.get_device_capability = lambda device=None: cap
    cuda.get_device_properties = lambda device=None: dev
    cuda.get_device_name = lambda device=None: dev.name
    cuda._torchsmith_target = cap
    _say("[build.gpu-target] no GPU here: torch.cuda answers for the planned target %d.%d inside this build "
         "(TORCHSMITH_GPU_TARGET)" % cap)


# -- build.arch-list ----------------------------------------------------------------------------

def _planned_arches():
    return os.environ.get("TORCHSMITH_ARCH_LIST", "")


def _keep_planned_arch_list():
    # setup.py's os.environ["TORCH_CUDA_ARCH_LIST"] = "3.5;..." (or setdefault/update, which go
    # through __setitem__) keeps the plan's list; every other key is written as asked.
    env_cls = type(os.environ)
    if getattr(env_cls, "_torchsmith_arches", False):
        return
    original = env_cls.__setitem__

    def setitem(self, key, value):
        planned = _planned_arches()
        if self is os.environ and key == "TORCH_CUDA_ARCH_LIST" and planned and value != planned:
            _say("[build.arch-list] setup.py sets TORCH_CUDA_ARCH_LIST=%s: kept the plan's %s "
                 "(TORCHSMITH_ARCH_LIST)" % (value, planned))
            value = planned
        return original(self, key, value)

    env_cls.__setitem__ = setitem
    env_cls._torchsmith_arches = True


# -- build.host-compiler ------------------------------------------------------------------------

_COMPILER_VARS = ("CC", "CXX", "CUDAHOSTCXX", "NVCC_CCBIN")


def _host_compiler_wanted():
    return os.environ.get("TORCHSMITH_HOST_COMPILER") == "1"


def _program(cmd):
    # "g++", "/usr/bin/g++" and "ccache g++"'s first word: the file it runs (PATH, then symlinks).
    import shutil

    words = cmd.split() if isinstance(cmd, str) else []
    if not words:
        return ""
    found = shutil.which(words[0])
    return os.path.realpath(found) if found else words[0]


_LINKER_VARS = ("LDSHARED", "LDCXXSHARED")  # command lines: "gcc-8 -pthread -shared"
_LAUNCHERS = ("ccache", "sccache", "distcc")


def _c_sibling(cxx):
    # The C driver beside a C++ one, by GCC's and Clang's naming (the probe pairs them the other way):
    # ".../x86_64-linux-gnu-g++-12" -> ".../x86_64-linux-gnu-gcc-12", "clang++-14" -> "clang-14", "c++" -> "cc".
    d, n = os.path.split(cxx)
    if n == "c++":
        return os.path.join(d, "cc")
    for cpp, c in (("clang++", "clang"), ("g++", "gcc")):
        i = n.rfind(cpp)
        if i >= 0:
            return os.path.join(d, n[:i] + c + n[i + len(cpp):])
    return ""


def _planned_c(planned):
    # The plan's C compiler: its CC where that is a C compiler; where the plan named only a C++ one (CC is
    # its CXX, or unset), the C driver beside it when this machine has it; None: the default C compiler.
    import shutil

    cc, cxx = planned.get("CC"), planned.get("CXX")
    if cc and not (cxx and _program(cc) == _program(cxx)):
        return cc
    words = cxx.split() if cxx else []
    sibling = _c_sibling(words[-1]) if words else ""
    if sibling and shutil.which(sibling):
        return " ".join(words[:-1] + [sibling])
    return None


def _linker_program(words):
    # "ccache gcc-8 -shared" -> 1: the index of the program a launcher runs.
    i = 0
    while i + 1 < len(words) and os.path.basename(words[i]) in _LAUNCHERS:
        i += 1
    return i


def _keep_planned_compilers():
    # The plan's compiler was checked against nvcc and torch's ABI; a setup.py that names another
    # (one this machine may not have) gets the plan's in its place, every other key written as asked.
    # LDSHARED/LDCXXSHARED (distutils links with them) keep their flags with the plan's program first.
    env_cls = type(os.environ)
    planned = dict((k, os.environ[k]) for k in _COMPILER_VARS if os.environ.get(k))
    if getattr(env_cls, "_torchsmith_compilers", False) or not planned:
        return
    c_compiler = _planned_c(planned)
    chosen = set(_program(v) for v in planned.values())
    if c_compiler:
        chosen.add(_program(c_compiler))
    original = env_cls.__setitem__
    original_del = env_cls.__delitem__

    def setitem(self, key, value):
        if self is os.environ and key in _LINKER_VARS and isinstance(value, str):
            words = value.split()
            i = _linker_program(words)
            keep = c_compiler if key == "LDSHARED" else planned.get("CXX")
            if words and _program(words[i]) not in chosen:
                if keep is None:
                    _say("[build.host-compiler] setup.py sets %s=%s: the plan names no C compiler, so distutils' "
                         "default links (TORCHSMITH_HOST_COMPILER)" % (key, value))
                    if key in self:
                        original_del(self, key)
                    return None
                was, value = value, " ".join(words[:i] + [keep] + words[i + 1:])
                _say("[build.host-compiler] setup.py sets %s=%s: kept the plan's %s (TORCHSMITH_HOST_COMPILER)" % (
                    key, was, value))
        elif self is os.environ and key in _COMPILER_VARS and isinstance(value, str) and _program(value) not in chosen:
            if key == "CC":
                keep = c_compiler
            else:
                keep = planned.get(key) or planned.get("CXX") or planned.get("CC")
            if keep is None:
                # No C compiler in the plan and none beside its C++ one: the C++ driver would compile C
                # sources as C++, so CC is left to distutils' default C compiler.
                _say("[build.host-compiler] setup.py sets CC=%s: the plan names no C compiler, so the default C "
                     "compiler compiles C (TORCHSMITH_HOST_COMPILER)" % value)
                if key in self:
                    original_del(self, key)
                return None
            _say("[build.host-compiler] setup.py sets %s=%s: kept the plan's %s (TORCHSMITH_HOST_COMPILER)" % (
                key, value, keep))
            value = keep
        return original(self, key, value)

    env_cls.__setitem__ = setitem
    env_cls._torchsmith_compilers = True


_ARCH_WITH_VALUE = ("-gencode", "--generate-code", "-arch", "--gpu-architecture", "-code", "--gpu-code")


def _drop_arch_flags(flags):
    # ["-gencode", "arch=compute_35,code=sm_35", "-O3", "-arch=sm_60"] -> ["-O3"], and what went.
    kept, dropped = [], []
    skip = False
    for f in flags:
        if skip:
            dropped[-1] += " " + f
            skip = False
            continue
        if not isinstance(f, str):
            kept.append(f)
            continue
        name = f.split("=", 1)[0]
        if name in _ARCH_WITH_VALUE:
            dropped.append(f)
            skip = "=" not in f
            continue
        kept.append(f)
    return kept, dropped


def _is_arch_flag(flag):
    # "-gencode=...", "-arch=sm_60", "arch=compute_35,code=sm_35" (a -gencode's value): nvcc's own.
    return flag.split("=", 1)[0] in _ARCH_WITH_VALUE or flag.startswith(("arch=", "code="))


def _guard_arch_check(cpp_extension):
    # cpp_extension's _get_cuda_arch_flags(cflags) adds no arch flags when any nvcc flag holds the
    # substring 'arch' (pytorch/pytorch torch/utils/cpp_extension.py: `if 'arch' in flag: return []`),
    # meant for the package's own -arch/-gencode; a path such as -I/.../marching_cubes/include hits it
    # too, and nvcc then compiles for its default arch, not the plan's TORCH_CUDA_ARCH_LIST. The check
    # is made on the real arch flags only.
    original = getattr(cpp_extension, "_get_cuda_arch_flags", None)
    if original is None or getattr(original, "_torchsmith_guard", False):
        return

    def arch_flags(cflags=None):
        if cflags is not None:
            strs = [f for f in cflags if isinstance(f, str)]
            false_hits = [f for f in strs if "arch" in f and not _is_arch_flag(f) and "TORCH_EXTENSION_NAME" not in f]
            if false_hits and not any(_is_arch_flag(f) for f in strs):
                _say("[build.arch-list] %s holds 'arch' but is no arch flag: cpp_extension would add none (nvcc's "
                     "default arch); the plan's TORCH_CUDA_ARCH_LIST=%s is used" % (
                         " ".join(false_hits), os.environ.get("TORCH_CUDA_ARCH_LIST", "")))
                cflags = [f for f in cflags if f not in false_hits]
        return original(cflags)

    arch_flags._torchsmith_guard = True
    cpp_extension._get_cuda_arch_flags = arch_flags


# -- build.tool-flags ---------------------------------------------------------------------------
# A setup.py that runs make (pytorch_winoconv's os.system('make')) or nvcc itself: those compiles never
# pass through torch's cpp_extension, so the Makefile's own -gencode/-arch and -std=c++14 reach nvcc and
# g++ as written. Wrappers named as the tools (TORCHSMITH_TOOL_WRAP="nvcc g++ gcc c++ cc"), first on PATH
# in this build only, run this file as a program: the plan's arches (TORCHSMITH_ARCH_LIST) replace the
# command's arch flags, an older -std becomes TORCHSMITH_CXX_STD where the compile names torch's include
# directory, and the next program of that name on PATH runs with the rest as written. make and gmake
# (wrapped where setup.py runs them) run the plan's MAX_JOBS jobs in place of the -j setup.py passes. A
# Makefile that takes its compiler from $(CC)/$(CXX)/$(NVCC) runs the environment's value, the plan's
# absolute path, with no PATH lookup: each such variable naming a wrapped tool points at a wrapper too.

def _tool_names():
    return os.environ.get("TORCHSMITH_TOOL_WRAP", "").split()


def _tools_dir():
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "tools")


def _wrap_tools():
    d = _tools_dir()
    path = os.environ.get("PATH", "")
    if path.split(os.pathsep)[0] == d:
        return  # a process this build started: the wrappers are there
    os.makedirs(d, exist_ok=True)
    me = os.path.abspath(__file__)
    for name in _tool_names():
        _write_wrapper(os.path.join(d, name), _wrapper_script("", me, name))
    for var, target in _env_tool_wrappers(d, me):
        _say("[build.tool-flags] $%s: %s runs through its wrapper %s (TORCHSMITH_TOOL_WRAP)"
             % (var, os.environ[var], target))
        os.environ[var] = target
    os.environ["PATH"] = os.pathsep.join([d] + [p for p in path.split(os.pathsep) if p != d])
    _say("[build.tool-flags] %s first on PATH in this build: arch flags become %s, an older -std C++%s "
         "(TORCHSMITH_TOOL_WRAP)" % (", ".join(_tool_names()), _planned_arches() or "(kept)",
                                     os.environ.get("TORCHSMITH_CXX_STD") or " (kept)"))


def _wrapper_script(of, me, tool):
    # A wrapper runs this file as a program on the tool it stands for (a name on PATH or an absolute path).
    import shlex
    return ("#!/bin/sh\n# torchsmith's build.tool-flags wrapper%s (src/run/pyshim/sitecustomize.py)\n"
            "exec %s -S -E %s %s \"$@\"\n" % (of, shlex.quote(sys.executable), shlex.quote(me), shlex.quote(tool)))


def _write_wrapper(target, text):
    import tempfile
    try:
        with open(target) as f:
            if f.read() == text:
                return
    except OSError:
        pass
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(target), prefix="." + os.path.basename(target) + ".")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.chmod(tmp, 0o755)
    os.replace(tmp, target)


def _env_tool_wrappers(d, me):
    # (variable, wrapper) for each of CC/CXX/NVCC whose value is one path to a wrapped tool; the wrapper,
    # in tools/VAR/ under the tool's own name (torch's compiler check reads the name), runs that path.
    out = []
    names = set(_tool_names())
    for var in ("CC", "CXX", "NVCC"):
        words = os.environ.get(var, "").split()
        if len(words) != 1 or not os.path.isabs(words[0]) or os.path.basename(words[0]) not in names:
            continue
        if os.path.realpath(os.path.dirname(os.path.dirname(words[0]))) == os.path.realpath(d):
            continue  # already one of these wrappers
        sub = os.path.join(d, var)
        os.makedirs(sub, exist_ok=True)
        target = os.path.join(sub, os.path.basename(words[0]))
        _write_wrapper(target, _wrapper_script(" of $" + var, me, words[0]))
        out.append((var, target))
    return out


def _make_jobs(args, jobs):
    # make's own -j/-jN/-j N/--jobs[=N] become -j<jobs>; a make with none keeps running one job at a time.
    out, dropped, i = [], [], 0
    while i < len(args):
        a = args[i]
        if a in ("-j", "--jobs"):
            dropped.append(a)
            if i + 1 < len(args) and args[i + 1].isdigit():
                dropped.append(args[i + 1])
                i += 1
        elif (a.startswith("-j") and a[2:].isdigit()) or (a.startswith("--jobs=") and a[7:].isdigit()):
            dropped.append(a)
        else:
            out.append(a)
        i += 1
    if not dropped:
        return args, []
    return ["-j%d" % jobs] + out, dropped


def _gencode(arches):
    # "8.6;9.0+PTX" -> -gencode for sm_86, sm_90 and compute_90 (PTX), as cpp_extension spells them.
    out = []
    for a in arches.replace(",", ";").replace(" ", ";").split(";"):
        if not a:
            continue
        ptx = a.endswith("+PTX")
        num = a[:-4] if ptx else a
        num = num.replace(".", "")
        out.append("-gencode=arch=compute_%s,code=sm_%s" % (num, num))
        if ptx:
            out.append("-gencode=arch=compute_%s,code=compute_%s" % (num, num))
    return out


def _tool_args(name, args, arches, need, jobs=0):
    # The command line the wrapper runs, and what it changed (one entry each).
    said = []
    if os.path.basename(name) in ("make", "gmake"):
        if jobs > 0:
            args, dropped = _make_jobs(args, jobs)
            if dropped:
                said.append("%s -> -j%d, the plan's jobs (MAX_JOBS)" % (" ".join(dropped), jobs))
        return args, said
    if os.path.basename(name).startswith("nvcc") and arches:
        kept, dropped = _drop_arch_flags(args)
        compiles = any(a in ("-c", "--compile", "-dc", "--device-c") for a in args) and any(
            isinstance(a, str) and a.endswith(".cu") for a in args)
        if dropped or compiles:
            args = kept + _gencode(arches)
            said.append(("%s -> " % " ".join(dropped) if dropped else "added ") + "the plan's arches " + arches)
    # The standard is the torch headers': a compile that names no torch include directory (openretro-gln's
    # mg_clib, plain C++11 built by the same make) keeps its own.
    if need and any(isinstance(a, str) and "torch/include" in a for a in args):
        args, changed = _raise_std(args, need)
        if changed:
            said.append("%s -> -std=c++%d" % (" ".join(changed), need))
    return args, said


def _next_on_path(name):
    mine = os.path.realpath(_tools_dir())
    for d in os.environ.get("PATH", "").split(os.pathsep):
        if not d or os.path.realpath(d) == mine:
            continue
        p = os.path.join(d, name)
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    return ""


def _run_tool(argv):
    name, args = argv[0], argv[1:]
    # An absolute name is the program a $CC/$CXX/$NVCC wrapper stands for; a bare one is looked up on PATH.
    real = name if os.path.isabs(name) and os.access(name, os.X_OK) else _next_on_path(name)
    if not real:
        sys.stderr.write("torchsmith: [build.tool-flags] no %s on PATH but the wrapper\n" % name)
        sys.exit(127)
    args, said = _tool_args(name, args, _planned_arches(), _env_int("TORCHSMITH_CXX_STD", 0), _env_int("MAX_JOBS", 0))
    if said:
        _say("[build.tool-flags] %s: %s (TORCHSMITH_TOOL_WRAP)" % (name, "; ".join(said)))
    os.execv(real, [real] + args)


# -- build.extension-name ---------------------------------------------------------------------

_SOURCE_SUFFIXES = (".c", ".cc", ".cpp", ".cxx", ".cu")


def _ext_name_wanted():
    return os.environ.get("TORCHSMITH_EXT_NAME") == "1"


def _device_type_wanted():
    return os.environ.get("TORCHSMITH_CPP_EXT_DEVICE_TYPE") == "1"


def _take_cuda_flag(m):
    # build.cpp-extension-device-type: include_paths/library_paths took `cuda: bool` until torch 2.6
    # generalised it to `device_type: str` (pytorch/pytorch@67735d1), so an old setup.py's cuda=True
    # raised TypeError, and a positional True silently asked for the CPU's paths. Only a function that
    # takes device_type and no cuda is wrapped: an older torch keeps its own.
    import functools
    import inspect
    for fname in ("include_paths", "library_paths"):
        fn = getattr(m, fname, None)
        try:
            params = inspect.signature(fn).parameters if fn else {}
        except (TypeError, ValueError):
            continue
        if "device_type" not in params or "cuda" in params:
            continue

        def wrapper(*args, _fn=fn, _name=fname, **kwargs):
            if "cuda" in kwargs and "device_type" not in kwargs:
                flag = kwargs.pop("cuda")
                kwargs["device_type"] = "cuda" if flag else "cpu"
                _say("[build.cpp-extension-device-type] %s(cuda=%r) is %s(device_type=%r) since torch 2.6 "
                     "(TORCHSMITH_CPP_EXT_DEVICE_TYPE)" % (_name, flag, _name, kwargs["device_type"]))
            elif args and isinstance(args[0], bool):
                device = "cuda" if args[0] else "cpu"
                _say("[build.cpp-extension-device-type] %s(%r) is %s(device_type=%r) since torch 2.6 "
                     "(TORCHSMITH_CPP_EXT_DEVICE_TYPE)" % (_name, args[0], _name, device))
                args = (device,) + tuple(args[1:])
            return _fn(*args, **kwargs)

        setattr(m, fname, functools.wraps(fn)(wrapper))


def _load_calls(base):
    # (name, source file names) of each load(name='LITERAL', sources=...) call in the package's .py
    # files below setup.py's directory (three levels; build output and hidden directories skipped).
    import ast
    found = []
    top = base.rstrip(os.sep).count(os.sep)
    for root, dirs, files in os.walk(base):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in ("build", "dist", "third_party", "node_modules")]
        if root.count(os.sep) - top >= 3:
            dirs[:] = []
        for f in files:
            if not f.endswith(".py") or f == "setup.py":
                continue
            try:
                with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
                    tree = ast.parse(fh.read())
            except (SyntaxError, ValueError, OSError):
                continue
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                fn = node.func
                called = fn.attr if isinstance(fn, ast.Attribute) else fn.id if isinstance(fn, ast.Name) else ""
                if called != "load":
                    continue
                kw = {k.arg: k.value for k in node.keywords if k.arg}
                name = kw.get("name", node.args[0] if node.args else None)
                sources = kw.get("sources", node.args[1] if len(node.args) > 1 else None)
                if not (isinstance(name, ast.Constant) and isinstance(name.value, str)) or sources is None:
                    continue
                names = {os.path.basename(c.value) for c in ast.walk(sources)
                         if isinstance(c, ast.Constant) and isinstance(c.value, str) and c.value.endswith(_SOURCE_SUFFIXES)}
                if names:
                    found.append((name.value, names))
    return found


def _name_extensions(cpp_extension):
    import functools
    base = os.getcwd()

    def wrap(ctor, original):
        @functools.wraps(original)
        def named(*args, **kwargs):
            if args or "name" in kwargs or not isinstance(kwargs.get("sources"), (list, tuple)):
                return original(*args, **kwargs)
            files = {os.path.basename(str(s)) for s in kwargs["sources"]}
            names = sorted({n for n, srcs in _load_calls(base) if srcs == files})
            if len(names) != 1:
                return original(*args, **kwargs)
            _say("[build.extension-name] %s() has no name: %r, the name the package's own load() gives the same "
                 "sources (%s; TORCHSMITH_EXT_NAME)" % (ctor, names[0], ", ".join(sorted(files))))
            return original(names[0], **kwargs)
        named._torchsmith_named = True
        return named

    for ctor in ("CUDAExtension", "CppExtension"):
        original = getattr(cpp_extension, ctor, None)
        if original is not None and not getattr(original, "_torchsmith_named", False):
            setattr(cpp_extension, ctor, wrap(ctor, original))


# -- build.cpp-kernel-launch --------------------------------------------------------------------
# A C++ source of a CUDA extension that launches kernels (`Kernel<T><<<grid, block>>>(...)`:
# 3DLUT-interpolation's tetrahedral_cuda.cpp): cpp_extension gives a .cpp to the host compiler in
# every torch (_is_cuda_file: .cu/.cuh), and g++ stops at the `<<<`. Such a file is compiled by nvcc
# instead, through a one-line .cu in build_temp that #includes it by its absolute path: the package's
# file is not edited, its own quoted includes resolve from its directory as before, and every tool
# on the way (cpp_extension, ccache, nvcc) reads the language from the .cu suffix (`-x cu` would
# have to come before the file for ccache, and cpp_extension puts an extension's flags after it).
# A launch of a kernel template another file defines needs that file's host stub: nvcc 13 makes
# template stubs static in whole-program mode (`-static-global-template-stub=true`, its new
# default), so the extension's nvcc flags get TORCHSMITH_NVCC_TEMPLATE_STUB (signatures.toml) where
# this nvcc knows the option.

def _cpp_launch_wanted():
    return os.environ.get("TORCHSMITH_CPP_LAUNCH") == "1"


_LAUNCH_SUFFIXES = (".cpp", ".cc", ".cxx", ".C")


def _launches_kernel(path):
    # A `<<<...>>>(` outside comments and string literals: a launch, not a comment's example.
    import re
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return False
    text = re.sub(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"', " ", text, flags=re.S)
    return re.search(r"[\w>)\]]\s*<<<[^;]*?>>>\s*\(", text) is not None


def _nvcc_knows(option):
    import subprocess
    try:
        from torch.utils.cpp_extension import CUDA_HOME
        out = subprocess.run([os.path.join(CUDA_HOME or "", "bin", "nvcc"), "--help"], capture_output=True,
                             text=True, timeout=60).stdout
    except Exception:
        return False
    return option.split("=", 1)[0] in out


def _launch_wrapper(source, where):
    # where/<source relative to setup.py>.cu holding `#include "/abs/source"`; rewritten only when it
    # differs, so an incremental build stays incremental.
    rel = os.path.relpath(os.path.abspath(source))
    if rel.startswith(".."):
        rel = os.path.abspath(source).lstrip(os.sep)
    path = os.path.join(where, rel + ".cu")
    text = ('// torchsmith build.cpp-kernel-launch: %s launches CUDA kernels; nvcc compiles it through this file\n'
            '#include "%s"\n' % (os.path.basename(source), os.path.abspath(source)))
    try:
        with open(path) as f:
            if f.read() == text:
                return path
    except OSError:
        pass
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)
    return path


def _route_launches(exts, build_temp):
    # Each CUDA extension's C++ sources that launch kernels: compiled by nvcc through a wrapper .cu.
    stub = os.environ.get("TORCHSMITH_NVCC_TEMPLATE_STUB", "").split()
    stub_known = None
    where = os.path.abspath(os.path.join(build_temp, "torchsmith-launch"))
    for ext in exts:
        srcs = list(getattr(ext, "sources", None) or [])
        strs = [s for s in srcs if isinstance(s, str)]
        if not any(s.endswith((".cu", ".cuh")) for s in strs) and "cudart" not in (getattr(ext, "libraries", None) or []):
            continue  # not a CUDA extension: nvcc is no compiler of it
        moved = [s for s in strs if s.endswith(_LAUNCH_SUFFIXES) and _launches_kernel(s)]
        if not moved:
            continue
        ext.sources = [_launch_wrapper(s, where) if s in moved else s for s in srcs]
        flags = []
        if stub and stub_known is None:
            stub_known = _nvcc_knows(stub[0])
        if stub and stub_known:
            flags = stub
            args = getattr(ext, "extra_compile_args", None)
            if isinstance(args, dict):
                args["nvcc"] = list(args.get("nvcc") or []) + flags
            else:  # one list for both compilers: the stub flag is nvcc's alone
                ext.extra_compile_args = {"cxx": list(args or []), "nvcc": list(args or []) + flags}
        _say("[build.cpp-kernel-launch] %s: %s launch%s CUDA kernels (<<<...>>>): compiled by nvcc through a .cu in "
             "build_temp that includes %s, not by the host compiler; the package's file is not edited%s "
             "(TORCHSMITH_CPP_LAUNCH)" % (ext.name, ", ".join(moved), "es" if len(moved) == 1 else "",
                                          "it" if len(moved) == 1 else "each",
                                          "; nvcc gets " + " ".join(flags) if flags else ""))


# -- build.cxx-std ------------------------------------------------------------------------------

_STD_ALIASES = {"0x": 11, "1y": 14, "1z": 17, "2a": 20, "2b": 23, "2c": 26}


def _std_year(value):
    # "c++14" / "gnu++1z" -> 14 / 17; None when not a C++ standard.
    for lang in ("c++", "gnu++"):
        if value.startswith(lang):
            v = value[len(lang):]
            if v in _STD_ALIASES:
                return _STD_ALIASES[v]
            return int(v) if v.isdigit() else None
    return None


def _raise_std(flags, need):
    # -std=c++14 / --std=c++14 / -std c++14 below `need` -> -std=c++NEED; newer ones are kept.
    out, changed = [], []
    i = 0
    while i < len(flags):
        f = flags[i]
        if isinstance(f, str) and f.split("=", 1)[0] in ("-std", "--std"):
            two = "=" not in f and i + 1 < len(flags)
            value = flags[i + 1] if two else f.split("=", 1)[1]
            year = _std_year(value) if isinstance(value, str) else None
            if year is not None and year < need:
                out.append("-std=c++%d" % need)
                changed.append(f + (" " + value if two else ""))
                i += 2 if two else 1
                continue
        out.append(f)
        i += 1
    return out, changed


# -- build.abs-include --------------------------------------------------------------------------

_INCLUDE_FLAGS = ("-I", "-isystem")


def _absolute_includes(flags, base):
    # ["-Iinc", "-I", "inc2", "-isystem", "sys", "-I/abs"] -> the relative ones joined to base.
    out, changed = [], []
    i = 0
    while i < len(flags):
        f = flags[i]
        flag = next((x for x in _INCLUDE_FLAGS if isinstance(f, str) and f.startswith(x)), None)
        if flag is not None:
            two = f == flag and i + 1 < len(flags) and isinstance(flags[i + 1], str)
            path = flags[i + 1] if two else f[len(flag):]
            if path and not os.path.isabs(path):
                new = os.path.normpath(os.path.join(base, path))
                out.extend([flag, new] if two else [flag + new])
                changed.append(f + (" " + path if two else ""))
                i += 2 if two else 1
                continue
        out.append(f)
        i += 1
    return out, changed


def _absolute_include_dirs(dirs, base):
    # Extension(include_dirs=["include"]): cpp_extension makes only the compiler's own include_dirs
    # absolute, not an extension's; an entry naming a directory beside setup.py is joined to it.
    out, changed = [], []
    for d in dirs:
        if isinstance(d, str) and d and not os.path.isabs(d) and os.path.isdir(os.path.join(base, d)):
            out.append(os.path.normpath(os.path.join(base, d)))
            changed.append(d)
        else:
            out.append(d)
    return out, changed


def _rewrite_ext_args(exts, arches, need, base=None):
    # extra_compile_args as a list (every compiler) or torch's {"cxx": [...], "nvcc": [...]}.
    notes = []
    for ext in exts:
        if base and getattr(ext, "include_dirs", None):
            ext.include_dirs, changed = _absolute_include_dirs(list(ext.include_dirs), base)
            if changed:
                notes.append("[build.abs-include] %s: include_dirs %s made absolute against %s (ninja compiles "
                             "in build_temp; TORCHSMITH_ABS_INCLUDE)" % (ext.name, " ".join(changed), base))
        args = getattr(ext, "extra_compile_args", None)
        parts = args.items() if isinstance(args, dict) else [("", args or [])]
        new = {}
        for key, flags in parts:
            flags = list(flags)
            if arches:
                flags, dropped = _drop_arch_flags(flags)
                if dropped:
                    notes.append("[build.arch-list] %s: dropped %s (torch derives them from the plan's "
                                 "TORCH_CUDA_ARCH_LIST=%s)" % (ext.name, " ".join(dropped), arches))
            if need:
                flags, changed = _raise_std(flags, need)
                if changed:
                    notes.append("[build.cxx-std] %s: %s -> -std=c++%d (the torch's headers need C++%d; "
                                 "TORCHSMITH_CXX_STD)" % (ext.name, " ".join(changed), need, need))
            if base:
                flags, changed = _absolute_includes(flags, base)
                if changed:
                    notes.append("[build.abs-include] %s: %s made absolute against %s (ninja compiles in "
                                 "build_temp; TORCHSMITH_ABS_INCLUDE)" % (ext.name, " ".join(changed), base))
            new[key] = flags
        if isinstance(args, dict):
            args.update(new)
        else:
            ext.extra_compile_args = new[""]
    for n in notes:
        _say(n)


# -- build.one-setup ----------------------------------------------------------------------------
# DSMNet's sync_bn calls setup(name='sync_bn_cpu', ...) then setup(name='sync_bn_gpu', ...): each call
# runs a whole bdist_wheel into the same build/bdist directory, which the next call removes, and
# pip's metadata step finds two .egg-info directories; under setuptools' backend the two wheels in its
# folder read as "No distribution was found". Counted in setup.py's own syntax tree: calls at the top
# level and at the top of an `if __name__ == "__main__":` block; a call under another if/else or in a
# loop is never held back.

_SETUP_LISTS = ("ext_modules", "packages", "py_modules", "scripts", "data_files", "install_requires", "libraries",
                "headers")
_SETUP_DICTS = ("cmdclass", "package_dir", "package_data", "entry_points", "extras_require")


def _top_level_setup_calls(path):
    import ast

    try:
        with open(path, "rb") as f:
            tree = ast.parse(f.read(), path)
    except (OSError, SyntaxError, ValueError):
        return 0
    n = 0
    # setuptools' backend runs setup.py as __main__, so the body of a top-level
    # `if __name__ == "__main__":` runs as surely as the top level (crfrnn_layer's two calls).
    body = list(tree.body)
    for node in tree.body:
        if isinstance(node, ast.If) and _is_main_test(node.test):
            body.extend(node.body)
    for node in body:
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            fn = node.value.func
            if (isinstance(fn, ast.Name) and fn.id == "setup") or (isinstance(fn, ast.Attribute) and fn.attr == "setup"):
                n += 1
    return n


def _is_main_test(test):
    # `__name__ == "__main__"`, either way round.
    import ast

    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return False
    sides = [test.left, test.comparators[0]]
    names = [s for s in sides if isinstance(s, ast.Name) and s.id == "__name__"]
    # ast.Str (.s) before Python 3.8, ast.Constant (.value) since
    mains = [s for s in sides if not isinstance(s, ast.Name) and getattr(s, "value", getattr(s, "s", None)) == "__main__"]
    return len(names) == 1 and len(mains) == 1


def _merge_setup_calls(calls):
    # The first call's scalars (name, version, ...); lists joined in order without repeats; dicts
    # joined with the first call's entry kept where two differ.
    merged, kept = {}, []
    for attrs in calls:
        for key, value in attrs.items():
            if key not in merged:
                merged[key] = list(value) if key in _SETUP_LISTS and isinstance(value, (list, tuple)) else value
            elif key in _SETUP_LISTS and isinstance(value, (list, tuple)) and isinstance(merged[key], list):
                merged[key].extend(v for v in value if not any(v is m or v == m for m in merged[key]))
            elif key in _SETUP_DICTS and isinstance(value, dict) and isinstance(merged[key], dict):
                merged[key] = dict(merged[key])
                for k, v in value.items():
                    merged[key].setdefault(k, v)
            elif merged[key] != value:
                kept.append("%s=%r" % (key, merged[key]))
    return merged, kept


def _build_ext_of(attrs):
    # The build_ext a call's own extensions are built with: its cmdclass's, else setuptools' own.
    cls = (attrs.get("cmdclass") or {}).get("build_ext")
    if cls is None:
        from setuptools.command.build_ext import build_ext as cls
    return cls


def _per_call_build_ext(calls):
    # torchcv's nms: call 1's build_ext routes compiles by extra_compile_args["cc"/"nvcc"] (a dict),
    # call 2's is torch's BuildExtension; one class for both fed call 2's list to call 1's routing
    # ("list indices must be integers or slices, not str"). Each call's extensions get their own
    # call's class, run in call order with the merged command's options. None when one class serves.
    groups = []
    for attrs in calls:
        exts = list(attrs.get("ext_modules") or [])
        if exts:
            groups.append((_build_ext_of(attrs), exts))
    if len({id(cls) for cls, _ in groups}) < 2:
        return None

    class build_ext_per_call(groups[0][0]):
        def run(self):
            for cls, exts in groups:
                sub = cls(self.distribution)
                for opt in ("inplace", "build_lib", "build_temp", "debug", "force", "parallel", "plat_name"):
                    if hasattr(self, opt):
                        setattr(sub, opt, getattr(self, opt))
                sub.ensure_finalized()
                names = {getattr(e, "name", None) for e in exts}
                sub.extensions = [e for e in (self.extensions or []) if getattr(e, "name", None) in names]
                _say("[build.one-setup] %s built with its own call's build_ext (%s.%s)"
                     % (", ".join(e.name for e in sub.extensions), cls.__module__, cls.__name__))
                sub.run()

    return build_ext_per_call


def _subpackages_wanted():
    return os.environ.get("TORCHSMITH_SUBPACKAGES") == "1"


def _package_folder(name, package_dir, base):
    # setuptools' rule: the longest listed prefix of the name maps to its folder, "" to the root's.
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        prefix = ".".join(parts[:i])
        if prefix in package_dir:
            return os.path.join(base, package_dir[prefix], *parts[i:])
    return os.path.join(base, package_dir.get("", ""), *parts)


def _with_subpackages(attrs, base):
    packages = list(attrs.get("packages") or [])
    if not packages:
        return attrs
    package_dir = dict(attrs.get("package_dir") or {})
    listed, added = set(packages), []
    for name in packages:
        top = _package_folder(name, package_dir, base)
        for root, dirs, _ in os.walk(top):
            dirs[:] = sorted(d for d in dirs if os.path.isfile(os.path.join(root, d, "__init__.py")))
            for d in dirs:
                sub = name + "." + os.path.relpath(os.path.join(root, d), top).replace(os.sep, ".")
                if sub not in listed:
                    listed.add(sub)
                    added.append(sub)
    if not added:
        _say("[build.subpackages] setup()'s packages %s have no unlisted subpackage (TORCHSMITH_SUBPACKAGES)"
             % ", ".join(packages))
        return attrs
    _say("[build.subpackages] setup()'s packages %s: added their subpackages %s (TORCHSMITH_SUBPACKAGES)"
         % (", ".join(packages), ", ".join(added)))
    return dict(attrs, packages=packages + added)


def _add_subpackages(setuptools_module):
    original = getattr(setuptools_module, "setup", None)
    if original is None or getattr(original, "_torchsmith_subpackages", False):
        return

    def setup(**attrs):
        return original(**_with_subpackages(attrs, os.getcwd()))

    setup._torchsmith_subpackages = True
    setuptools_module.setup = setup


def _one_setup(setuptools_module):
    original = getattr(setuptools_module, "setup", None)
    if original is None or getattr(original, "_torchsmith_one_setup", False):
        return
    held = []
    expected = []

    def setup(**attrs):
        if not expected:
            # setuptools' legacy backend exec()s setup.py's text (co_filename "<string>") with __file__ set.
            frame = sys._getframe(1)
            path = frame.f_code.co_filename
            if not os.path.isfile(path):
                path = str(frame.f_globals.get("__file__") or "")
            expected.append(_top_level_setup_calls(path) if os.path.isfile(path) else 0)
        if expected[0] < 2:
            return original(**attrs)
        held.append(attrs)
        if len(held) < expected[0]:
            _say("[build.one-setup] setup.py calls setup() %d times: call %d (%s) held back to be built with the "
                 "others as one (TORCHSMITH_ONE_SETUP)" % (expected[0], len(held), attrs.get("name", "?")))
            return None
        merged, kept = _merge_setup_calls(held)
        per_call = _per_call_build_ext(held)
        if per_call is not None:
            merged["cmdclass"] = dict(merged.get("cmdclass") or {}, build_ext=per_call)
        exts = [getattr(e, "name", "?") for e in merged.get("ext_modules") or []]
        _say("[build.one-setup] the %d setup() calls built as one distribution %s with the extensions %s%s"
             % (len(held), merged.get("name", "?"), ", ".join(exts) or "(none)",
                "; the first call's %s kept" % ", ".join(kept) if kept else ""))
        del held[:]
        return original(**merged)

    setup._torchsmith_one_setup = True
    setuptools_module.setup = setup


# -- build.cccl-include: the toolkit's CCCL for the host compiler -------------------------------
# CUDA 13 moved CCCL (cuda/std, thrust, cub) from include/ to include/cccl; nvcc adds that directory
# itself, g++ does not, so a .cpp including <cuda/std/complex> or <thrust/...> stops with "No such
# file" (nvidia.github.io/cccl/cccl/3.0_migration_guide.html, "CUDA Toolkit changes"). Read from the
# toolkit on disk, not from its version.

def _cccl_dir():
    home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH") or ""
    d = os.path.join(home, "include", "cccl")
    return d if home and os.path.isdir(os.path.join(d, "cuda", "std")) else ""


def _add_cccl_include(exts, cccl):
    # Only an extension whose include dirs have the toolkit's include/ (CUDAExtension's, or its own):
    # it meant the host compiler to find the toolkit's headers there.
    inc = os.path.realpath(os.path.dirname(cccl))  # /usr/local/cuda and cuda-13.0 are one toolkit
    for ext in exts:
        dirs = [os.path.realpath(d) for d in (getattr(ext, "include_dirs", None) or []) if isinstance(d, str)]
        if inc not in dirs or os.path.realpath(cccl) in dirs:
            continue
        args = getattr(ext, "extra_compile_args", None)
        if isinstance(args, dict):  # the host compiler's part only: nvcc has its own
            args["cxx"] = list(args.get("cxx") or []) + ["-isystem", cccl]
        else:
            ext.extra_compile_args = list(args or []) + ["-isystem", cccl]
        _say("[build.cccl-include] %s: -isystem %s for the host compiler (the toolkit keeps CCCL under "
             "include/cccl, which nvcc finds itself and g++ does not)" % (ext.name, cccl))


# -- build.pybind11-torch: a vendored pybind11 older than this Python needs -------------------------
# TORCHSMITH_PYBIND11_FOR="3.11:2.10 3.12:2.11" (signatures.toml's PYBIND11_TOO_OLD_FOR_PYTHON): the
# oldest pybind11 each Python needs. An extension's include dir (include_dirs, -I/-isystem flags) whose
# pybind11/detail/common.h says an older version is set aside for a new enough one the build has:
# torch's own under torch/include (on every cpp_extension command line), the pybind11 package's, or
# the compiler's default path; with none, the copy stays and the helper says so.

def _pybind11_needed():
    need = None
    for item in sorted(os.environ.get("TORCHSMITH_PYBIND11_FOR", "").split()):
        py, _, pb = item.partition(":")
        try:
            py_v, pb_v = tuple(int(x) for x in py.split(".")), tuple(int(x) for x in pb.split("."))
        except ValueError:
            continue
        if tuple(sys.version_info[:len(py_v)]) >= py_v and (need is None or pb_v > need):
            need = pb_v
    return need


def _pybind11_version(d):
    import re
    try:
        with open(os.path.join(d, "pybind11", "detail", "common.h"), errors="replace") as f:
            text = f.read(65536)
    except OSError:
        return None
    major = re.search(r"#\s*define\s+PYBIND11_VERSION_MAJOR\s+(\d+)", text)
    minor = re.search(r"#\s*define\s+PYBIND11_VERSION_MINOR\s+(\d+)", text)
    return (int(major.group(1)), int(minor.group(1))) if major and minor else None


def _pybind11_elsewhere(need):
    # (directory, whether the compile already searches it): the first new enough pybind11 of the build.
    found = []
    try:
        import torch
        found.append((os.path.join(os.path.dirname(torch.__file__), "include"), True))
    except Exception:
        pass
    try:
        import pybind11
        found.append((pybind11.get_include(), False))
    except Exception:
        pass
    found += [("/usr/local/include", True), ("/usr/include", True)]
    for d, searched in found:
        v = _pybind11_version(d)
        if v is not None and v >= need:
            return d, searched, v
    return None


def _set_aside_old_pybind11(exts, need, base):
    other = _pybind11_elsewhere(need)

    def old(d):
        v = _pybind11_version(d if os.path.isabs(d) else os.path.join(base, d))
        return v if v is not None and v < need else None

    def swap(dirs, ext, where):
        out = []
        for d in dirs:
            v = old(d) if isinstance(d, str) else None
            if v is None:
                out.append(d)
            elif other is None:
                out.append(d)
                _say("[build.pybind11-torch] %s: %s has pybind11 %d.%d, older than Python %d.%d needs (%d.%d), and the "
                     "build has no newer one: kept" % ((ext.name, d) + v + tuple(sys.version_info[:2]) + need))
            else:
                if not other[1]:
                    out.append(other[0])
                _say("[build.pybind11-torch] %s: %s %s has pybind11 %d.%d, older than Python %d.%d needs (%d.%d): "
                     "set aside for pybind11 %d.%d in %s" % ((ext.name, where, d) + v + tuple(sys.version_info[:2]) + need
                                                            + other[2] + (other[0],)))
        return out

    for ext in exts:
        if getattr(ext, "include_dirs", None):
            ext.include_dirs = swap(list(ext.include_dirs), ext, "include_dirs")
        args = getattr(ext, "extra_compile_args", None)
        parts = args.items() if isinstance(args, dict) else [("", args or [])]
        new = {}
        for key, flags in parts:
            new[key] = _swap_include_flags(list(flags), lambda dirs: swap(dirs, ext, "flag"))
        if isinstance(args, dict):
            args.update(new)
        else:
            ext.extra_compile_args = new[""]


def _swap_include_flags(flags, swap):
    # -Idir, -I dir, -isystem dir: each directory through swap([dir]), which gives it back, another or none.
    out, i = [], 0
    while i < len(flags):
        f = flags[i]
        if isinstance(f, str) and f in ("-I", "-isystem") and i + 1 < len(flags):
            out += [x for d in swap([flags[i + 1]]) for x in (f, d)]
            i += 2
            continue
        if isinstance(f, str) and f.startswith("-I") and len(f) > 2:
            out += ["-I" + d for d in swap([f[2:]])]
        elif isinstance(f, str) and f.startswith("-isystem") and len(f) > 8:
            out += ["-isystem" + d for d in swap([f[8:]])]
        else:
            out.append(f)
        i += 1
    return out


# -- CMake: the plan's -D arguments, build.cmake-arch / build.cmake-std ---------------------------

_CMAKE_PLANNED = ("CMAKE_CUDA_ARCHITECTURES", "CMAKE_PROJECT_INCLUDE_BEFORE", "FETCHCONTENT_SOURCE_DIR_PYBIND11",
                  "CMAKE_INTERPROCEDURAL_OPTIMIZATION")
_CMAKE_NOT_CONFIGURE = ("--build", "--install", "-E", "-P", "--version", "--help", "--open", "--workflow")


def _cmake_include():
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "torchsmith_project.cmake")


def _cmake_forced():
    return bool(os.environ.get("TORCHSMITH_CMAKE_ARCHES") or os.environ.get("TORCHSMITH_CMAKE_STD")
                or os.environ.get("TORCHSMITH_CMAKE_TOOLCHAIN") or _no_lto())


def _no_lto():
    return os.environ.get("TORCHSMITH_NO_LTO") == "1"


def _add_cmake_no_ipo():
    # pybind11_add_module links pybind11::lto only while CMAKE_INTERPROCEDURAL_OPTIMIZATION is undefined
    # (pybind11's tools/pybind11NewTools.cmake); OFF also starts every new target's IPO off.
    define = "-DCMAKE_INTERPROCEDURAL_OPTIMIZATION=OFF"
    have = os.environ.get("CMAKE_ARGS", "")
    if define not in have.split():
        os.environ["CMAKE_ARGS"] = (have + " " + define).strip()


_LTO_FLAG = None


def _drop_lto_flags(flags):
    # -flto, -flto=auto/N/thin/jobserver, -ffat-lto-objects/-fno-fat-lto-objects, -fuse-linker-plugin,
    # alone or passed through nvcc's -Xcompiler: out of the list; the dropped ones are returned too.
    global _LTO_FLAG
    import re

    if _LTO_FLAG is None:
        _LTO_FLAG = re.compile(r"^(?:-Xcompiler[= ])?(?:-flto(?:=\S*)?|-f(?:no-)?fat-lto-objects|-fuse-linker-plugin)$")
    kept, dropped = [], []
    for f in flags:
        if isinstance(f, str) and _LTO_FLAG.match(f):
            if kept and kept[-1] == "-Xcompiler":  # its nvcc prefix goes with it
                kept.pop()
            dropped.append(f)
        else:
            kept.append(f)
    return kept, dropped


def _strip_lto(exts):
    for ext in exts:
        for attr in ("extra_compile_args", "extra_link_args"):
            args = getattr(ext, attr, None)
            parts = args.items() if isinstance(args, dict) else [("", args or [])]
            new, dropped = {}, []
            for key, flags in parts:
                new[key], d = _drop_lto_flags(list(flags))
                dropped += d
            if not dropped:
                continue
            if isinstance(args, dict):
                args.update(new)
            else:
                setattr(ext, attr, new[""])
            _say("[build.no-lto] %s: dropped %s from %s (the linker cannot run GCC's link-time optimisation; "
                 "TORCHSMITH_NO_LTO)" % (ext.name, " ".join(dropped), attr))


def _cmake_planned_args():
    # The plan's -D's from CMAKE_ARGS (the include's is put there at start-up when a remedy needs it).
    return [a for a in os.environ.get("CMAKE_ARGS", "").split()
            if a.startswith("-D") and a[2:].split("=", 1)[0].split(":", 1)[0] in _CMAKE_PLANNED]


def _add_cmake_include():
    include = "-DCMAKE_PROJECT_INCLUDE_BEFORE=" + _cmake_include()
    have = os.environ.get("CMAKE_ARGS", "")
    if include not in have.split():
        os.environ["CMAKE_ARGS"] = (have + " " + include).strip()


def _cmake_define_name(args, i):
    # "-DNAME:TYPE=V" / "-D" "NAME=V" at args[i] -> (NAME, tokens it takes); (None, 1) otherwise.
    a = args[i]
    if not isinstance(a, str) or not a.startswith("-D"):
        return None, 1
    if a == "-D":
        if i + 1 < len(args) and isinstance(args[i + 1], str):
            return args[i + 1].split("=", 1)[0].split(":", 1)[0], 2
        return None, 1
    return a[2:].split("=", 1)[0].split(":", 1)[0], 1


def _cmake_argv(args):
    # A cmake configure call: the package's own -D for what the plan sets is dropped and the plan's
    # appended (the last -D wins in cmake anyway; dropping it keeps the log honest).
    if not isinstance(args, (list, tuple)) or not args or not isinstance(args[0], str):
        return args
    if os.path.basename(args[0]) not in ("cmake", "cmake3") or any(a in _CMAKE_NOT_CONFIGURE for a in args[1:]):
        return args
    planned = _cmake_planned_args()
    if not planned:
        return args
    kept, dropped = [], []
    i = 0
    while i < len(args):
        name, n = _cmake_define_name(args, i)
        if name in _CMAKE_PLANNED:
            dropped.append(" ".join(args[i:i + n]))
        else:
            kept.extend(args[i:i + n])
        i += n
    ours = [d for d in dropped if d not in planned]
    if ours:
        _say("[build.cmake-arch] the package's cmake call passes %s: the plan's %s instead (CMAKE_ARGS)"
             % (" ".join(ours), " ".join(planned)))
    return list(kept) + planned


# `cmake ARGS DIR` in a shell command line (k2-fsa's fast_rnnt: os.system("cd B\n cmake {args} {dir}\n make")):
# the command word at a line's or a `;`/`&&`/`|` segment's start.
_SHELL_CMAKE = None


def _cmake_shell(cmd):
    # The plan's -D's go right after the word, before redirections or a pipe; a package's own -D for
    # the same name comes later and would win, so for the arches the CMake include (build.cmake-arch)
    # is what forces them.
    global _SHELL_CMAKE
    planned = _cmake_planned_args()
    if not planned or not isinstance(cmd, str) or "cmake" not in cmd:
        return cmd
    import re
    import shlex

    if _SHELL_CMAKE is None:
        _SHELL_CMAKE = re.compile(r"(?:^|(?<=[;&|(\n]))([ \t]*(?:\S*/)?cmake3?)(?=[ \t])")
    added = []

    def add(m):
        rest = re.split(r"[;&|\n]", cmd[m.end():], maxsplit=1)[0].split()
        if any(w in _CMAKE_NOT_CONFIGURE for w in rest) or any(p in rest for p in planned):
            return m.group(0)
        added.append(m.group(1).strip())
        return m.group(1) + " " + " ".join(shlex.quote(p) for p in planned)

    out = _SHELL_CMAKE.sub(add, cmd)
    if added:
        _say("the package's shell command runs %s: the plan's %s passed to it (CMAKE_ARGS)"
             % (added[0], " ".join(planned)))
    return out


def _pass_cmake_args():
    import subprocess

    if getattr(subprocess.Popen, "_torchsmith_cmake", False):
        return
    original = subprocess.Popen.__init__
    original_system = os.system

    def init(self, *a, **kw):
        shell = kw.get("shell") or (len(a) > 8 and a[8])
        rewrite = _cmake_shell if shell else _cmake_argv
        if a:
            a = (rewrite(a[0]),) + tuple(a[1:])
        elif "args" in kw:
            kw["args"] = rewrite(kw["args"])
        return original(self, *a, **kw)

    def system(command):
        return original_system(_cmake_shell(command))

    subprocess.Popen.__init__ = init
    subprocess.Popen._torchsmith_cmake = True
    os.system = system


def _is_cuda(path):
    return os.path.splitext(path)[1] in (".cu", ".cuh")


def _weight(sources, threads, slots):
    # The compiles an extension keeps running for most of its build: nvcc --threads T holds T
    # cores per CUDA source for minutes, while its C++ sources finish within seconds of the start,
    # so those count only in an extension without CUDA. Counting both kept one of torch-scatter's
    # three CUDA extensions waiting (3 x (6 + 2) > 18 slots) while cores idled.
    cuda = sum(1 for s in sources if _is_cuda(s))
    held = cuda * threads if cuda else len(sources)
    return max(1, min(held, slots))


def _build_side_by_side(cmd, exts, slots):
    import copy
    import time
    from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

    base = cmd.build_temp
    threads = max(1, _env_int("TORCHSMITH_NVCC_THREADS", 1))
    weight = {id(e): _weight(e.sources, threads, slots) for e in exts}
    # Longest first: extensions with CUDA sources, then the ones with more sources.
    pending = sorted(exts, key=lambda e: (not any(_is_cuda(s) for s in e.sources), -len(e.sources)))
    _say("building %d extensions side by side in %d compile slots (TORCHSMITH_EXT_JOBS), each in "
         "its own build_temp under %s" % (len(exts), slots, base))

    # torchsmith reads "[ts done/total ...]" lines as the build's progress: each extension's ninja
    # counts only its own sources, so those say "[ext ...]" and this helper counts them all.
    started = time.time()
    total = sum(len(e.sources) for e in exts)
    finished = [0]
    if os.environ.get("NINJA_STATUS", "").startswith("[ts "):
        os.environ["NINJA_STATUS"] = "[ext %f/%t] "

    def progress(ext, what):
        finished[0] += len(ext.sources)
        t = max(time.time() - started, 1e-3)
        _say("extension %s: %s" % (ext.name, what))
        sys.stderr.write("[ts %d/%d %.2f/s %.3fs] sources of finished extensions\n"
                         % (finished[0], total, finished[0] / t, t))
        sys.stderr.flush()

    def one(ext):
        own = copy.copy(cmd)
        own.build_temp = os.path.join(base, "ts-" + ext.name)
        own.build_extension(ext)

    free = slots
    running = {}
    began = {}
    error = None
    with ThreadPoolExecutor(max_workers=len(exts)) as pool:
        while (pending and error is None) or running:
            if error is None:
                for ext in list(pending):
                    if weight[id(ext)] <= free:
                        free -= weight[id(ext)]
                        pending.remove(ext)
                        _say("extension %s: started at %.1f s (%d slot%s)" % (
                            ext.name, time.time() - started, weight[id(ext)], "" if weight[id(ext)] == 1 else "s"))
                        began[id(ext)] = time.time()
                        running[pool.submit(one, ext)] = ext
            done, _ = wait(list(running), return_when=FIRST_COMPLETED)
            for fut in done:
                ext = running.pop(fut)
                free += weight[id(ext)]
                try:
                    built = False
                    with cmd._filter_build_errors(ext):  # an optional extension's failure is a warning
                        fut.result()
                        built = True
                    took = "in %.1f s" % (time.time() - began[id(ext)])
                    progress(ext, "done " + took if built else "skipped (optional) " + took)
                except BaseException as e:  # the first failure stops new starts; running ones finish
                    _say("extension %s: failed" % ext.name)
                    if error is None:
                        error = e
    if error is not None:
        raise error


def _generate_sources():
    # "gen.py:a.cu,b.cu other.py:c.h": run in setup.py's directory, only where a file is missing.
    import subprocess

    for item in os.environ.get("TORCHSMITH_GENERATE", "").split():
        script, _, files = item.partition(":")
        missing = [f for f in files.split(",") if f and not os.path.exists(f)]
        if not script or not missing or not os.path.isfile(script):
            continue
        _say("[build.generate-sources] running %s, which writes %s (setup.py does not run it)"
             % (script, ", ".join(missing)))
        subprocess.run([sys.executable, script], check=True)
        still = [f for f in missing if not os.path.exists(f)]
        if still:
            _say("[build.generate-sources] %s ran but did not write %s" % (script, ", ".join(still)))


# -- build.source-reroot -------------------------------------------------------------------------

def _reroot():
    return os.environ.get("TORCHSMITH_REROOT") == "1"


def _rerooted(path, base, exists):
    # "vox_recon/nsvf_ext/src/*.cpp" where base has nsvf_ext/src: the path without the leading
    # directories base lacks, the first that `exists`; None when base has its first directory (the
    # missing part is not a prefix), or no shorter path with a directory left names anything.
    if not isinstance(path, str) or not path:
        return None
    absolute = os.path.isabs(path)
    rel = os.path.relpath(path, base) if absolute else path
    parts = os.path.normpath(rel).split(os.sep)
    if parts[0] in ("..", ".") or len(parts) < 3 or os.path.exists(os.path.join(base, parts[0])):
        return None
    for k in range(1, len(parts) - 1):
        cand = os.path.join(*parts[k:])
        if exists(os.path.join(base, cand)):
            return os.path.join(base, cand) if absolute else cand
    return None


def _reroot_globs():
    # glob.glob / glob.iglob called from setup.py: a pattern that matches nothing is tried rerooted.
    import glob

    def exists(pattern):
        return bool(original(pattern))

    def again(pathname, a, kw, caller):
        # setuptools' build_meta runs setup.py's text with exec (a "<string>" code), its __file__ set.
        name = caller.f_code.co_filename
        if name == "<string>":
            name = str(caller.f_globals.get("__file__") or "")
        if kw.get("root_dir") or os.path.basename(name) != "setup.py":
            return None
        new = _rerooted(pathname, os.getcwd(), exists)
        if new is not None:
            _say("[build.source-reroot] glob %s matched nothing; %s names %d file(s) of this tree: used "
                 "instead (TORCHSMITH_REROOT)" % (pathname, new, len(original(new, *a, **kw))))
        return new

    original, original_i = glob.glob, glob.iglob

    def glob_(pathname, *a, **kw):
        found = original(pathname, *a, **kw)
        new = None if found else again(pathname, a, kw, sys._getframe(1))
        return original(new, *a, **kw) if new is not None else found

    def iglob_(pathname, *a, **kw):
        found = list(original_i(pathname, *a, **kw))
        new = None if found else again(pathname, a, kw, sys._getframe(1))
        return original_i(new if new is not None else pathname, *a, **kw)

    glob.glob, glob.iglob = glob_, iglob_


def _reroot_ext(exts, base):
    # The extensions' own paths that name nothing: sources, include_dirs, -I/-isystem flags (made
    # absolute: torch's ninja compiles in build_temp).
    def flags(fl, what, ext):
        out = []
        for f in fl:
            flag = next((x for x in _INCLUDE_FLAGS if isinstance(f, str) and f.startswith(x) and len(f) > len(x)), None)
            new = None
            if flag and not os.path.exists(os.path.join(base, f[len(flag):])):
                new = _rerooted(f[len(flag):], base, os.path.isdir)
            if new is not None:
                _say("[build.source-reroot] %s: %s in %s names nothing; %s (TORCHSMITH_REROOT)" % (ext.name, f, what, new))
                f = flag + os.path.normpath(os.path.join(base, new))
            out.append(f)
        return out

    for ext in exts:
        moved = []
        for attr, exists in (("sources", os.path.isfile), ("include_dirs", os.path.isdir)):
            vals = list(getattr(ext, attr, None) or [])
            for i, v in enumerate(vals):
                if isinstance(v, str) and not os.path.exists(os.path.join(base, v)):
                    new = _rerooted(v, base, exists)
                    if new is not None:
                        vals[i] = new
                        moved.append("%s -> %s" % (v, new))
            setattr(ext, attr, vals)
        if moved:
            _say("[build.source-reroot] %s: %s (paths this tree lacks; TORCHSMITH_REROOT)" % (ext.name, ", ".join(moved)))
        args = getattr(ext, "extra_compile_args", None)
        if isinstance(args, dict):
            ext.extra_compile_args = {k: flags(v, "extra_compile_args[%s]" % k, ext) if isinstance(v, list) else v
                                      for k, v in args.items()}
        elif isinstance(args, list):
            ext.extra_compile_args = flags(args, "extra_compile_args", ext)


# -- build.source-name ---------------------------------------------------------------------------

def _source_name_wanted():
    return os.environ.get("TORCHSMITH_SOURCE_NAME") == "1"


def _name_tokens(stem):
    return [t for t in stem.replace("-", "_").split("_") if t]


def _tree_path_of_foreign(src, base):
    # ml3d_msn's MDS/setup.py lists '/content/ml3d_msn/MDS/MDS.cpp', a path of the author's machine: the
    # longest tail of it that names a file under base (ml3d_msn/MDS/MDS.cpp, MDS/MDS.cpp, then MDS.cpp
    # beside setup.py), else None.
    parts = os.path.normpath(src).split(os.sep)[1:]
    for k in range(len(parts)):
        cand = os.path.join(base, *parts[k:])
        if os.path.isfile(cand):
            return cand
    return None


def _take_foreign_sources(exts, base):
    # Absolute sources outside the tree that do not exist: the tree's file the same tail names.
    for ext in exts:
        vals = list(getattr(ext, "sources", None) or [])
        for i, src in enumerate(vals):
            if (not isinstance(src, str) or not os.path.isabs(src) or os.path.exists(src)
                    or not os.path.relpath(src, base).startswith("..")):
                continue
            new = _tree_path_of_foreign(src, base)
            if new:
                vals[i] = new
                _say("[build.source-name] %s: %s, a listed source outside this tree (a path of the author's "
                     "machine), does not exist; %s, this tree's file at the same path's tail, built in its place "
                     "(TORCHSMITH_SOURCE_NAME)" % (ext.name, src, os.path.relpath(new, base)))
        ext.sources = vals


def _rename_missing_sources(exts, base):
    # A source renamed in the tree and not in setup.py (gauss_psf_kernel.cu listed, gauss_psf_cuda_kernel.cu
    # there): the one file beside it with its suffix, listed by no extension, whose stem holds each of its
    # '_'/'-' tokens. Decided for all sources first, so two missing names never share one file.
    def where(path):
        return os.path.normcase(os.path.abspath(os.path.join(base, path)))

    listed = set(where(v) for ext in exts for v in (getattr(ext, "sources", None) or []) if isinstance(v, str))
    chosen = []  # (ext, index, source, file name or None, why not)
    for ext in exts:
        for i, src in enumerate(list(getattr(ext, "sources", None) or [])):
            if not isinstance(src, str) or os.path.exists(os.path.join(base, src)):
                continue
            folder = os.path.dirname(os.path.join(base, src))
            stem, suffix = os.path.splitext(os.path.basename(src))
            want = _name_tokens(stem)
            if not suffix or not want or not os.path.isdir(folder):
                chosen.append((ext, i, src, None, "its directory is not in this tree" if suffix and want else "it has no stem and suffix to match"))
                continue
            found, shorter = [], []
            for f in sorted(os.listdir(folder)):
                fstem, fsuffix = os.path.splitext(f)
                path = os.path.join(folder, f)
                if fsuffix == suffix and os.path.isfile(path) and where(path) not in listed:
                    have = set(_name_tokens(fstem))
                    if all(t in have for t in want):
                        found.append(f)
                    elif len(have) >= 2 and have <= set(want) and len(set(want) - have) == 1:
                        shorter.append(f)
            if len(found) == 1:
                chosen.append((ext, i, src, found[0], ""))
            elif not found and len(shorter) == 1:
                # A listed name with one word too many (fast-snarf's check_sign lists
                # mesh_intersection_cudae_cuda.cpp; its tree has mesh_intersection_cuda.cpp): only where no
                # file holds every word, the one whose words the missing name holds, with one more.
                chosen.append((ext, i, src, shorter[0], ""))
            else:
                chosen.append((ext, i, src, None, "no %s file beside it that no extension lists has a name holding %s%s" % (
                    suffix, "+".join(want), "" if not shorter else
                    " (%d hold all of its words but one: %s)" % (len(shorter), ", ".join(shorter)))
                    if not found else "%d files beside it could be it (%s)" % (len(found), ", ".join(found))))
    taken = {}
    for _, _, _, f, _ in chosen:
        if f:
            taken[f] = taken.get(f, 0) + 1
    for ext, i, src, f, why in chosen:
        if f and taken.get(f, 0) > 1:
            f, why = None, "%s is the only match of %d missing sources" % (f, taken[f])
        if f:
            new = os.path.join(os.path.dirname(src), f)
            vals = list(ext.sources)
            vals[i] = new
            ext.sources = vals
            words = _name_tokens(os.path.splitext(os.path.basename(src))[0])
            have = set(_name_tokens(os.path.splitext(f)[0]))
            extra = [t for t in words if t not in have]
            _say("[build.source-name] %s: %s, a listed source, does not exist; %s, the one %s file beside it that no "
                 "extension lists and whose name holds %s, built in its place (TORCHSMITH_SOURCE_NAME)" % (
                     ext.name, src, new, os.path.splitext(f)[1],
                     "+".join(words) if not extra else "%s (all but %s, a word too many in the listed name)" % (
                         "+".join(t for t in words if t in have), extra[0])))
        else:
            _say("[build.source-name] %s: %s, a listed source, does not exist, and %s: left as it is "
                 "(TORCHSMITH_SOURCE_NAME)" % (ext.name, src, why))


# -- build.compiler-flag-remove --------------------------------------------------------------------

def _flag_remove_wanted():
    return os.environ.get("TORCHSMITH_FLAG_REMOVE") == "1"


class _CompilerCommand(list):
    # A distutils compiler's command list (compiler_so, ...) whose remove() of a flag it does not hold
    # does nothing: what a setup.py that drops '-Wstrict-prototypes' wants when the flag is not there.
    def remove(self, value):
        if value in self:
            return list.remove(self, value)
        _say("[build.compiler-flag-remove] setup.py removes %s from the compiler's command, which does not hold "
             "it (this Python's compiler flags lack it): nothing to remove (TORCHSMITH_FLAG_REMOVE)" % (value,))


_COMPILER_COMMANDS = ("compiler", "compiler_so", "compiler_cxx", "linker_so", "linker_exe")


def _tolerate_flag_removal(build_cmd):
    # The compiler exists once build_ext.run made it, just before it calls build_extensions; the
    # package's own build_extensions (a subclass's) runs first, so it is reached through the instance.
    package_build = build_cmd.build_extensions

    def build_extensions():
        compiler = getattr(build_cmd, "compiler", None)
        for name in _COMPILER_COMMANDS:
            value = getattr(compiler, name, None)
            if isinstance(value, list) and not isinstance(value, _CompilerCommand):
                setattr(compiler, name, _CompilerCommand(value))
        return package_build()

    build_cmd.build_extensions = build_extensions


def _patch(build_ext_cls):
    if getattr(build_ext_cls, "_torchsmith_patched", False):
        return
    original = build_ext_cls.build_extensions
    original_run = build_ext_cls.run

    def run(self):
        if _ninja_wanted():
            _turn_ninja_on(self)
        if _flag_remove_wanted():
            _tolerate_flag_removal(self)
        return original_run(self)

    def build_extensions(self):
        if os.environ.get("TORCHSMITH_GENERATE"):
            _generate_sources()
        slots = _slots()
        exts = list(self.extensions or [])
        if _reroot():
            _reroot_ext(exts, os.getcwd())
        if _source_name_wanted():
            _take_foreign_sources(exts, os.getcwd())
            _rename_missing_sources(exts, os.getcwd())
        base = os.getcwd() if os.environ.get("TORCHSMITH_ABS_INCLUDE") == "1" else None
        if _planned_arches() or _env_int("TORCHSMITH_CXX_STD", 0) or base:
            _rewrite_ext_args(exts, _planned_arches(), _env_int("TORCHSMITH_CXX_STD", 0), base)
        if _force_includes():
            _add_force_includes(exts, _force_includes())
        if _cccl_dir():
            _add_cccl_include(exts, _cccl_dir())
        if _pybind11_needed():
            _set_aside_old_pybind11(exts, _pybind11_needed(), os.getcwd())
        if _no_lto():
            _strip_lto(exts)
        if _cpp_launch_wanted():
            _route_launches(exts, self.build_temp)
        # Only torch's BuildExtension with ninja, only when the user did not ask for -j themselves,
        # and not when one extension is a Library that the others link (they need it built first).
        if (slots and len(exts) > 1 and getattr(self, "use_ninja", False) is True and not self.parallel
                and not any(type(e).__name__ == "Library" for e in exts)):
            self.check_extensions_list(self.extensions)
            return _build_side_by_side(self, list(self.extensions), slots)
        if slots and len(exts) > 1 and getattr(self, "use_ninja", None) is False:
            _say("%d extensions built one after another: use_ninja=False compiles in place, which two "
                 "threads cannot share" % len(exts))
        return original(self)

    build_ext_cls.build_extensions = build_extensions
    build_ext_cls.run = run
    build_ext_cls._torchsmith_patched = True


def _install_hook(targets):
    # targets: module name -> what to do with the module once it is loaded.
    import importlib.abc

    class Loader(importlib.abc.Loader):
        def __init__(self, inner, after):
            self.inner = inner
            self.after = after

        def __getattr__(self, name):  # get_source, is_package, ...: the real loader's
            return getattr(self.inner, name)

        def create_module(self, spec):
            return self.inner.create_module(spec)

        def exec_module(self, module):
            self.inner.exec_module(module)
            self.after(module)

    class Finder(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target_=None):
            if name not in targets:
                return None
            for finder in sys.meta_path:
                if finder is self or not hasattr(finder, "find_spec"):
                    continue
                spec = finder.find_spec(name, path, target_)
                if spec is not None and spec.loader is not None:
                    spec.loader = Loader(spec.loader, targets[name])
                    return spec
            return None

    waiting = False
    for name, after in targets.items():
        if name in sys.modules:
            after(sys.modules[name])
        else:
            waiting = True
    if waiting:
        sys.meta_path.insert(0, Finder())


def _py_aliases():
    # TORCHSMITH_PY_ALIASES="configparser:SafeConfigParser=ConfigParser configparser:RawConfigParser.readfp=read_file"
    # -> {"configparser": [(["SafeConfigParser"], "ConfigParser"), (["RawConfigParser", "readfp"], "read_file")]}
    out = {}
    for item in os.environ.get("TORCHSMITH_PY_ALIASES", "").split():
        module, _, rest = item.partition(":")
        removed, _, kept = rest.partition("=")
        if module and removed and kept:
            out.setdefault(module, []).append((removed.split("."), kept))
    return out


def _give_back_aliases(module, aliases):
    # build.python-alias: each removed name, on its owner (the module, or a class of it), becomes the
    # name it aliased before the Python that removed it, only where the owner lacks it and has the
    # other: a Python that still has the name is left as it is.
    for path, kept in aliases:
        owner = module
        for part in path[:-1]:
            owner = getattr(owner, part, None)
        if owner is None or hasattr(owner, path[-1]) or not hasattr(owner, kept):
            continue
        setattr(owner, path[-1], getattr(owner, kept))
        _say("[build.python-alias] %s.%s, which this Python removed, is %s.%s again in this build "
             "(TORCHSMITH_PY_ALIASES)" % (module.__name__, ".".join(path), module.__name__, ".".join(path[:-1] + [kept])))


def _setup_flags():
    return os.environ.get("TORCHSMITH_SETUP_FLAGS", "").split()


def _pass_setup_flags(build_meta):
    # build.setup-flag: setup.py builds its CUDA extension only when its own flag is in sys.argv (and removes
    # it before setup() reads the command line); setuptools' PEP 517 backend sets sys.argv to its command
    # just before it execs setup.py, so the flags go there, each once.
    backend = getattr(build_meta, "_BuildMetaBackend", None)
    if backend is None or getattr(backend, "_torchsmith_flags", False):
        return
    original = backend.run_setup

    def run_setup(self, *args, **kwargs):
        added = [f for f in _setup_flags() if f not in sys.argv]
        if added:
            sys.argv.extend(added)
            _say("[build.setup-flag] setup.py runs with %s, its own switch for its CUDA extension "
                 "(TORCHSMITH_SETUP_FLAGS)" % " ".join(added))
        return original(self, *args, **kwargs)

    backend.run_setup = run_setup
    backend._torchsmith_flags = True


def _hooks():
    targets = {}
    if _setup_flags():
        targets["setuptools.build_meta"] = _pass_setup_flags
    for name, aliases in _py_aliases().items():
        targets[name] = lambda m, aliases=aliases: _give_back_aliases(m, aliases)
    if (_slots() or _force_includes() or _ninja_wanted() or _planned_arches() or _env_int("TORCHSMITH_CXX_STD", 0)
            or os.environ.get("TORCHSMITH_ABS_INCLUDE") == "1" or _cccl_dir() or os.environ.get("TORCHSMITH_GENERATE")
            or _pybind11_needed() or _no_lto() or _reroot() or _source_name_wanted() or _cpp_launch_wanted()
            or _flag_remove_wanted()):
        targets["setuptools.command.build_ext"] = lambda m: _patch(m.build_ext)
    if _gpu_target():
        targets["torch"] = _answer_for_target
    guard = bool(os.environ.get("TORCH_CUDA_ARCH_LIST"))  # the plan's list, wherever a flag's text would hide it
    if guard or _ext_name_wanted() or _device_type_wanted():
        def after_cpp_extension(m):
            if guard:
                _guard_arch_check(m)
            if _ext_name_wanted():
                _name_extensions(m)
            if _device_type_wanted():
                _take_cuda_flag(m)
        targets["torch.utils.cpp_extension"] = after_cpp_extension
    one_setup = os.environ.get("TORCHSMITH_ONE_SETUP") == "1"
    if one_setup or _subpackages_wanted():
        def after_setuptools(m):
            if _subpackages_wanted():
                _add_subpackages(m)  # first: the one-setup merge then calls the setup that adds them
            if one_setup:
                _one_setup(m)
        targets["setuptools"] = after_setuptools
    return targets


if __name__ == "__main__":  # a build.tool-flags wrapper runs this file as nvcc, g++, ...
    _run_tool(sys.argv[1:])
else:
    _chain_other_sitecustomize()
    if _planned_arches():
        _keep_planned_arch_list()
    if _host_compiler_wanted():
        _keep_planned_compilers()
    if _tool_names():
        _wrap_tools()
    if _cmake_forced():
        _add_cmake_include()
    if _no_lto():
        _add_cmake_no_ipo()
    if _cmake_planned_args():
        _pass_cmake_args()
    if _reroot():
        _reroot_globs()
    if _hooks():
        _install_hook(_hooks())
