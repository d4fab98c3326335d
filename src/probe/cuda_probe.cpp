// CUDA toolkits: every place people install them. A symlink (/usr/local/cuda -> cuda-11.8) is
// the same toolkit reached two ways, so toolkits are keyed by their canonical path.
#include <algorithm>
#include <future>
#include <nlohmann/json.hpp>

#include "probe/parallel.h"
#include "probe/probe.h"
#include "probe/places.h"
#include "probe/sections.h"
#include "probe/text.h"
#include "util/fs.h"
#include "util/printable.h"

namespace ts::probe {
namespace {

struct Candidate {
  std::string path;  // as found
  std::string via;
};

bool looks_like_toolkit(const Host& h, const std::string& p) {
  return h.exists(p + "/bin/nvcc") || h.exists(p + "/version.json") || h.exists(p + "/version.txt") ||
         h.exists(p + "/include/cuda.h");
}

bool has_version_files(const Host& h, const std::string& p) {
  return h.exists(p + "/version.json") || h.exists(p + "/version.txt") || h.exists(p + "/include/cuda.h");
}

// The toolkit an nvcc on PATH belongs to: its bin/.. when that is a toolkit; for a small wrapper
// script (`exec /usr/local/cuda-13.0/bin/nvcc "$@"`), the toolkit it execs.
std::string toolkit_of_nvcc(const Host& h, const std::string& nvcc) {
  std::string root = normalize_path(nvcc + "/../..");
  if (has_version_files(h, root)) return root;
  auto text = h.read(nvcc, 4096).value_or("");
  if (text.starts_with("#!")) {
    auto end = text.find("/bin/nvcc");
    if (end != std::string::npos) {
      auto begin = text.find_last_of(" \t\n\"'=", end);
      std::string target = text.substr(begin == std::string::npos ? 0 : begin + 1, end - (begin + 1));
      if (!target.empty() && target[0] == '/' && h.exists(target + "/bin/nvcc")) return normalize_path(target);
    }
  }
  return root;
}

std::string version_from_files(const Host& h, const std::string& p, std::string& source) {
  if (auto j = h.read(p + "/version.json")) {
    auto doc = nlohmann::json::parse(*j, nullptr, false);
    if (doc.is_object() && doc.contains("cuda") && doc["cuda"].is_object() &&
        doc["cuda"].value("version", "") != "") {
      source = "version.json";
      return util::printable(doc["cuda"].value("version", ""));  // shown by doctor: no control characters
    }
  }
  if (auto t = h.read(p + "/version.txt")) {  // "CUDA Version 11.0.221"
    auto v = find_version(*t, "CUDA Version");
    if (!v.empty()) {
      source = "version.txt";
      return v;
    }
  }
  std::vector<std::string> headers = {p + "/include/cuda.h"};
  for (auto& t : h.list(p + "/targets")) headers.push_back(p + "/targets/" + t + "/include/cuda.h");
  for (auto& hd : headers) {
    auto v = define_value(h.read(hd, 1 << 20).value_or(""), "CUDA_VERSION");  // 12080 -> 12.8
    if (all_digits(v)) {
      int n = std::stoi(v);
      source = "cuda.h";
      return std::to_string(n / 1000) + "." + std::to_string(n % 1000 / 10);
    }
  }
  return "";
}

CudaToolkitFacts inspect(const Host& h, const std::string& path, const ProbeOptions& o, Notes& notes) {
  CudaToolkitFacts t;
  t.path = path;
  if (h.exists(path + "/bin/nvcc")) t.nvcc = path + "/bin/nvcc";
  t.version = FactVersion(version_from_files(h, path, t.version_source));
  std::future<util::RunResult> codes, help;
  if (!t.nvcc.empty() && o.list_gpu_code) {
    codes = std::async(std::launch::async, [&] { return h.run({t.nvcc, "--list-gpu-code"}, o.command_timeout); });
    // Options are read from nvcc itself, not guessed from its version: a wrapper may differ.
    help = std::async(std::launch::async, [&] { return h.run({t.nvcc, "--help"}, o.command_timeout); });
  }
  if (t.version.empty() && !t.nvcc.empty()) {
    auto r = h.run({t.nvcc, "--version"}, o.command_timeout);  // "release 12.8, V12.8.93"
    auto v = find_version(r.out, ", V");
    if (v.empty()) v = find_version(r.out, "release ");
    if (!v.empty()) {
      t.version = FactVersion(v);
      t.version_source = "nvcc";
    } else {
      notes.push_back(t.nvcc + " --version: " + (r.ok() ? "no version in its output" : r.describe(o.command_timeout)));
    }
  }
  if (codes.valid()) {
    auto r = codes.get();
    if (r.ok()) {
      std::vector<std::string> names;
      for (auto& l : lines(r.out)) {
        auto s = util::trim(l);
        if (s.starts_with("sm_") || s.starts_with("compute_")) names.emplace_back(s);
      }
      t.arches = GpuCodeList::read(names);  // the one parse of nvcc's list
    } else if (r.timed_out)
      notes.push_back(t.nvcc + " --list-gpu-code " + r.describe(o.command_timeout));
    // Older nvcc has no --list-gpu-code: then the KB's table for the version is used.
  }
  if (help.valid()) {
    auto r = help.get();
    t.split_compile = r.ok() && r.out.find("--split-compile ") != std::string::npos;
  }
  if (t.version.empty()) notes.push_back("CUDA toolkit at " + path + ": version unknown");
  return t;
}

}  // namespace

std::vector<CudaToolkitFacts> probe_cuda(const Host& h, const ProbeOptions& o, Notes& notes) {
  std::vector<Candidate> cands;
  if (h.is_dir("/usr/local/cuda")) cands.push_back({"/usr/local/cuda", "/usr/local/cuda"});
  for (auto& n : h.list("/usr/local"))
    if (n.starts_with("cuda-")) cands.push_back({"/usr/local/" + n, "/usr/local/cuda*"});
  for (auto var : {"CUDA_HOME", "CUDA_PATH"})
    if (auto v = h.getenv(var); !v.empty()) cands.push_back({normalize_path(v), var});
  for (auto& d : util::split_path(h.getenv("PATH"))) {
    if (d.empty() || d[0] != '/') continue;
    auto nvcc = h.canonical(normalize_path(d) + "/nvcc");
    if (!nvcc.empty()) cands.push_back({toolkit_of_nvcc(h, nvcc), "PATH"});
  }
  for (auto& p : conda_prefixes(h))
    if (h.exists(p + "/bin/nvcc") || h.is_dir(p + "/targets")) cands.push_back({p, "conda"});

  // Group by canonical path, keeping discovery order.
  std::vector<std::string> keys;
  std::map<std::string, std::vector<std::string>> via;
  for (auto& c : cands) {
    auto canon = h.canonical(c.path);
    if (canon.empty()) {
      notes.push_back(c.via + " points to " + c.path + ", which does not exist");
      continue;
    }
    if (!looks_like_toolkit(h, canon)) {
      if (c.via == "CUDA_HOME" || c.via == "CUDA_PATH")
        notes.push_back(c.via + "=" + c.path + " is not a CUDA toolkit (no bin/nvcc, version.json or include/cuda.h)");
      continue;
    }
    if (!via.count(canon)) keys.push_back(canon);
    auto& v = via[canon];
    if (std::find(v.begin(), v.end(), c.via) == v.end()) v.push_back(c.via);
  }
  auto out = inspect_each(keys, [&](const std::string& k, Notes& n) { return inspect(h, k, o, n); }, notes);
  for (std::size_t i = 0; i < keys.size(); ++i) out[i].found_via = via[keys[i]];
  return out;
}

std::optional<CudaToolkitFacts> probe_toolkit(const Host& h, const std::string& dir, const ProbeOptions& o) {
  std::string canon = h.canonical(dir);
  if (canon.empty() || !looks_like_toolkit(h, canon)) return std::nullopt;
  Notes notes;
  CudaToolkitFacts t = inspect(h, canon, o, notes);
  t.path = dir;  // as asked: the plan names the directory the user gave
  return t;
}

}  // namespace ts::probe
