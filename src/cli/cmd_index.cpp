// torchsmith index DIR: a local conda channel (DIR/<subdir>/repodata.json) and a pip simple index
// (DIR/simple/) over what DIR holds. Exit 0 ok, 2 a package is corrupt or misplaced (named; the
// others are indexed all the same) or DIR is unusable.
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "package/index.h"

namespace ts::cli {
namespace {

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
  if (r.conda_packages) std::printf("conda: conda install -c file://%s NAME\n", abs.c_str());
  if (r.wheels) std::printf("pip:   pip install --index-url file://%s/simple NAME\n", abs.c_str());
  return r.exit_code();
}

}  // namespace

void register_index(CLI::App& app, GlobalOptions&, int& exit_code) {
  auto [cmd, o] = add_command<IndexCliOptions>(
      app, exit_code, [](IndexCliOptions& x) { return run(x); },
      "index",
      "Index DIR as a local conda channel (repodata.json per subdir) and a pip simple index "
      "(DIR/simple).");
  cmd->add_option("dir", o->dir, "Channel directory")->required()->type_name("DIR");
  cmd->add_flag("--json", o->json, "Machine-readable output");
}

}  // namespace ts::cli
