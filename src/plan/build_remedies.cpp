// Build-environment remedies for a setuptools/cpp_extension package, decided from its setup.py
// (SourceScan's build switches) and carried out by the build helper (src/run/pyshim), each under
// its own rule id so the summary, the lock and the report say which one acted and why:
//  build.gpu-target  setup.py asks torch.cuda for a GPU: inside the build, torch.cuda answers for
//                    the plan's first arch, so a GPU-less machine builds the CUDA extension;
//  build.arch-list   setup.py sets its own TORCH_CUDA_ARCH_LIST or -gencode flags: the plan's wins;
//  build.host-compiler setup.py writes its own CC/CXX/CUDAHOSTCXX or LDSHARED (a compiler the machine
//                    may lack): the plan's compiler wins, as the plan's arch list does;
//  build.tool-flags  setup.py runs make or nvcc itself: wrappers first on PATH in the build give those
//                    compiles the plan's arches and the standard the torch's headers need;
//  build.cxx-std     setup.py forces a -std older than the target torch's headers need (torch.toml
//                    cxx_standard): raised to that standard for the host compiler and nvcc;
//  build.abs-include setup.py passes its own -I/-isystem flags: a relative one is made absolute
//                    against setup.py's directory (cpp_extension's ninja compiles in build_temp);
//  build.one-setup   setup.py calls setup() twice or more at its top level or under `if __name__ == "__main__":` (one distribution per
//                    extension): the calls become one, so one wheel holds every extension.
//  build.generate-sources a script beside setup.py writes sources that setup.py's extension includes
//                    and the tree lacks (fairseq's cuda_function_gen.py): the helper runs it first.
#include <algorithm>
#include <cctype>
#include <cstdlib>

#include <re2/re2.h>

#include "compat/facts_util.h"
#include "core/package_name.h"
#include "core/version.h"
#include "core/version_range.h"
#include "source/hash.h"
#include "plan/build_kb.h"
#include "plan/build_remedies.h"
#include "plan/extension_internal.h"
#include "probe/sections.h"
#include "util/split.h"

namespace ts::plan::ext {

namespace {

constexpr const char* kHelper = "src/run/pyshim/sitecustomize.py";

void use_helper(Ctx& c, const std::string& why) { use_build_helper(c, why, kHelper); }

// fairseq's lightconv_layer: lightconv_cuda_kernel.cu includes lightconv_cuda_forward.cu, which
// cuda_function_gen.py writes and which the repository's instructions run by hand before setup.py.
void choose_generate_sources(Ctx& c, const SourceScan& scan) {
  std::string value, said;
  for (const auto& [script, outs] : scan.generated_sources) {
    std::string files;
    for (const auto& o : outs) files += (files.empty() ? "" : ",") + o;
    value += (value.empty() ? "" : " ") + script + ":" + files;
    said += (said.empty() ? "" : "; ") + script + " writes " + files;
  }
  const std::string src = "setup.py; " + std::string(kHelper) +
                          "; facebookresearch/fairseq@3d262bb:examples/pay_less_attention_paper/README.md ('python "
                          "cuda_function_gen.py' before 'python setup.py install')";
  use_helper(c, "it runs the package's source generator");
  c.set_env("TORCHSMITH_GENERATE", value, "sources the package generates with its own script", src, kGenerateSourcesRule);
  c.decide("remedy", std::string(kGenerateSourcesRule) + " " + value,
           "the extension's sources include files that a script beside setup.py writes and setup.py does not run (" +
               said + "), and the tree lacks them; the build helper runs each script with the target Python in the "
               "build's copy, before the first compile, where a file it writes is still missing",
           src, kGenerateSourcesRule);
}

// neuralnet-pytorch: `if '--cuda-ext' in sys.argv:` builds its CUDAExtension and removes the flag; a PEP 517
// build runs setup.py with setuptools' own argv, so the extension is never built and the wheel holds no CUDA.
void choose_setup_flags(Ctx& c, const SourceScan& scan) {
  if (!c.cuda_on || scan.cuda_argv_flags.empty() || !scan.cuda_extension) return;
  const std::string flags = util::join(scan.cuda_argv_flags, " ");
  const std::string src = "setup.py; " + std::string(kHelper) +
                          "; pypa/setuptools@v75.0.0:setuptools/build_meta.py (_BuildMetaBackend.run_setup execs "
                          "setup.py with sys.argv set to its own command)";
  use_helper(c, "it passes setup.py its own CUDA switch");
  c.set_env("TORCHSMITH_SETUP_FLAGS", flags, "setup.py builds its CUDA extension only when asked on its command line",
            src, kSetupFlagRule);
  c.decide("remedy", std::string(kSetupFlagRule) + " " + flags,
           "setup.py builds its CUDAExtension only when " + flags + " is in sys.argv (and removes it before setup() "
           "reads the command line); a PEP 517 build gives setup.py no such flag, so the wheel would hold no CUDA "
           "code: the build helper adds it to the command line setuptools runs setup.py with",
           src, kSetupFlagRule);
}

// setup.py refuses CUDA without a GPU: torch.cuda answers for the plan's first arch inside the build.
void choose_gpu_target(Ctx& c, const SourceScan& scan) {
  if (!c.cuda_on || c.arches.empty() || !scan.gpu_check) return;
  std::string target = c.arches.arches().front().capability();
  use_helper(c, "it makes torch.cuda answer for the planned target");
  c.set_env("TORCHSMITH_GPU_TARGET", target, "setup.py asks torch.cuda about a GPU", kHelper, kGpuTargetRule);
  c.decide("remedy", std::string(kGpuTargetRule) + " " + target,
           "setup.py asks torch.cuda whether a GPU is here (is_available / device capability) and builds no CUDA "
           "without one; inside this build only, torch.cuda answers for the planned target " + target +
               " (no GPU is needed to compile for it)",
           "setup.py; " + std::string(kHelper), kGpuTargetRule);
}

// flame-1's rasterizer: `os.environ["CC"] = os.environ["CXX"] = "gcc-8"` at import, a compiler this
// machine lacks (torch reads no version from it, the compile cannot start); where it has it, one the
// plan did not check against nvcc and torch's ABI.
void choose_host_compiler_env(Ctx& c, const SourceScan& scan) {
  if (!c.compiler || scan.own_compiler_env.empty()) return;
  std::string names, lines;
  for (const auto& [name, line] : scan.own_compiler_env) {
    names += (names.empty() ? "" : " ") + name;
    if (lines.find(line) == std::string::npos) lines += (lines.empty() ? "" : "; ") + line;
  }
  const std::string src = "setup.py; " + std::string(kHelper);
  use_helper(c, "it keeps the plan's host compiler");
  c.set_env("TORCHSMITH_HOST_COMPILER", "1", "setup.py writes its own " + names, src, kHostCompilerEnvRule);
  c.decide("remedy", std::string(kHostCompilerEnvRule) + " " + c.compiler->cxx,
           "setup.py sets its own host compiler (" + lines + "); the plan's " + c.compiler->family + " " +
               c.compiler->version + " (" + c.compiler->cxx + "), checked against nvcc and the torch's C++ ABI, wins: "
               "the build helper keeps the plan's CC/CXX/CUDAHOSTCXX where setup.py names another program (one "
               "naming the plan's own compiler is kept as written), the plan's C compiler for CC (the C driver "
               "beside its C++ one where it named only that, else the default C compiler), and the plan's "
               "program first in an LDSHARED/LDCXXSHARED of another, its flags as written",
           src, kHostCompilerEnvRule);
}

// pytorch_winoconv's setup.py runs `make`, whose Makefile passes nvcc nine -gencode flags from sm_30
// (which CUDA 11 dropped) and g++ -std=c++14 (torch 2.x's headers need 17 or 20): compiles that never
// pass through cpp_extension, so build.arch-list and build.cxx-std cannot reach them. The helper puts
// wrappers named as the tools first on PATH inside the build, which rewrite those flags to the plan's.
void choose_tool_flags(Ctx& c, const SourceScan& scan) {
  if (scan.build_tool_calls.empty()) return;
  const kb::TorchRelease* rel = c.kb().find_torch(c.python->torch.version);
  const int need = rel ? rel->cxx_standard : 0;
  const bool arches = c.cuda_on && !c.arches.empty();
  if (!arches && !need) return;
  std::string tools, lines;
  for (const auto& [tool, line] : scan.build_tool_calls) {
    tools += (tools.empty() ? "" : " and ") + tool;
    lines += (lines.empty() ? "" : "; ") + line;
  }
  std::vector<std::string> names;
  auto add = [&](const std::string& path) {
    std::string n = path.substr(path.rfind('/') + 1);
    if (!n.empty() && std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
  };
  if (arches) add("nvcc");
  for (const char* n : {"g++", "gcc", "c++", "cc"}) add(n);
  if (c.compiler) {
    add(c.compiler->cxx);
    if (!c.compiler->cc.empty()) add(c.compiler->cc);
  }
  // A make setup.py runs with its own -j (winoconv's -j%d of os.cpu_count()) would run that many
  // compiles beside the plan's: its wrapper runs the plan's MAX_JOBS instead.
  bool make = false;
  for (const auto& [tool, line] : scan.build_tool_calls)
    if (tool == "make" || tool == "gmake") add(tool), make = true;
  const std::string src = "setup.py; " + std::string(kHelper);
  use_helper(c, "it gives the package's own compiles the plan's flags");
  c.set_env("TORCHSMITH_TOOL_WRAP", util::join(names, " "), "setup.py runs " + tools + " itself", src, kToolFlagsRule);
  std::string what;
  if (arches) {
    const std::string list = c.arches.torch_cuda_arch_list();
    if (!c.p.env.count("TORCHSMITH_ARCH_LIST"))
      c.set_env("TORCHSMITH_ARCH_LIST", list, "the arches of the compiles setup.py's " + tools + " runs", src, kToolFlagsRule);
    what = "nvcc's -gencode/-arch/-code flags become the plan's " + list + " (added to a .cu compile that has none)";
  }
  if (need) {
    std::string cite = compat::cite(rel->source, rel->origin);
    if (c.p.cxx_std != need) {  // build.cxx-std set it already where setup.py's own flags were older
      c.p.cxx_std = need;
      c.set_env("TORCHSMITH_CXX_STD", std::to_string(need), "the torch's headers need C++" + std::to_string(need), cite,
                kToolFlagsRule);
    }
    what += (what.empty() ? "" : ", and ") + std::string("an -std older than C++") + std::to_string(need) +
            " (torch " + rel->version.original() + "'s headers; " + cite + ") is raised to it in a compile that names "
            "torch's include directory (a library of the package's own built without it keeps its standard)";
  }
  if (make)
    what += (what.empty() ? "" : ", ") + std::string("make's own -j becomes the plan's job count (MAX_JOBS), and a "
            "Makefile's $(CC)/$(CXX)/$(NVCC) from the environment (the plan's compiler, an absolute path make runs "
            "with no PATH lookup) runs through the same wrapper");
  c.decide("remedy", std::string(kToolFlagsRule) + " " + util::join(names, " "),
           "setup.py runs " + tools + " itself (" + lines + "): its compiles never pass through torch's "
               "cpp_extension, so the flags its Makefile or command line passes reach the compilers as written; "
               "inside this build only, wrappers named " + util::join(names, ", ") + " come first on PATH, where " +
               what + ", and the next program of that name on PATH runs with the rest as written",
           src, kToolFlagsRule);
}

// pyronn-torch from a source archive: setup(use_pyscaffold=True) asks setuptools_scm, which finds no .git
// and stops ("setuptools-scm was unable to detect version"). Its override variable gives the version
// instead: an environment variable only, no build helper.
void choose_scm_version(Ctx& c, const SourceScan& scan) {
  if (scan.scm_use.empty() || scan.vcs_metadata || scan.scm_fallback) return;
  if (c.p.env.count("SETUPTOOLS_SCM_PRETEND_VERSION")) return;  // given with --env: the user's
  std::string version = scan.pkg_info_version, from = "the tree's PKG-INFO";
  if (version.empty()) version = c.p.spec.version, from = "the version asked for";
  if (version.empty()) version = scan.version.text(), from = "the version the package's files state";
  if (version.empty()) version = "0.0.0", from = "none known: 0.0.0";
  const std::string src = scan.scm_use + "; https://setuptools-scm.readthedocs.io/en/latest/overrides/ "
                          "(SETUPTOOLS_SCM_PRETEND_VERSION)";
  c.set_env("SETUPTOOLS_SCM_PRETEND_VERSION", version, "setuptools_scm finds no VCS metadata in the tree", src,
            kScmVersionRule);
  c.decide("remedy", std::string(kScmVersionRule) + " " + version,
           "the build takes its version from setuptools_scm (" + scan.scm_use + "), which reads git or hg metadata "
           "and the tree has none (a source archive, a copy without .git) nor a fallback_version: it would stop "
           "with 'unable to detect version'; SETUPTOOLS_SCM_PRETEND_VERSION gives it " + version + " (" + from +
           "; --env SETUPTOOLS_SCM_PRETEND_VERSION=X gives another)",
           src, kScmVersionRule);
}

}  // namespace

void use_build_helper(Ctx& c, const std::string& why, const char* source) {
  auto it = c.p.env.find("PYTHONPATH");
  std::string was = it == c.p.env.end() ? "" : it->second;
  std::string now = pythonpath_with_pyshim(was);
  if (now != was) c.set_env("PYTHONPATH", now, "torchsmith's build helper comes first: " + why, source);
}

bool build_remedies_apply(const Ctx& c) {
  const auto& scan = c.req->scan;
  return c.python && scan.scanned && scan.setup_py;
}

void choose_asked_env(Ctx& c) {
  for (const auto& [k, v] : c.req->env) {
    if (c.p.env.count(k)) {  // PATH, CUDA_HOME, TORCH_CUDA_ARCH_LIST, MAX_JOBS ... are the plan's, with their reasons
      c.conflict("--env " + k, "the plan sets " + k + " itself (plan --explain says why)",
                 {"drop --env " + k + " and use the option that decides it (--arch, --cuda, --jobs, --toolkit)"}, "--env");
      continue;
    }
    c.set_env(k, v, "asked for (--env): the package's own build switch", "--env");
  }
}

// torch and what comes with it are the target's: never installed again, whatever a pyproject lists.
bool torch_or_kin(const std::string& name) {
  return name == "torch" || name == "torchvision" || name == "torchaudio" || name == "triton" ||
         name.rfind("nvidia-", 0) == 0;
}

// "tomli; python_version<'3.11'" against Python 3.11.2: false. Only python_version markers are
// read; any other marker is left to pip (true).
bool marker_holds(const std::string& req, const FactVersion& python_version) {
  static const RE2 re(R"(;\s*python_version\s*(<=|>=|==|!=|<|>)\s*["']([0-9]+(?:\.[0-9]+)*)["']\s*$)");
  std::string op, v;
  if (!RE2::PartialMatch(req, re, &op, &v)) return true;
  const auto& have = python_version.parsed();
  auto want = Version::parse(v);  // the marker's text, read here where it is met
  if (!have || !want) return true;
  // python_version is major.minor: 3.11.2 compares as 3.11.
  auto c = have->truncated(2) <=> *want;
  return op == "<" ? c < 0 : op == "<=" ? c <= 0 : op == ">" ? c > 0 : op == ">=" ? c >= 0 : op == "==" ? c == 0 : c != 0;
}

bool in_house(const Ctx& c, const std::string& name) {
  for (const auto& w : c.req->wheelhouse_wheels)
    if (w.name == name) return true;
  return false;
}

// --wheelhouse: kept in the lock (the overlay's pip and verify's argv). A torch wheel in it other than
// the target's is refused, never installed: the overlay drops torch and its kin and installs with
// --no-deps, and verify pins torch to the target's (a matrix's wheelhouse holds every row's torch).
void choose_wheelhouse(Ctx& c) {
  const auto& house = c.req->wheelhouse;
  if (house.empty() || !c.python) return;
  const FactVersion& target = c.python->torch.version;
  std::vector<std::string> refused;
  for (const auto& w : c.req->wheelhouse_wheels) {
    if (w.name != "torch") continue;
    const auto& v = w.version.parsed();
    if (v && target.parsed() && (*v <=> *target.parsed()) == 0) continue;
    refused.push_back(w.file);
  }
  c.decide("wheelhouse", house,
           "the build overlay's requirements and verify's runtime dependencies come from this directory only "
           "(pip --no-index --find-links), never from an index; torch stays the target's " + target.text(),
           "--wheelhouse", kWheelhouseRule);
  if (!refused.empty())
    c.warn("wheelhouse", "refused: " + util::join(refused, " "),
           "a torch other than the target's in the wheelhouse is never installed: the build overlay leaves torch and "
           "its kin out and installs with --no-deps, and verify pins torch==" + target.text() + ", so a dependency "
           "that wants another torch fails as not installable",
           "--wheelhouse", kWheelhouseRule);
}

// build.fetch-local finds pybind11 in the build environment; with none in the target Python, a
// pybind11 wheel of the wheelhouse goes into the overlay (its package carries pybind11Config.cmake).
bool fetch_local_pybind11(const Ctx& c) {
  const auto& scan = c.req->scan;
  if (c.req->wheelhouse.empty() || scan.cmake_driver.empty() || scan.cmake_driver == "cmake" ||
      !in_house(c, "pybind11"))
    return false;
  bool fetches = std::any_of(scan.cmake_fetches.begin(), scan.cmake_fetches.end(),
                             [](const auto& f) { return f.first == "pybind11"; });
  return fetches && !c.python->packages.count("pybind11");
}

// What the overlay needs: pyproject's requirements the target Python lacks, each backend with what
// it imports at build time (build.toml), names and the backends' sources beside.
struct OverlayWant {
  std::vector<std::string> reqs, names, backend_src;
  bool setup_requires = false;  // setup.cfg's setup_requires are among reqs
  // build.header-wheel: a distribution that carries headers the package includes and does not ship,
  // with its include folders, the first include that asked for it and the KB's source.
  struct Headers {
    std::string distribution, include, source;
    std::vector<std::string> dirs;
  };
  std::vector<Headers> headers;
  std::vector<std::string> headers_not_in_house;  // such a distribution a --wheelhouse lacks: "nvidia-cutlass (FILE:LINE: ...)"
  // build.removed-module: a module setup.py imports that the target's distribution no longer ships.
  struct Removed {
    std::string module, where, distribution, have, requirement, source;
  };
  std::vector<Removed> removed;
  std::vector<Removed> removed_not_in_house;  // one a --wheelhouse has no wheel of
  // build.undeclared-module: a build-time module setup.py imports, declares nowhere, and the target lacks.
  struct Undeclared {
    std::string module, where, distribution, source;
  };
  std::vector<Undeclared> undeclared;
  std::vector<Undeclared> undeclared_not_in_house;
};

// setup.py's imports of a module the KB says a release of its distribution removed (build.toml
// [[removed_module]]), where the target Python's distribution is at or past that release.
void removed_modules(const Ctx& c, OverlayWant& o) {
  if (!c.req->build_kb) return;
  for (const auto& [mod, where] : c.req->scan.build_imports) {
    const RemovedModule* m = c.req->build_kb->removed_module(mod);
    if (!m) continue;
    for (const auto& [k, v] : c.python->packages) {
      const auto& ver = v.parsed();
      if (normalize_name(k) != normalize_name(m->distribution) || !ver || *ver < m->removed_in) continue;
      OverlayWant::Removed r{mod, where, m->distribution, v.text(), m->requirement, compat::cite(m->source, m->origin)};
      (!c.req->wheelhouse.empty() && !in_house(c, m->distribution) ? o.removed_not_in_house : o.removed).push_back(r);
    }
  }
}

// The probe's spelling of a distribution name ("scikit-build-core" -> "scikit_build_core").
std::string probe_name(const std::string& distribution) {
  std::string n;
  for (char ch : distribution) n += ch == '-' || ch == '.' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return n;
}

// setup.py's imports of a build-time module (modules.toml: pybind11, numpy, Cython, yaml, ...) whose
// distribution the target Python lacks: transformerfusion's get_pybind_include() imports pybind11
// and nothing declares it, so a build without isolation stops at `No module named 'pybind11'`.
// Only a distribution the probe reports can be known to be absent.
void undeclared_modules(const Ctx& c, OverlayWant& o) {
  if (!c.req->build_kb) return;
  for (const auto& [mod, where] : c.req->scan.build_imports) {
    const BuildModule* m = c.req->build_kb->build_module(mod);
    if (!m || torch_or_kin(normalize_name(m->distribution))) continue;
    const std::string n = probe_name(m->distribution);
    if (!probe::python_probe_lists(n) || c.python->packages.count(n)) continue;
    OverlayWant::Undeclared u{mod, where, m->distribution, m->source};
    (!c.req->wheelhouse.empty() && !in_house(c, normalize_name(m->distribution)) ? o.undeclared_not_in_house
                                                                                  : o.undeclared).push_back(u);
  }
}

// The KB's distributions for the package's #includes that no file of its tree provides (build.toml
// [[header_wheel]]): each once, by its first include. With a wheelhouse, only one it holds.
void header_wheels(const Ctx& c, OverlayWant& o) {
  if (!c.req->build_kb) return;
  for (const auto& [inc, where] : c.req->scan.unshipped_includes) {
    const HeaderWheel* h = c.req->build_kb->header_wheel(inc);
    if (!h) continue;
    bool again = false;
    for (const auto& w : o.headers) again |= w.distribution == h->distribution;
    for (const auto& w : o.headers_not_in_house) again |= w.starts_with(h->distribution + " ");
    if (again) continue;
    if (!c.req->wheelhouse.empty() && !in_house(c, h->distribution)) {
      o.headers_not_in_house.push_back(h->distribution + " (" + where + ")");
      continue;
    }
    o.headers.push_back({h->distribution, where, compat::cite(h->source, h->origin), h->include});
  }
}

OverlayWant overlay_requirements(const Ctx& c) {
  OverlayWant o;
  const auto& scan = c.req->scan;
  // The probe knows the usual build packages and backends; one there whose version the requirement
  // accepts is not installed again (offline, pip could not even fetch it).
  auto have = [&](const std::string& req) {
    auto want = Constraint::parse(req.substr(0, req.find(';')));
    if (!want) return false;
    for (const auto& [k, v] : c.python->packages) {
      auto kc = Constraint::parse(k);
      if (!kc || kc->normalized_name() != want->normalized_name()) continue;
      const auto& ver = v.parsed();  // typed where the probe read it
      return ver && want->contains(*ver);
    }
    // torchmcubes' requires = [..., "cmake", "ninja"]: PyPI's wheels of the programs; one on this
    // machine whose version the requirement accepts serves the build as well (offline, the wheel may
    // not be there to install).
    const std::string n = want->normalized_name();
    if (n == "cmake" || n == "ninja")
      for (const auto& t : c.facts().tools) {
        const auto& tv = t.version.parsed();
        if (t.name == n && !t.path.empty() && (want->range.is_any() || (tv && want->contains(*tv)))) return true;
      }
    return false;
  };
  auto add = [&](const std::string& req, const std::string& name) {
    if (std::find(o.names.begin(), o.names.end(), name) != o.names.end()) return;
    o.reqs.push_back(req);
    o.names.push_back(name);
  };
  // setup.cfg's setup_requires (pyronn-torch's pyscaffold<3.3a0, its use_pyscaffold=True): setup() asks
  // setuptools for them whatever the backend, and offline without isolation it cannot fetch one.
  for (const auto& r : scan.setup_requires) {
    auto con = Constraint::parse(r);
    if (!con || torch_or_kin(con->normalized_name()) || have(r)) continue;
    add(r, con->normalized_name());
    o.setup_requires = true;
  }
  if (scan.pyproject)
    for (const auto& r : scan.pyproject_requires) {
      auto con = Constraint::parse(r);
      if (!con) continue;  // an environment marker or a URL: left to pip's own error
      std::string n = con->normalized_name();
      if (torch_or_kin(n) || have(r)) continue;
      add(r, n);
      // A backend goes in with --no-deps: what it imports at build time comes with it (build.toml).
      const BuildBackend* b = c.req->build_kb ? c.req->build_kb->backend(n) : nullptr;
      if (!b) continue;
      for (const auto& dep : b->needs) {
        if (!marker_holds(dep, c.python->version)) continue;
        auto dc = Constraint::parse(dep.substr(0, dep.find_first_of("<>=!~;[ ")));
        if (!dc || torch_or_kin(dc->normalized_name()) || have(dep)) continue;
        add(dep, dc->normalized_name());
      }
      o.backend_src.push_back(compat::cite(b->source, b->origin));
    }
  if (fetch_local_pybind11(c)) add("pybind11", "pybind11");
  removed_modules(c, o);
  for (const auto& r : o.removed) add(r.requirement, normalize_name(r.distribution));
  undeclared_modules(c, o);
  for (const auto& u : o.undeclared) add(u.distribution, normalize_name(u.distribution));
  header_wheels(c, o);
  for (const auto& h : o.headers) add(h.distribution, h.distribution);
  return o;
}

void choose_build_overlay(Ctx& c) {
  const auto& scan = c.req->scan;
  if (!c.python || !scan.scanned) return;
  OverlayWant w = overlay_requirements(c);
  for (const auto& n : w.headers_not_in_house)
    c.warn("remedy", std::string(kHeaderWheelRule) + " off",
           "the package includes headers its tree does not ship, which " + n.substr(0, n.find(' ')) + " carries " +
               n.substr(n.find(' ') + 1) + ", and the wheelhouse " + c.req->wheelhouse + " has no wheel of it: add "
               "it there (pip download --no-deps -d DIR " + n.substr(0, n.find(' ')) + ")",
           "the package's sources", kHeaderWheelRule);
  auto removed_why = [&](const OverlayWant::Removed& r) {
    return r.where + " imports " + r.module + ", which a release of " + r.distribution + " removed (" + r.source +
           "); " + c.python->path + " has " + r.distribution + " " + r.have;
  };
  for (const auto& r : w.removed_not_in_house)
    c.warn("remedy", std::string(kRemovedModuleRule) + " off",
           removed_why(r) + ", and the wheelhouse " + c.req->wheelhouse + " has no wheel of " + r.distribution +
               " to put a release that still has it in a build overlay: add one there (pip download --no-deps -d DIR '" +
               r.requirement + "')",
           r.where, kRemovedModuleRule);
  for (const auto& u : w.undeclared_not_in_house)
    c.warn("remedy", std::string(kUndeclaredModuleRule) + " off",
           u.where + " imports " + u.module + " while the package builds, which " + c.python->path + " lacks and the "
               "package does not declare, and the wheelhouse " + c.req->wheelhouse + " has no wheel of " +
               u.distribution + ": add one there (pip download --no-deps -d DIR " + u.distribution + ")",
           u.where + "; " + u.source, kUndeclaredModuleRule);
  if (w.reqs.empty()) return;
  const std::string list = util::join(w.names, " ");
  const std::string& house = c.req->wheelhouse;
  const ProvisionContext* pc = c.req->provision;
  if (!pc || pc->cache_root.empty()) {
    c.warn("remedy", std::string(kBuildOverlayRule) + " off",
           "the build requires " + list + ", which " + c.python->path + " is not known to have; "
           "no cache directory for a build overlay: install them there (pip install " + list + ")",
           "pyproject.toml", kBuildOverlayRule);
    return;
  }
  std::string key = house.empty() ? "" : "wheelhouse " + house + "\n";
  for (const auto& r : w.reqs) key += r + "\n";
  std::string dir = pc->cache_root + "/build-overlay/" + source::sha256_hex(c.python->path + "\n" + key).substr(0, 16);
  std::vector<std::string> argv{c.python->path, "-m", "pip", "install", "--no-deps", "--upgrade"};
  if (!house.empty()) argv.insert(argv.end(), {"--no-index", "--find-links", house});
  argv.insert(argv.end(), {"--target", dir, "--"});
  argv.insert(argv.end(), w.reqs.begin(), w.reqs.end());
  const std::string from = house.empty() ? "" : " from the wheelhouse " + house;
  c.p.steps.push_back({"build-requires", argv, "", "the build requirements " + list + " into a build overlay" + from});
  // What the build imports (a backend, pybind11); a distribution that only carries headers is not imported.
  std::vector<std::string> imported;
  for (const auto& n : w.names)
    if (std::none_of(w.headers.begin(), w.headers.end(), [&](const auto& h) { return h.distribution == n; }))
      imported.push_back(n);
  // build.removed-module: on PYTHONPATH too (setup.py imports it), with its own decision.
  for (const auto& r : w.removed) {
    c.decide("remedy", std::string(kRemovedModuleRule) + " " + r.module,
             removed_why(r) + ": " + r.requirement + ", a release that still has it, installed with --no-deps" + from +
                 " into the build overlay (" + dir + ") on the build's PYTHONPATH",
             r.where + "; " + r.source, kRemovedModuleRule);
  }
  for (const auto& u : w.undeclared)
    c.decide("remedy", std::string(kUndeclaredModuleRule) + " " + u.module,
             u.where + " imports " + u.module + " while the package builds, and neither pyproject.toml nor setup.py "
                 "declares it; " + c.python->path + " has no " + u.distribution + ": installed with --no-deps" + from +
                 " into the build overlay (" + dir + ") on the build's PYTHONPATH",
             u.where + "; " + u.source, kUndeclaredModuleRule);
  std::vector<std::string> generic;  // the overlay's other requirements, the generic decision's
  for (const auto& n : imported)
    if (std::none_of(w.removed.begin(), w.removed.end(), [&](const auto& r) { return normalize_name(r.distribution) == n; }) &&
        std::none_of(w.undeclared.begin(), w.undeclared.end(), [&](const auto& u) { return normalize_name(u.distribution) == n; }))
      generic.push_back(n);
  if (!imported.empty()) {
    auto it = c.p.env.find("PYTHONPATH");
    std::string was = it == c.p.env.end() ? "" : it->second;
    c.set_env("PYTHONPATH", was.empty() ? dir : was + ":" + dir,
              "the build overlay after the target's own site-packages: the backend is found, torch stays the target's",
              "pyproject.toml", kBuildOverlayRule);
  }
  // build.header-wheel: the distribution's include folders on CPATH, which g++ reads and nvcc hands to the
  // host compiler that preprocesses each .cu; a CPATH the user exported stays after them.
  if (!w.headers.empty()) {
    std::vector<std::string> dirs;
    for (const auto& h : w.headers)
      for (const auto& d : h.dirs) dirs.push_back(dir + "/" + d);
    auto user = c.facts().search_paths.find("CPATH");
    if (auto e = c.p.env.find("CPATH"); e != c.p.env.end()) dirs.push_back(e->second);
    else if (user != c.facts().search_paths.end()) dirs.push_back(user->second);
    c.set_env("CPATH", util::join(dirs, ":"),
              "the include folders of what the build overlay installs for headers the package does not ship",
              "the package's sources", kHeaderWheelRule);
    for (const auto& h : w.headers)
      c.decide("remedy", std::string(kHeaderWheelRule) + " " + h.distribution,
               "the package includes headers its tree does not ship (" + h.include + "), which the PyPI distribution " +
                   h.distribution + " carries: installed with --no-deps" + from + " into the build overlay (" + dir +
                   "), its folders " + util::join(h.dirs, ", ") + " on the build's CPATH",
               h.source, kHeaderWheelRule);
  }
  if (generic.empty()) return;
  const bool pybind = std::find(w.names.begin(), w.names.end(), "pybind11") != w.names.end() && fetch_local_pybind11(c);
  c.decide("remedy", std::string(kBuildOverlayRule) + " " + util::join(generic, " "),
           "the build requires " + util::join(generic, " ") + ", which " + c.python->path + " is not known to have" +
               (pybind ? " (pybind11 for build.fetch-local: the CMake files fetch it, the target Python has none, the "
                         "wheelhouse does)" : "") +
               ", and the build runs without isolation (isolation would bring another torch): installed with --no-deps"
               + from + " into an overlay on the build's PYTHONPATH (" + dir + "); torch and its kin are never installed" +
               (w.backend_src.empty() ? "" : "; a backend comes with what it imports at build time (build.toml)"),
           (w.setup_requires ? "setup.cfg [options] setup_requires; " : "") +
               (w.backend_src.empty() ? std::string("pyproject.toml") : "pyproject.toml; " + util::join(w.backend_src, "; ")),
           kBuildOverlayRule);
}

void choose_plain_version(Ctx& c) {
  const auto& uses = c.req->scan.own_version_numeric;
  if (uses.empty()) return;
  c.p.plain_version = true;
  std::string where;
  for (const auto& u : uses) where += (where.empty() ? "" : "; ") + u;
  // PEP 440 allows the label; float()/int() of "1.1+pt211cu130.sm90" raises ValueError at import.
  c.decide("wheel-version", "no local label",
           "the package's Python converts its own installed version to a number (" + where + "), which a "
               "'+pt..cu..' label makes raise ValueError at import: the wheel keeps the version as written; the "
               "torch, CUDA and arches the label would name are in this lock",
           "https://peps.python.org/pep-0440/#local-version-identifiers; " + uses.front(), kPlainVersionRule);
}

// warp-transducer's pytorch_binding: setup.py links libwarprnnt.so from ../build, which the parent's
// CMakeLists.txt builds; a build of the binding's directory alone stops before compiling anything.
void warn_parent_library(Ctx& c, const SourceScan& scan) {
  if (!scan.parent_library) return;
  const auto& pl = *scan.parent_library;
  if (!pl.env_var.empty() && c.p.env.count(pl.env_var)) return;  // the user gave its directory
  std::string arches = c.cuda_on && !c.p.arch_list.empty()
                           ? " -DCMAKE_CUDA_ARCHITECTURES='" + c.p.arch_list.cmake_cuda_architectures() + "'" : "";
  std::string where = pl.lib_dir.empty() ? "" : " from " + pl.lib_dir;
  if (!pl.env_var.empty()) where += (where.empty() ? " from $" : " or $") + pl.env_var;
  c.warn("extension", "links lib" + pl.target + ", which ../CMakeLists.txt builds",
         "setup.py links lib" + pl.target + where + " (" + pl.referenced + "), a library the parent directory's CMake "
         "project builds (" + pl.declared + "); torchsmith builds the directory it is given, so setup.py finds no "
         "library and stops before compiling: build it first from the parent directory (cmake -S . -B build" + arches +
         " && cmake --build build --target " + pl.target + "), then build this directory with --env " +
         (pl.env_var.empty() ? std::string("its library directory") : pl.env_var + "=PARENT/build") +
         " (torchsmith does not build the parent's library itself yet)",
         pl.referenced + "; " + pl.declared, kParentLibraryRule);
}

namespace {

bool starts_with_dir(const std::string& path, const std::string& dir) {
  return !dir.empty() && path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 && path[dir.size()] == '/';
}

// Where e points for this plan, and from what ("" when nothing the facts know answers). A pip library
// counts only in the target Python's site-packages (another environment's is another torch's).
std::string library_location(const Ctx& c, const PackageEnv& e, std::string& from) {
  std::string prefix, include, lib;
  if (e.library == "cuda") {
    if (!c.cuda_on || !c.toolkit) return "";
    prefix = c.toolkit->path;
    include = prefix + "/include";
    lib = prefix + "/lib64";
    from = "the plan's CUDA toolkit";
  } else {
    const LibraryFacts* best = nullptr;
    for (const auto& l : c.facts().libraries) {
      if (l.name != e.library || l.include_dir.empty()) continue;
      bool own = starts_with_dir(l.include_dir, c.python->site_packages);
      if (l.source.rfind("pip:", 0) == 0 && !own) continue;
      if (!best || (own && !starts_with_dir(best->include_dir, c.python->site_packages))) best = &l;
    }
    if (!best) return "";
    include = best->include_dir;
    lib = best->library_dir;
    static const std::string kInc = "/include";
    if (include.size() > kInc.size() && include.compare(include.size() - kInc.size(), kInc.size(), kInc) == 0)
      prefix = include.substr(0, include.size() - kInc.size());
    from = e.library + (best->version.empty() ? "" : " " + best->version.text()) + " (" +
           (best->source.empty() ? std::string("found") : best->source) + ", " + include + ")";
  }
  return e.points == "prefix" ? prefix : e.points == "include" ? include : lib;
}

// motion-sparsity's BuildExt: `self.compiler.compiler_so.remove('-Wstrict-prototypes')`, written when
// Python's own CFLAGS carried that C-only flag into every C++ compile; CPython 3.7 moved it out
// (python/cpython#7395), so the remove raises ValueError before anything compiles.
void choose_flag_removal(Ctx& c, const SourceScan& scan) {
  if (scan.compiler_flag_removals.empty()) return;
  std::string flags;
  for (const auto& f : scan.compiler_flag_removals) flags += (flags.empty() ? "" : " ") + f;
  const std::string src = "setup.py; " + std::string(kHelper) +
                          "; https://github.com/python/cpython/pull/7395 (bpo-5755: -Wstrict-prototypes moved from "
                          "Python's CFLAGS to CFLAGS_NODIST in 3.7, backported to 3.6)";
  use_helper(c, "it lets the package remove a flag the compiler does not pass");
  c.set_env("TORCHSMITH_FLAG_REMOVE", "1", "setup.py removes " + flags + " from the compiler's command", src,
            kFlagRemoveRule);
  c.decide("remedy", std::string(kFlagRemoveRule) + " " + flags,
           "setup.py removes " + flags + " from distutils' compiler command (compiler_so.remove(...)); a Python "
           "whose sysconfig flags lack it (CPython's own since 3.7) makes list.remove raise ValueError before "
           "anything compiles: in the build helper, removing a flag the command does not hold does nothing, and "
           "one it holds is removed as before",
           src, kFlagRemoveRule);
}

}  // namespace

void choose_library_env(Ctx& c) {
  const auto& scan = c.req->scan;
  for (const auto& [name, where] : scan.env_no_default) {
    if (c.p.env.count(name)) continue;  // the plan's own (CUDA_HOME) or given with --env: that one
    const PackageEnv* e = c.req->build_kb ? c.req->build_kb->library_env(name) : nullptr;
    if (!e) continue;
    const std::string src = compat::cite(e->source, e->origin);
    std::string from;
    std::string value = library_location(c, *e, from);
    if (value.empty()) {
      c.warn("extension", "$" + name + " is not set",
             "setup.py reads $" + name + " (" + e->meaning + ") with no default (" + where + "), and torchsmith found "
             "no " + e->library + " for this build (the target Python's site-packages, the system's): unset, the "
             "build stops; give it with --env " + name + "=DIR",
             "setup.py; " + src, kLibEnvRule);
      continue;
    }
    c.set_env(name, value, "setup.py reads it with no default: " + e->meaning, src, kLibEnvRule);
    c.decide("remedy", std::string(kLibEnvRule) + " " + name + "=" + value,
             "setup.py reads $" + name + " with no default (" + where + "), which unset is None or a KeyError and "
             "stops the build; it names " + e->meaning + ": " + from + " (--env " + name + "=DIR gives another)",
             "setup.py; " + src, kLibEnvRule);
  }
}

void choose_build_remedies(Ctx& c) {
  // A URL@REF or NAME==VERSION read before planning (request.cpp): where, or why it was not.
  if (!c.req->scanned_from.empty())
    c.decide("scan", "read before planning", "the source was read as a directory is: " + c.req->scanned_from,
             "the requirement");
  else if (!c.req->scan_error.empty())
    c.warn("scan", "not read", c.req->scan_error + "; the plan follows the recipe alone (no build remedies from the "
           "source; a failed build's log can still trigger them)", "the requirement");
  choose_asked_env(c);
  choose_wheelhouse(c);
  choose_build_overlay(c);
  choose_cmake_remedies(c);
  choose_library_env(c);
  if (c.req->scan.scanned) choose_scm_version(c, c.req->scan);
  if (!build_remedies_apply(c)) return;
  const auto& scan = c.req->scan;
  choose_gpu_target(c, scan);
  if (c.cuda_on && !c.arches.empty() && scan.own_arches) {
    std::string list = c.arches.torch_cuda_arch_list();
    use_helper(c, "it keeps the plan's arch list");
    c.set_env("TORCHSMITH_ARCH_LIST", list, "setup.py writes its own arch list", kHelper, kArchListRule);
    c.decide("remedy", std::string(kArchListRule) + " " + list,
             "setup.py sets its own TORCH_CUDA_ARCH_LIST or passes -gencode/-arch flags (arches the toolkit may have "
             "dropped); its writes keep the plan's " + list + " and its arch flags are dropped, so torch's "
             "cpp_extension derives them from the plan's list",
             "setup.py; " + std::string(kHelper), kArchListRule);
  }
  choose_host_compiler_env(c, scan);
  if (!scan.std_flags.empty()) {
    const kb::TorchRelease* rel = c.kb().find_torch(c.python->torch.version);
    int need = rel ? rel->cxx_standard : 0;
    std::string older;
    for (const auto& f : scan.std_flags)
      if (cxx_std_older(f.year, need)) older += (older.empty() ? "" : " ") + f.text;
    if (need && !older.empty()) {
      std::string src = compat::cite(rel->source, rel->origin);
      use_helper(c, "it raises the package's -std");
      c.p.cxx_std = need;
      c.set_env("TORCHSMITH_CXX_STD", std::to_string(need), "the torch's headers need C++" + std::to_string(need), src,
                kCxxStdRule);
      c.decide("remedy", std::string(kCxxStdRule) + " c++" + std::to_string(need),
               "setup.py passes " + older + " while torch " + rel->version.original() + "'s headers need C++" +
                   std::to_string(need) + " (cpp_extension's own -std comes first, so the package's wins); the "
                   "build helper raises it for the host compiler and nvcc",
               src, kCxxStdRule);
    }
  }
  choose_tool_flags(c, scan);
  if (scan.own_includes) {
    // cpp_extension makes the compiler's own include_dirs absolute (its Note [Absolute include_dirs])
    // but passes an extension's include_dirs and extra_compile_args as written, and its ninja build
    // runs in build_temp.
    const std::string src = "pytorch/pytorch@v2.6.0:torch/utils/cpp_extension.py (Note [Absolute include_dirs]; "
                            "_run_ninja_build runs ninja with cwd=build_directory); "
                            "https://github.com/facebookresearch/votenet/issues/108 ('-I_ext_src/include' then "
                            "'fatal error: cuda_utils.h: No such file or directory')";
    use_helper(c, "it makes the package's relative include directories absolute");
    c.set_env("TORCHSMITH_ABS_INCLUDE", "1", "setup.py passes its own include directories", src, kAbsIncludeRule);
    c.decide("remedy", kAbsIncludeRule,
             "setup.py passes -I/-isystem flags in extra_compile_args or relative include_dirs; torch's ninja build "
             "compiles in build_temp, where a relative one finds nothing, so the build helper makes each relative "
             "one absolute against setup.py's directory (absolute ones are kept)",
             src, kAbsIncludeRule);
  }
  if (scan.setup_calls >= 2) {
    // Each setup() runs a whole bdist_wheel into the same build/bdist directory, which the first
    // call's removes ("could not create 'build/bdist.linux-x86_64/wheel/...so'"); pip's metadata
    // step writes two .egg-info directories ("More than one .egg-info directory").
    const std::string src = "setup.py; " + std::string(kHelper) +
                            "; pypa/pip src/pip/_internal/operations/build/metadata_legacy.py ('More than one "
                            ".egg-info directory found')";
    use_helper(c, "it makes the package's setup() calls one");
    c.set_env("TORCHSMITH_ONE_SETUP", "1", "setup.py calls setup() " + std::to_string(scan.setup_calls) + " times", src,
              kOneSetupRule);
    c.decide("remedy", kOneSetupRule,
             "setup.py calls setup() " + std::to_string(scan.setup_calls) + " times at its top level (or in its __main__ block; a distribution "
             "per extension), which one wheel cannot hold: the build helper holds back all but the last call and "
             "makes them one setup() (the first call's name and version, every call's extensions, packages and "
             "commands)",
             src, kOneSetupRule);
  }
  if (!scan.generated_sources.empty()) choose_generate_sources(c, scan);
  choose_flag_removal(c, scan);
  choose_setup_flags(c, scan);
  {
    std::string names;
    for (const auto& n : scan.env_switches)  // the plan's own (TORCH_CUDA_ARCH_LIST, MAX_JOBS) are not its
      if (!c.p.env.count(n)) names += (names.empty() ? "" : " ") + n;
    if (!names.empty())
      c.decide("switches", names, "environment variables setup.py reads: its own build switches (pass one with "
               "--env KEY=VALUE)", "setup.py");
  }
  // torch-mesh-isect: include_dirs=[..., osp.expandvars('$CUDA_SAMPLES_INC')]. The build's environment is
  // the plan's exactly, so a directory the package expects from the environment is there only by --env.
  for (const auto& v : scan.include_env) {
    if (c.p.env.count(v)) continue;
    c.warn("extension", "include directory $" + v + " is not set",
           "setup.py takes an include directory from $" + v + ", which this build does not set (the build's "
           "environment is the plan's): expandvars leaves '$" + v + "' as it is, so the headers the package expects "
           "there are not found; give the folder with --env " + v + "=DIR (torch-mesh-isect's $CUDA_SAMPLES_INC is "
           "NVIDIA/cuda-samples' Common/ folder, which no CUDA toolkit installs since 11.6; torchsmith does not ship it)",
           "setup.py; https://docs.nvidia.com/cuda/archive/11.6.0/cuda-samples/index.html");
  }
  warn_parent_library(c, scan);
  // FRNN's frnn.py imports prefix_sum, which external/prefix_sum/setup.py builds: a second wheel.
  for (const auto& [module, setup] : scan.sibling_extensions) {
    std::string dir = setup.size() > 9 ? setup.substr(0, setup.size() - 9) : ".";
    c.warn("extension", "imports " + module + ", which this build does not make",
           "the package's Python imports " + module + ", an extension that " + setup + " of the same tree builds as "
           "a package of its own: build and install it first (torchsmith build SRC/" + dir + "), or the package "
           "fails at import with `No module named '" + module + "'`",
           setup);
  }
}

}  // namespace ts::plan::ext
