// Each Python vs torch releases (which can it build?) and, for a named target, its build packages.
#include "compat/assess.h"
#include "compat/facts_util.h"
#include "compat/python_rule.h"
#include "core/version_range.h"

namespace ts::compat {

namespace {

void for_target(const PythonFacts& py, const Version& pv, const kb::TorchRelease& rel,
                const std::string& asked, std::vector<Verdict>& out) {
  Verdict v{"python",
            "Python " + py.version + " (" + py.path + ") for torch " + asked,
            Level::ok,
            "",
            "",
            rel.source,
            where(rel.origin)};
  v.rule = kPythonRule;
  if (python_supported(rel, py.version)) {
    v.reason =
        "torch " + rel.version.original() + " supports Python " + rel.python.describe();
    if (std::string e = rel.experimental_python(py.version, py.abi_tag); !e.empty()) {
      v.level = Level::warn;
      v.rule = kPythonExperimentalRule;
      v.reason += ", but Python " + e + " only experimentally (the release's compatibility matrix says so): "
                  "the build may need fixes and its wheels are not the tested ones";
      v.fix = "for a tested build use a Python torch " + rel.version.original() + " supports fully (--python PATH)";
    }
  } else {
    v.level = Level::fail;
    v.reason = "torch " + rel.version.original() + " supports Python " +
               rel.python.describe() + ", not " + pv.major_minor();
    v.fix = "use a Python in that range (--python PATH), or a torch release that supports " +
            pv.major_minor();
  }
  out.push_back(v);

  Verdict n{"numpy",
            "NumPy in " + py.path + " for torch " + asked,
            Level::ok,
            "",
            "",
            rel.source,
            where(rel.origin)};
  n.rule = kNumpyRule;
  auto it = py.packages.find("numpy");
  NumpyFit fit = numpy_fit(rel, py);
  if (fit == NumpyFit::missing) {
    n.level = Level::warn;
    n.reason =
        "NumPy is not installed: torch builds without it and says 'PyTorch was compiled "
        "without NumPy support'";
    n.fix = "install NumPy (" + rel.numpy.describe() + ") before the build";
  } else if (fit == NumpyFit::outside) {
    n.level = Level::fail;
    n.reason = "NumPy " + it->second + " does not fit torch " + rel.version.original() + " (NumPy " +
               rel.numpy.describe() + ")";
    n.fix = "install NumPy " + rel.numpy.describe() +
            " in this Python, or pick a torch release for NumPy " + it->second;
  } else {
    n.reason = "NumPy " + it->second + " fits torch " + rel.version.original() +
               " (NumPy " + rel.numpy.describe() + ")";
  }
  out.push_back(n);

  std::string missing;
  for (const char* p : {"setuptools", "wheel", "pyyaml", "typing_extensions"})
    if (!py.packages.count(p)) missing += (missing.empty() ? "" : ", ") + std::string(p);
  if (!missing.empty())
    out.push_back({"python", "build packages in " + py.path, Level::warn,
                   "missing for a torch build: " + missing,
                   "install them in this Python (torchsmith build does not touch it unless asked)",
                   "", "", "python.build_packages"});
}

}  // namespace

void check_pythons(const HostFacts& f, const kb::Kb& kb, const Target& t,
                   std::vector<Verdict>& out) {
  const kb::TorchRelease* target = t.torch.empty() ? nullptr : kb.find_torch(t.torch);
  if (!t.torch.empty() && !target)
    out.push_back({"torch", "torch " + t.torch, Level::warn,
                   "torch " + t.torch + " is not in the knowledge base", "", "", "", "torch.known"});
  if (f.pythons.empty()) {
    out.push_back({"python", "Python", Level::fail, "no Python interpreter found",
                   "install python3 (or point --python at one)", "", "", "python.present"});
    return;
  }
  for (const auto& py : f.pythons) {
    if (!py.error.empty()) {
      out.push_back({"python", "Python " + py.path, Level::warn, "could not be probed: " + py.error,
                     "check that it starts: " + py.path + " -c 'import sys'", "", "", "python.probe"});
      continue;
    }
    auto pv = py.version.parsed();
    if (!pv) continue;
    if (target) {
      for_target(py, *pv, *target, t.torch, out);
      continue;
    }
    // No target: which release lines can this interpreter build?
    std::string lo, hi, experimental;
    for (const auto& rel : kb.torch) {
      if (!python_supported(rel, py.version)) continue;
      if (!rel.experimental_python(py.version, py.abi_tag).empty()) {
        experimental += (experimental.empty() ? "" : ", ") + rel.version.original();
        continue;
      }
      if (lo.empty()) lo = rel.version.original();
      hi = rel.version.original();
    }
    Verdict v{"python", "Python " + py.version + " (" + py.path + ")", Level::ok, "", "", "", "", "python.releases"};
    if (lo.empty()) {
      v.level = Level::warn;
      v.reason = "no torch release in the knowledge base supports Python " + pv->major_minor() +
                 (experimental.empty() ? "" : " fully (torch " + experimental + " only experimentally)");
    } else {
      v.reason =
          "torch " + lo + (hi != lo ? " to " + hi : "") + " support Python " + pv->major_minor();
      if (!experimental.empty()) v.reason += "; torch " + experimental + " only experimentally";
    }
    out.push_back(v);
  }
}

}  // namespace ts::compat
