// Pythons: every interpreter a build might use, each run once with the probe script, all in
// parallel. A Python that hangs, crashes or prints garbage gets an error, never a hang.
#include <algorithm>
#include <future>
#include <nlohmann/json.hpp>

#include "core/version.h"
#include "probe/places.h"
#include "probe/sections.h"
#include "probe/text.h"
#include "probe/torch_files.h"
#include "util/fs.h"

namespace ts::probe {
namespace {

// cuDNN as torch reports it: 8905 -> "8.9.5", 91900 -> "9.19.0".
std::string cudnn_dotted(const std::string& raw) {
  if (!all_digits(raw)) return raw;
  long n = std::stol(raw);
  if (n >= 90000) return std::to_string(n / 10000) + "." + std::to_string(n / 100 % 100) + "." + std::to_string(n % 100);
  return std::to_string(n / 1000) + "." + std::to_string(n / 100 % 10) + "." + std::to_string(n % 100);
}

bool is_python3_name(const std::string& n) {
  if (n == "python3") return true;
  if (!n.starts_with("python3.")) return false;
  auto rest = std::string_view(n).substr(8);
  if (!rest.empty() && rest.back() == 't') rest.remove_suffix(1);  // free-threaded python3.13t
  return all_digits(rest);
}

// One interpreter's facts and the notes they raised (each job keeps its own, merged in order).
struct Inspected {
  PythonFacts facts;
  Notes notes;
};

PythonFacts run_script(const Host& h, const std::string& path, const ProbeOptions& o) {
  PythonFacts f;
  f.path = path;
  std::map<std::string, std::string> env = {{"PYTHONNOUSERSITE", "1"}};
  if (!o.import_torch) env["TORCHSMITH_NO_TORCH_IMPORT"] = "1";
  auto r = h.run({path, "-I", "-c", python_probe_script()}, o.python_timeout, env);
  std::string why;
  if (r.timed_out) {
    f.error = r.describe(o.python_timeout);
    return f;
  }
  if (parse_python_json(r.out, f, &why)) {
    if (!r.ok() && f.error.empty()) f.error = r.describe(o.python_timeout);
    return f;
  }
  if (r.not_found) {
    f.error = "cannot run: " + r.error;
  } else if (r.signal || r.exit_code != 0) {
    auto last = last_line(r.err);
    f.error = r.describe(o.python_timeout) + (last.empty() ? "" : ": " + last);
  } else {
    f.error = "printed no JSON";
  }
  return f;
}

// Without the import, torch's facts come from its files; with it, the script gave them all.
Inspected inspect(const Host& h, const std::string& path, const ProbeOptions& o) {
  Inspected r{run_script(h, path, o), {}};
  auto& f = r.facts;
  // PEP 668's marker sits in the stdlib dir; a venv ignores it. Older probes' JSON has no stdlib:
  // the default layout (PREFIX/lib/pythonX.Y) stands in.
  if (f.error.empty() && f.env_kind != "venv") {
    const auto& v = f.version.parsed();
    std::string dir = !f.stdlib.empty() ? f.stdlib : v ? f.prefix + "/lib/python" + v->major_minor() : "";
    f.externally_managed = !dir.empty() && h.exists(dir + "/EXTERNALLY-MANAGED");
  }
  auto& t = r.facts.torch;
  if (!o.import_torch && t.present && !t.path.empty())
    read_torch_files(h, r.facts.prefix, t, r.notes);
  return r;
}

}  // namespace

bool parse_python_json(const std::string& out, PythonFacts& f, std::string* error) {
  auto ls = lines(out);
  for (auto it = ls.rbegin(); it != ls.rend(); ++it) {
    auto line = util::trim(*it);
    if (!line.starts_with("{")) continue;
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_object()) continue;
    auto str = [&](const nlohmann::json& o, const char* k) {
      return o.contains(k) && o[k].is_string() ? o[k].get<std::string>() : std::string();
    };
    f.version = FactVersion(str(j, "version"));
    f.abi_tag = str(j, "abi_tag");
    f.platform_tag = str(j, "platform_tag");
    f.site_packages = str(j, "site_packages");
    f.prefix = str(j, "prefix");
    f.env_kind = str(j, "env_kind");
    f.stdlib = str(j, "stdlib");
    if (!str(j, "error").empty()) f.error = str(j, "error");
    if (j.contains("packages") && j["packages"].is_object())
      for (auto& [k, v] : j["packages"].items())
        if (v.is_string()) f.packages[k] = FactVersion(v.get<std::string>());
    if (j.contains("torch") && j["torch"].is_object()) {
      auto& t = j["torch"];
      f.torch.present = t.value("present", false);
      f.torch.version = FactVersion(str(t, "version"));
      f.torch.cuda = FactVersion(str(t, "cuda"));
      f.torch.cudnn = cudnn_dotted(str(t, "cudnn"));
      f.torch.cxx11_abi = t.contains("cxx11_abi") && t["cxx11_abi"].is_boolean() && t["cxx11_abi"].get<bool>();
      f.torch.debug = t.contains("debug") && t["debug"].is_boolean() && t["debug"].get<bool>();
      f.torch.git_version = str(t, "git_version");
      f.torch.path = str(t, "path");
      f.torch.cmake_prefix_path = str(t, "cmake_prefix_path");
      f.torch.error = str(t, "error");
      if (t.contains("arch_list") && t["arch_list"].is_array()) {
        std::vector<std::string> names;
        for (auto& a : t["arch_list"])
          if (a.is_string()) names.push_back(a.get<std::string>());
        f.torch.arch_list = GpuCodeList::read(names);  // the one parse of torch's names
      }
      f.torch.arch_list_known = t.contains("arch_list_known") ? t.value("arch_list_known", false)
                                                              : !f.torch.arch_list.empty() || f.torch.cuda.empty();
    }
    if (f.version.empty()) {
      if (error) *error = "JSON without a version";
      return false;
    }
    return true;
  }
  if (error) *error = "printed no JSON";
  return false;
}

std::vector<std::string> find_pythons(const Host& h, const ProbeOptions& o) {
  std::vector<std::string> cands;
  if (auto p = h.find_command("python3"); !p.empty()) cands.push_back(p);
  for (auto& dir : h.bin_dirs()) {
    // pyenv/asdf shims exist for every version ever installed and fail for inactive ones; the
    // versions themselves are listed below.
    if (dir.ends_with("/shims")) continue;
    for (auto& n : h.list(dir))
      if (is_python3_name(n)) cands.push_back(dir + "/" + n);
  }
  std::string pyenv = h.getenv("PYENV_ROOT").empty() ? h.home() + "/.pyenv" : h.getenv("PYENV_ROOT");
  for (auto& v : h.list(pyenv + "/versions"))
    if (h.exists(pyenv + "/versions/" + v + "/bin/python3")) cands.push_back(pyenv + "/versions/" + v + "/bin/python3");
  std::vector<std::string> prefixes;
  if (auto v = h.getenv("VIRTUAL_ENV"); !v.empty()) prefixes.push_back(normalize_path(v));
  for (auto& p : conda_prefixes(h)) prefixes.push_back(p);
  for (auto& p : prefixes)
    for (auto n : {"python3", "python"})
      if (h.exists(p + "/bin/" + n)) {
        cands.push_back(p + "/bin/" + n);
        break;
      }
  for (auto& p : o.pythons) cands.push_back(p);

  // One per interpreter: symlinks to the same binary collapse, except a venv's link, which is a
  // different environment (its own site-packages) even though the binary is the system one.
  std::vector<std::string> out, keys;
  for (auto& c : cands) {
    auto canon = h.canonical(c);
    std::string bin = c.substr(0, c.rfind('/'));
    bool venv = h.exists(bin.substr(0, bin.rfind('/')) + "/pyvenv.cfg");
    std::string key = canon.empty() || venv ? c : canon;
    if (std::find(keys.begin(), keys.end(), key) != keys.end()) continue;
    keys.push_back(key);
    out.push_back(c);
  }
  return out;
}

std::vector<PythonFacts> probe_pythons(const Host& h, const ProbeOptions& o, Notes& notes) {
  auto paths = find_pythons(h, o);
  std::vector<std::future<Inspected>> jobs;
  for (auto& p : paths) {
    if (!h.exists(p)) {
      notes.push_back("--python " + p + ": no such file");
      continue;
    }
    jobs.push_back(std::async(std::launch::async, [&h, p, &o] { return inspect(h, p, o); }));
  }
  std::vector<PythonFacts> out;
  for (auto& j : jobs) {
    auto r = j.get();
    auto& f = r.facts;
    // Two ways to one environment (a shim and its target): keep the first, the one on PATH.
    bool dup = f.error.empty() && std::any_of(out.begin(), out.end(), [&](const PythonFacts& o) {
      return o.error.empty() && o.prefix == f.prefix && o.version == f.version && o.site_packages == f.site_packages;
    });
    if (dup) continue;
    out.push_back(f);
    notes.insert(notes.end(), r.notes.begin(), r.notes.end());
  }
  return out;
}

}  // namespace ts::probe
