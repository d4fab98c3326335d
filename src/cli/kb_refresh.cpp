// torchsmith kb refresh: fetch (or read recorded) PyPI metadata, build the overlay, check it
// against the KB, and only then write it. Bad metadata writes nothing.
#include "cli/kb_refresh.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>

#include "cli/knowledge.h"
#include "plan/machine_toolkits.h"
#include "kb/check.h"
#include "kb/refresh.h"
#include "util/fs.h"
#include "util/process.h"
#include "util/utc_time.h"

namespace ts::cli {

namespace fs = std::filesystem;

namespace {

// The HTTP client: python3 reads the URL from its argv (never a shell string).
const char* kFetch =
    "import sys, urllib.request\n"
    "req = urllib.request.Request(sys.argv[1], headers={'Accept': 'application/json', 'User-Agent': 'torchsmith'})\n"
    "with urllib.request.urlopen(req, timeout=60) as r:\n"
    "    sys.stdout.buffer.write(r.read())\n";

std::string today() { return util::utc_time(util::kDate); }

bool fetch(const std::string& url, kb::pypi::Response& out, std::string& error) {
  std::string py = util::find_program("python3", util::split_path(std::getenv("PATH") ? std::getenv("PATH") : ""));
  if (py.empty()) {
    error = "python3 is not on PATH; kb refresh uses it to read " + url + " (or pass --offline FILE)";
    return false;
  }
  util::RunOptions o;
  o.timeout = std::chrono::seconds(90);
  o.max_output = 64u << 20;
  auto r = util::run({py, "-c", kFetch, url}, o);
  if (!r.ok()) {
    std::string why = util::trim(r.err);
    if (auto nl = why.rfind('\n'); nl != std::string::npos) why = why.substr(nl + 1);
    error = url + ": " + (why.empty() ? r.describe(o.timeout) : why);
    return false;
  }
  std::string rec = "# url: " + url + "\n# read: " + today() + "\n" + r.out + "\n";
  std::vector<kb::KbError> errors;
  auto rs = kb::pypi::parse_recording(rec, url, errors);
  if (!errors.empty() || rs.size() != 1) {
    error = errors.empty() ? url + ": no response" : errors.front().str();
    return false;
  }
  out = std::move(rs.front());
  return true;
}

bool is_toolkit(const std::string& url) { return url.find("nvidia-cuda-nvcc") != std::string::npos; }

}  // namespace

std::string default_refresh_dir() {
  std::string base;
  if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x) base = x;
  else if (const char* h = std::getenv("HOME"); h && *h) base = std::string(h) + "/.config";
  return base.empty() ? "" : base + "/torchsmith/kb/refreshed";
}

int run_refresh(const GlobalOptions& g, const RefreshOptions& o) {
  std::string out_dir = o.out.empty() ? default_refresh_dir() : o.out;
  if (out_dir.empty()) {
    std::fprintf(stderr, "torchsmith kb refresh: neither XDG_CONFIG_HOME nor HOME is set; pass -o DIR\n");
    return 2;
  }
  kb::RefreshInput in;
  std::vector<kb::pypi::Response> all;
  if (!o.offline.empty()) {
    std::vector<kb::KbError> errors;
    for (const auto& f : o.offline) {
      auto text = util::read_file(f);
      if (!text) {
        std::fprintf(stderr, "torchsmith kb refresh: cannot read %s\n", f.c_str());
        return 2;
      }
      for (auto& r : kb::pypi::parse_recording(*text, f, errors)) all.push_back(std::move(r));
    }
    if (!errors.empty()) {
      for (const auto& e : errors) std::printf("%s\n", e.str().c_str());
      std::fprintf(stderr, "torchsmith kb refresh: %zu error(s) in the metadata; nothing written\n", errors.size());
      return 2;
    }
  } else {
    for (const char* p : {"torch", "nvidia-cuda-nvcc", "nvidia-cuda-nvcc-cu12", "nvidia-cuda-nvcc-cu11"}) {
      kb::pypi::Response r;
      std::string err;
      std::string url = o.index + "/" + p + "/json";
      if (!fetch(url, r, err)) {
        std::fprintf(stderr, "torchsmith kb refresh: %s; nothing written\n", err.c_str());
        return 1;
      }
      std::printf("read %s (%s)\n", url.c_str(), r.read.c_str());
      all.push_back(std::move(r));
    }
    if (!o.save.empty()) {
      std::string rec;
      for (const auto& r : all) rec += kb::pypi::to_recording(r);
      if (auto e = util::write_file_atomic(o.save, rec); !e.empty()) {
        std::fprintf(stderr, "torchsmith kb refresh: --save %s: %s\n", o.save.c_str(), e.c_str());
        return 1;
      }
    }
  }
  for (auto& r : all) (is_toolkit(r.url) ? in.toolkits : in.torch).push_back(std::move(r));

  std::vector<kb::KbError> errors;
  kb::Kb base = kb::load(g.kb_dirs, errors);  // the built-in KB and the --kb overlays, not an older refresh
  if (!errors.empty()) {
    for (const auto& e : errors) std::printf("%s\n", e.str().c_str());
    std::fprintf(stderr, "torchsmith kb refresh: the knowledge base has errors; nothing written\n");
    return 2;
  }
  in.read = plan::machine_toolkits_read();
  kb::Overlay ov = kb::make_overlay(base, in, errors);
  if (!errors.empty()) {
    for (const auto& e : errors) std::printf("%s\n", e.str().c_str());
    std::fprintf(stderr, "torchsmith kb refresh: %zu error(s) in the metadata; nothing written\n", errors.size());
    return 2;
  }
  for (const auto& n : ov.notes) std::printf("note: %s\n", n.c_str());
  for (const auto& c : ov.conflicts) std::printf("conflict: %s; the refreshed value wins (newer source)\n", c.c_str());

  // Staged beside the target, checked as an overlay, then moved in: a bad overlay is never left behind.
  std::error_code ec;
  fs::create_directories(fs::path(out_dir).parent_path(), ec);
  std::string stage = out_dir + ".staging";
  fs::remove_all(stage, ec);
  fs::create_directories(stage, ec);
  std::vector<std::pair<std::string, std::string>> files;
  if (!ov.cuda_toml.empty()) files.push_back({"cuda.toml", ov.cuda_toml});
  if (!ov.torch_toml.empty()) files.push_back({"torch.toml", ov.torch_toml});
  for (const auto& [name, text] : files)
    if (auto e = util::write_file_atomic(stage + "/" + name, text); !e.empty()) {
      fs::remove_all(stage, ec);
      std::fprintf(stderr, "torchsmith kb refresh: %s: %s; nothing written\n", (stage + "/" + name).c_str(), e.c_str());
      return 1;
    }
  std::vector<std::string> dirs = g.kb_dirs;
  dirs.push_back(stage);
  auto bad = kb::check_kb(dirs, false, stage_tables());
  if (!bad.empty()) {
    for (const auto& e : bad) std::printf("%s\n", e.str().c_str());
    fs::remove_all(stage, ec);
    std::fprintf(stderr, "torchsmith kb refresh: the overlay it made does not pass kb check; nothing written\n");
    return 1;
  }
  fs::create_directories(out_dir, ec);
  for (const char* name : {"cuda.toml", "torch.toml"}) fs::remove(fs::path(out_dir) / name, ec);  // an older refresh
  for (const auto& [name, text] : files) {
    fs::rename(fs::path(stage) / name, fs::path(out_dir) / name, ec);
    if (ec) {
      std::fprintf(stderr, "torchsmith kb refresh: %s: %s\n", (out_dir + "/" + name).c_str(), ec.message().c_str());
      fs::remove_all(stage, ec);
      return 1;
    }
  }
  fs::remove_all(stage, ec);
  std::printf("wrote %d torch and %d cuda entr%s to %s%s\n", ov.torch_entries, ov.cuda_entries,
              ov.torch_entries + ov.cuda_entries == 1 ? "y" : "ies", out_dir.c_str(),
              files.empty() ? " (nothing new: the KB agrees with PyPI)" : "");
  if (files.empty()) return 0;
  // Where it wrote decides who reads it: say so, since an overlay in the config directory wins everywhere.
  std::string config = default_refresh_dir();
  config = config.empty() ? "" : fs::path(config).parent_path().string();
  std::string abs = fs::absolute(out_dir, ec).lexically_normal().string();
  if (!config.empty() && abs.rfind(config + "/", 0) == 0)
    std::printf("every command now reads this overlay (it is under %s) and its entries win over the built-in "
                "ones; `torchsmith kb` lists the overlays in use, and removing %s goes back to the built-in data\n",
                config.c_str(), out_dir.c_str());
  else
    std::printf("commands read it when given --kb %s; there its entries win over the built-in ones\n", out_dir.c_str());
  return 0;
}

}  // namespace ts::cli
