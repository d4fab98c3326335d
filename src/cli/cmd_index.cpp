// torchsmith index DIR: a local conda channel (DIR/<subdir>/repodata.json) and a pip simple index
// (DIR/simple/) over what DIR holds. Exit 0 ok, 2 a package is corrupt or misplaced (named; the
// others are indexed all the same) or DIR is unusable.
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <set>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "package/index.h"
#include "util/fs.h"

namespace ts::cli {
namespace {

// The package names the index now serves: conda's from each repodata.json written, pip's from DIR/simple/.
std::vector<std::string> conda_names(const package::IndexResult& r) {
  std::set<std::string> names;
  for (const auto& w : r.written) {
    if (std::filesystem::path(w).filename() != "repodata.json") continue;
    auto text = util::read_file(w);
    auto j = nlohmann::json::parse(text ? *text : "", nullptr, false);
    if (!j.is_object()) continue;
    for (const char* key : {"packages", "packages.conda"})
      if (j.contains(key) && j[key].is_object())
        for (const auto& [file, p] : j[key].items())
          if (p.is_object() && p.contains("name") && p["name"].is_string()) names.insert(p["name"].get<std::string>());
  }
  return {names.begin(), names.end()};
}

std::vector<std::string> pip_names(const std::string& dir) {
  std::set<std::string> names;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir + "/simple", ec), end; !ec && it != end; it.increment(ec))
    if (it->is_directory(ec)) names.insert(it->path().filename().string());
  return {names.begin(), names.end()};
}

// "conda install -c CHANNEL hello-ext", or NAME and the names when there are several.
std::string install_line(const std::string& command, const std::vector<std::string>& names) {
  if (names.size() == 1) return command + " " + names.front();
  std::string all;
  for (const auto& n : names) all += (all.empty() ? "" : ", ") + n;
  return command + " NAME" + (all.empty() ? "" : "  (NAME: " + all + ")");
}

struct IndexCliOptions {
  std::string dir;
  bool json = false;
};

int run(const IndexCliOptions& c) {
  auto r = package::build_index(c.dir);
  if (!r.fatal.empty()) {
    std::fprintf(stderr, "torchsmith index: %s\n", r.fatal.c_str());
    return r.exit_code();
  }
  if (c.json) {
    nlohmann::json problems = nlohmann::json::array();
    for (const auto& p : r.problems) problems.push_back({{"file", p.file}, {"error", p.error}});
    nlohmann::json j = {{"written", r.written},
                        {"conda_packages", r.conda_packages},
                        {"wheels", r.wheels},
                        {"problems", problems},
                        {"notes", r.notes}};
    std::cout << j.dump(2) << "\n";
    return r.exit_code();
  }
  std::printf("indexed %d conda package%s and %d wheel%s in %s\n", r.conda_packages,
              r.conda_packages == 1 ? "" : "s", r.wheels, r.wheels == 1 ? "" : "s", c.dir.c_str());
  for (const auto& w : r.written) std::printf("  wrote %s\n", w.c_str());
  for (const auto& n : r.notes) std::printf("  note: %s\n", n.c_str());
  for (const auto& p : r.problems)
    std::fprintf(stderr, "torchsmith index: %s: %s\n", p.file.c_str(), p.error.c_str());
  std::error_code ec;
  std::string abs = std::filesystem::absolute(c.dir, ec).lexically_normal().string();
  if (r.conda_packages)
    std::printf("conda: %s\n", install_line("conda install -c file://" + abs, conda_names(r)).c_str());
  if (r.wheels)
    std::printf("pip:   %s\n", install_line("pip install --index-url file://" + abs + "/simple", pip_names(abs)).c_str());
  return r.exit_code();
}

}  // namespace

void register_index(CLI::App& app, GlobalOptions&, int& exit_code) {
  auto [cmd, o] = add_command<IndexCliOptions>(
      app, exit_code, [](IndexCliOptions& x) { return run(x); },
      "index",
      "Index DIR as a local conda channel (repodata.json per subdir) and a pip simple index "
      "(DIR/simple).");
  exit_codes(cmd, "0 indexed, 2 a package is corrupt or misplaced (named; the others are indexed all the same) or "
                  "DIR is unusable");
  cmd->add_option("dir", o->dir, "Channel directory")->required()->type_name("DIR");
  cmd->add_flag("--json", o->json, "Machine-readable output");
}

}  // namespace ts::cli
