// The Python that builds torch, and the packages its build needs before it starts.
#include <algorithm>

#include "compat/python_rule.h"
#include "core/version_range.h"
#include "plan/resolve_ctx.h"

namespace ts::plan::detail {

namespace {

bool fits(const kb::TorchRelease& rel, const PythonFacts& py) { return compat::python_supported(rel, py.version); }

// The newest release line that still supports this Python: the way out of a Python conflict.
const kb::TorchRelease* newest_for(const kb::Kb& kb, const PythonFacts& py) {
  const kb::TorchRelease* best = nullptr;
  for (const auto& r : kb.torch)
    if (fits(r, py)) best = &r;
  return best;
}

// The build's packages p lacks (NumPy when the build uses it, then what torch's setup.py imports):
// a Python that has them builds without a pip install first.
std::vector<std::string> lacking(Ctx& c, const PythonFacts& p) {
  std::vector<std::string> out;
  if (c.p.features.count("numpy") && c.p.features["numpy"] && !p.packages.count("numpy")) out.push_back("numpy");
  for (const char* n : {"pyyaml", "setuptools", "typing_extensions"})
    if (!p.packages.count(n)) out.push_back(n);
  return out;
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

const PythonFacts* pick(Ctx& c, std::string& why) {
  const auto& pys = c.facts().pythons;
  const spec::PythonAsk& asked = c.spec().python;  // a path or a version, told apart with the request
  std::vector<const PythonFacts*> ok;
  for (const auto& p : pys)
    if (p.error.empty() && p.version.parsed()) ok.push_back(&p);
  if (!asked.path.empty()) {
    for (auto* p : ok)
      if (p->path == asked.path) {
        why = "asked for by path (" + c.spec().origin_of("python") + ")";
        return p;
      }
    return nullptr;
  }
  if (asked.version) {
    std::vector<const PythonFacts*> same;
    for (auto* p : ok)
      if (p->version.major_minor() == asked.version->major_minor()) same.push_back(p);
    ok = same;
    why = "Python " + asked.text() + " asked for (" + c.spec().origin_of("python") + ")";
  }
  // An activated environment (conda, venv) is where the user keeps the build's packages.
  auto rank = [&](const PythonFacts* p) {
    return (fits(*c.release, *p) ? 2 : 0) + (p->env_kind == "conda" || p->env_kind == "venv" ? 1 : 0);
  };
  std::stable_sort(ok.begin(), ok.end(), [&](auto* a, auto* b) { return rank(a) > rank(b); });
  if (ok.empty()) return nullptr;
  // Among those that fit, one that already has the build's packages comes first (fewest missing):
  // a pyenv shim first on PATH without NumPy loses to /usr/bin/python3 with it, and the reason says so.
  const PythonFacts* first = ok.front();
  auto key = [&](const PythonFacts* p) {
    bool f = fits(*c.release, *p);
    return std::pair<int, std::size_t>(f ? 0 : 1, f ? lacking(c, *p).size() : 0);
  };
  std::stable_sort(ok.begin(), ok.end(), [&](auto* a, auto* b) { return key(a) < key(b); });
  if (ok.front() != first && fits(*c.release, *ok.front())) {
    auto miss = lacking(c, *ok.front());
    why = "it has the build's packages" + (miss.empty() ? std::string() : " but " + joined(miss)) + "; " + first->path +
          (first->env_kind == "system" ? "" : " (" + first->env_kind + ")") + " lacks " + joined(lacking(c, *first)) +
          " (install them there and give --python " + first->path + " to build with it)";
  }
  // An activated environment passed over is said, with why: the user expects it to build.
  if (fits(*c.release, *ok.front()))
    for (auto* p : ok) {
      if (p == ok.front() || fits(*c.release, *p) || (p->env_kind != "conda" && p->env_kind != "venv")) continue;
      c.warn("python", "skipped " + p->path + " (" + p->env_kind + ", Python " + p->version + ")",
             "torch " + c.release->version.original() + " supports Python " + c.release->python.describe() +
                 ", not " + p->version.major_minor() + ": this " + p->env_kind +
                 " cannot build it, so the plan uses another interpreter; to build in a " + p->env_kind +
                 ", make one with a Python in that range and name it: --python PATH",
             cite(c.release->source, c.release->origin));
    }
  for (const auto& p : pys)
    if (!p.error.empty())
      c.warn("python", "skipped " + p.path, "it could not be probed (" + p.error + ")", "facts");
  if (why.empty())
    why = ok.front()->env_kind == "system" ? "the first interpreter that fits torch " + c.release->version.original()
                                           : "the " + ok.front()->env_kind + " environment's interpreter (its packages build torch)";
  return ok.front();
}

void check_numpy(Ctx& c, const PythonFacts& py) {
  if (!c.p.features.count("numpy") || !c.p.features["numpy"]) return;
  const auto& rel = *c.release;
  std::string src = cite(rel.source, rel.origin);
  std::string want = rel.numpy.describe();
  auto it = py.packages.find("numpy");
  compat::NumpyFit fit = compat::numpy_fit(rel, py);
  if (fit == compat::NumpyFit::missing) {
    c.conflict("NumPy in " + py.path, "NumPy is not installed: torch would build without it and fail at run time with "
               "'PyTorch was compiled without NumPy support'",
               {"install it first: " + pip_install(&py, "'numpy" + rel.numpy.str() + "'"),
                "or build without NumPy on purpose: --without numpy"},
               src, compat::kNumpyRule);
    return;
  }
  if (fit == compat::NumpyFit::outside) {
    c.conflict("NumPy " + it->second + " in " + py.path,
               "torch " + rel.version.original() + " builds against NumPy " + want + ", not " + it->second,
               {"install NumPy " + want + " in this Python", "or choose a Python whose NumPy fits (--python)"}, src,
               compat::kNumpyRule);
    return;
  }
  c.p.numpy_version = it->second;
  c.decide("numpy", it->second + " (kept)",
           "installed in the build Python and fits torch " + rel.version.original() + " (NumPy " + want +
               "): the build compiles against it and does not change it, so a pinned version (Isaac Gym's 1.23.5) stays",
           src, compat::kNumpyRule);
}

void check_build_packages(Ctx& c, const PythonFacts& py) {
  if (py.packages.empty()) {
    c.warn("python", "build packages unknown", "the facts list no packages for " + py.path +
           ": setuptools, pyyaml and typing_extensions are needed before the build", "facts");
    return;
  }
  if (!py.packages.count("pyyaml"))
    c.conflict("pyyaml in " + py.path, "setup.py stops at once without it (build_deps checks that yaml imports)",
               {"install it first: " + pip_install(&py, "pyyaml")},
               "pytorch/pytorch@v2.6.0:setup.py (build_deps checks that yaml imports)");
  std::string missing;
  for (const char* p : {"setuptools", "typing_extensions"})
    if (!py.packages.count(p)) missing += (missing.empty() ? "" : ", ") + std::string(p);
  if (!missing.empty())
    c.warn("python", "missing: " + missing,
           "torch's build imports them; install with " + pip_install(&py, missing),
           "pytorch/pytorch@v2.6.0:setup.py");
}

}  // namespace

// PEP 668 (Debian 12+, Ubuntu 23.04+) makes pip refuse an externally managed interpreter: the way
// out is a venv, never --break-system-packages.
std::string pip_install(const PythonFacts* py, const std::string& what) {
  std::string path = py ? py->path : "python3";
  if (!py || !py->externally_managed) return path + " -m pip install " + what;
  return path + " -m venv ~/torch-build && ~/torch-build/bin/python -m pip install " + what +
         ", then plan with --python ~/torch-build/bin/python (" + path +
         " is externally managed, PEP 668: pip refuses to install into it)";
}

void choose_python(Ctx& c) {
  std::string why;
  const PythonFacts* py = pick(c, why);
  const auto& rel = *c.release;
  if (!py) {
    std::string asked = c.spec().python.empty() ? "a Python" : "Python " + c.spec().python.text();
    c.conflict(asked + " for torch " + c.version(),
               c.facts().pythons.empty() ? "no Python interpreter was found on this machine"
                                          : asked + " is not among the interpreters found",
               {"install one (torch " + rel.version.original() + " supports Python " + rel.python.str() + ") and name it: --python PATH"},
               "facts");
    return;
  }
  c.python = py;
  c.p.python = py->path;
  c.p.python_version = py->version;
  std::string supports = rel.python.describe();
  if (!fits(rel, *py)) {
    std::vector<std::string> fixes;
    auto lo = rel.python.min_inclusive();
    fixes.push_back("use a Python torch " + rel.version.original() + " supports (" + supports + ")" +
                    (lo ? ": conda create -n torch-build python=" + lo->major_minor() + ", then --python 3.x" : ""));
    if (const auto* alt = newest_for(c.in->kb, *py))
      fixes.push_back("or build a release that supports Python " + py->version.major_minor() + ": torch " + alt->version.original());
    c.conflict("Python " + py->version + " (" + py->path + ") for torch " + c.version(),
               "torch " + rel.version.original() + " needs Python " + supports + "; " + py->version.major_minor() +
                   (lo && *py->version.parsed() < *lo ? " is too old" : " is too new"),
               fixes, cite(rel.source, rel.origin), compat::kPythonRule);
    return;
  }
  if (std::string e = rel.experimental_python(py->version, py->abi_tag); !e.empty())
    c.warn("python", py->version + " (" + py->path + ")",
           why + "; torch " + rel.version.original() + " supports Python " + e +
               " only experimentally (its compatibility matrix): the build may need fixes; for a tested build "
               "use another Python in " + supports + " (--python PATH)",
           cite(rel.source, rel.origin), compat::kPythonExperimentalRule);
  else
    c.decide("python", py->version + " (" + py->path + ")", why + "; torch " + rel.version.original() + " supports " + supports,
             cite(rel.source, rel.origin), compat::kPythonRule);
  // Kept though it lacks packages another interpreter here has (it was asked for): name that one.
  if (auto miss = lacking(c, *py); !miss.empty() && !py->packages.empty())
    for (const auto& alt : c.facts().pythons)
      if (&alt != py && alt.error.empty() && alt.version.parsed() && fits(rel, alt) && !alt.packages.empty() &&
          lacking(c, alt).empty()) {
        c.warn("python", alt.path + " has the build's packages",
               py->path + " lacks " + joined(miss) + "; " + alt.path + " (Python " + alt.version +
                   ") has them all: --python " + alt.path + " builds without installing anything",
               "facts");
        break;
      }
  check_numpy(c, *py);
  check_build_packages(c, *py);
}

}  // namespace ts::plan::detail
