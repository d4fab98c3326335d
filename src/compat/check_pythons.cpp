// Each Python vs torch releases (which can it build?) and, for a named target, its build packages.
#include "compat/assess.h"
#include "compat/facts_util.h"
#include "core/version_range.h"

namespace ts::compat {

namespace {

bool python_fits(const kb::TorchRelease& rel, const Version& py) {
  auto r = VersionRange::parse(rel.python);
  auto mm = Version::parse(py.major_minor());
  return r && mm && r->contains(*mm);
}

void for_target(const PythonFacts& py, const Version& pv, const kb::TorchRelease& rel,
                const std::string& asked, std::vector<Verdict>& out) {
  Verdict v{"python",
            "Python " + py.version + " (" + py.path + ") for torch " + asked,
            Level::ok,
            "",
            "",
            rel.source,
            where(rel.origin)};
  auto range = VersionRange::parse(rel.python);
  v.rule = "python.target";
  if (python_fits(rel, pv)) {
    v.reason =
        "torch " + rel.version + " supports Python " + (range ? range->describe() : rel.python);
    if (std::string e = rel.experimental_python(py.version, py.abi_tag); !e.empty()) {
      v.level = Level::warn;
      v.rule = "python.experimental";
      v.reason += ", but Python " + e + " only experimentally (the release's compatibility matrix says so): "
                  "the build may need fixes and its wheels are not the tested ones";
      v.fix = "for a tested build use a Python torch " + rel.version + " supports fully (--python PATH)";
    }
  } else {
    v.level = Level::fail;
    v.reason = "torch " + rel.version + " supports Python " +
               (range ? range->describe() : rel.python) + ", not " + pv.major_minor();
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
  auto it = py.packages.find("numpy");
  auto nr = VersionRange::parse(rel.numpy);
  if (it == py.packages.end()) {
    n.level = Level::warn;
    n.reason =
        "NumPy is not installed: torch builds without it and says 'PyTorch was compiled "
        "without NumPy support'";
    n.fix = "install NumPy (" + (nr ? nr->describe() : rel.numpy) + ") before the build";
  } else if (auto nv = ver(it->second); nv && nr && !nr->contains(*nv)) {
    n.level = Level::fail;
    n.reason = "NumPy " + it->second + " does not fit torch " + rel.version + " (NumPy " +
               nr->describe() + ")";
    n.fix = "install NumPy " + nr->describe() +
            " in this Python, or pick a torch release for NumPy " + it->second;
  } else {
    n.reason = "NumPy " + it->second + " fits torch " + rel.version +
               (nr ? " (NumPy " + nr->describe() + ")" : std::string());
  }
  out.push_back(n);

  std::string missing;
  for (const char* p : {"setuptools", "wheel", "pyyaml", "typing_extensions"})
    if (!py.packages.count(p)) missing += (missing.empty() ? "" : ", ") + std::string(p);
  if (!missing.empty())
    out.push_back({"python", "build packages in " + py.path, Level::warn,
                   "missing for a torch build: " + missing,
                   "install them in this Python (torchsmith build does not touch it unless asked)",
                   ""});
}

}  // namespace

void check_pythons(const HostFacts& f, const kb::Kb& kb, const Target& t,
                   std::vector<Verdict>& out) {
  const kb::TorchRelease* target = t.torch.empty() ? nullptr : kb.find_torch(t.torch);
  if (!t.torch.empty() && !target)
    out.push_back({"torch", "torch " + t.torch, Level::warn,
                   "torch " + t.torch + " is not in the knowledge base", "", ""});
  if (f.pythons.empty()) {
    out.push_back({"python", "Python", Level::fail, "no Python interpreter found",
                   "install python3 (or point --python at one)", ""});
    return;
  }
  for (const auto& py : f.pythons) {
    if (!py.error.empty()) {
      out.push_back({"python", "Python " + py.path, Level::warn, "could not be probed: " + py.error,
                     "check that it starts: " + py.path + " -c 'import sys'", ""});
      continue;
    }
    auto pv = ver(py.version);
    if (!pv) continue;
    if (target) {
      for_target(py, *pv, *target, t.torch, out);
      continue;
    }
    // No target: which release lines can this interpreter build?
    std::string lo, hi, experimental;
    for (const auto& rel : kb.torch) {
      if (!python_fits(rel, *pv)) continue;
      if (!rel.experimental_python(py.version, py.abi_tag).empty()) {
        experimental += (experimental.empty() ? "" : ", ") + rel.version;
        continue;
      }
      if (lo.empty()) lo = rel.version;
      hi = rel.version;
    }
    Verdict v{"python", "Python " + py.version + " (" + py.path + ")", Level::ok, "", "", ""};
    v.rule = "python.releases";
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
