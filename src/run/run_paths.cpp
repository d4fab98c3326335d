#include "run/run_paths.h"

#include <algorithm>
#include <filesystem>
#include <functional>

namespace ts::run {

namespace fs = std::filesystem;

RunPaths RunPaths::make(const std::string& out_dir, const std::string& src_dir, const std::string& run_id) {
  RunPaths p;
  p.out = out_dir;
  p.src = src_dir.empty() ? out_dir + "/src" : src_dir;
  p.dist = out_dir + "/dist";
  p.lock = out_dir + "/plan.lock.json";
  p.journal = out_dir + "/journal.json";
  p.run_dir = out_dir + "/runs/" + run_id;
  return p;
}

std::string newest_wheel(const std::string& dir) {
  std::error_code ec;
  std::string best;
  fs::file_time_type best_t{};
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (!e.is_regular_file(ec) || e.path().extension() != ".whl") continue;
    auto t = e.last_write_time(ec);
    if (best.empty() || t > best_t || (t == best_t && e.path().string() > best)) {
      best = e.path().string();
      best_t = t;
    }
  }
  return best;
}

std::string expand_placeholders(const std::string& arg, const RunPaths& p, std::string* missing,
                                const NewestWheel& newest) {
  std::string s = arg;
  auto rep = [&](const std::string& key, const std::function<std::string()>& value) {
    auto at = s.find(key);
    if (at == std::string::npos) return;
    std::string v = value();
    if (v.empty()) {
      if (missing && missing->empty()) *missing = key;
      return;
    }
    for (; at != std::string::npos; at = s.find(key, at + v.size())) s.replace(at, key.size(), v);
  };
  rep("{built_wheel}", [&] { return newest(p.src + "/dist"); });
  rep("{wheel}", [&] { return newest(p.dist); });
  rep("{src}", [&] { return p.src; });
  rep("{dist}", [&] { return p.dist; });
  rep("{lock}", [&] { return p.lock; });
  return s;
}

std::vector<std::string> expand_placeholders(const std::vector<std::string>& argv, const RunPaths& p,
                                             std::string* missing, const NewestWheel& newest) {
  std::vector<std::string> out;
  for (const auto& a : argv) out.push_back(expand_placeholders(a, p, missing, newest));
  return out;
}

std::string build_tree(const std::vector<plan::Step>& steps, const RunPaths& p) {
  for (const auto& s : steps) {
    if (s.argv.empty() || fs::path(s.argv[0]).filename() != "cmake") continue;
    if (std::find(s.argv.begin(), s.argv.end(), "--build") != s.argv.end()) continue;  // builds, configures nothing
    for (std::size_t i = 1; i < s.argv.size(); ++i) {
      std::string dir = s.argv[i] == "-B" && i + 1 < s.argv.size() ? s.argv[i + 1]
                        : s.argv[i].size() > 2 && s.argv[i].rfind("-B", 0) == 0 ? s.argv[i].substr(2)
                                                                                : "";
      if (dir.empty()) continue;
      dir = expand_placeholders(dir, p, nullptr);
      std::string cwd = expand_placeholders(s.cwd, p, nullptr);
      return dir.front() == '/' || cwd.empty() ? dir : cwd + "/" + dir;
    }
  }
  return p.src + "/build";
}

}  // namespace ts::run
