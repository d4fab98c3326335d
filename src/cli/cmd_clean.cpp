// torchsmith clean: remove a build directory on purpose, keeping its logs; with --if-stale only
// when it was configured for another toolchain than the plan's (the usual rm -rf build, decided).
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "plan/lock.h"
#include "run/clean_guard.h"
#include "run/stale.h"
#include "util/fs.h"
#include "util/utc_time.h"

namespace ts::cli {

namespace {

struct CleanOptions {
  std::string dir, lock, keep_logs;
  bool if_stale = false, dry_run = false;
};

int run_clean(CleanOptions& o) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(o.dir, ec)) {
    std::printf("%s: not there; nothing to clean\n", o.dir.c_str());
    return 0;
  }
  if (!fs::is_directory(o.dir, ec)) {
    std::fprintf(stderr, "torchsmith clean: %s is not a directory\n", o.dir.c_str());
    return 2;
  }
  std::string dir = fs::absolute(o.dir, ec).lexically_normal().string();
  if (dir.size() > 1 && dir.back() == '/') dir.pop_back();  // "/" stays "/" (it became "", "removed ")
  std::string src = fs::path(dir).parent_path().string();
  run::TreeExpectation want;
  want.home_directory = src;
  std::string source;
  if (!o.lock.empty()) {
    std::string err;
    auto p = plan::read_lock(o.lock, &err);
    if (!p) {
      std::fprintf(stderr, "torchsmith clean: --plan %s\n", err.c_str());
      return 2;
    }
    want = run::expectation_from_plan(*p, src);
    source = p->source_dir;
  }
  // Refused before anything else (--dry-run included): only a build is cleaned. --if-stale keeps a
  // directory with no CMakeCache.txt (below), so it needs no build in it to go on.
  if (std::string no = run::why_not_removable(dir, source, !o.if_stale); !no.empty()) {
    std::fprintf(stderr, "torchsmith clean: %s\n", no.c_str());
    return 2;
  }
  std::string why;
  if (o.if_stale) {
    run::StaleCheck c = run::check_stale(dir, want);
    if (!c.exists) {
      std::printf("%s: no CMakeCache.txt; nothing configured, kept\n", dir.c_str());
      return 0;
    }
    if (!c.stale) {
      std::printf("%s: configured like the plan; kept (the build continues in it)\n", dir.c_str());
      return 0;
    }
    for (const auto& r : c.reasons) std::printf("stale: %s\n", r.c_str());
  }
  if (o.keep_logs.empty()) {
    o.keep_logs = dir + ".logs-" + util::utc_time(util::kCompact);
  }
  if (std::string no = run::why_not_removable(dir, source); !no.empty()) {
    std::fprintf(stderr, "torchsmith clean: %s\n", no.c_str());
    return 2;
  }
  if (o.dry_run) {
    std::printf("would remove %s (its CMake and ninja logs kept in %s)\n", dir.c_str(), o.keep_logs.c_str());
    return 0;
  }
  std::vector<std::string> kept;
  std::string err = run::clean_build_dir(dir, o.keep_logs, &kept);
  if (!err.empty()) {
    std::fprintf(stderr, "torchsmith clean: %s\n", err.c_str());
    return 1;
  }
  std::printf("removed %s%s\n", dir.c_str(), kept.empty() ? "" : (" (logs kept in " + o.keep_logs + ")").c_str());
  return 0;
}

}  // namespace

void register_clean(CLI::App& app, GlobalOptions&, int& exit_code) {
  auto [c, o] = add_command<CleanOptions>(
      app, exit_code, [](CleanOptions& x) { return run_clean(x); },
      "clean",
      "Remove a build directory, keeping its logs (CMakeCache.txt, CMake's output and error logs,\n"
      ".ninja_log). With --if-stale, only when it was configured for another source tree, compiler,\n"
      "nvcc, Python or generator than the plan's: the cases CMake cannot recover from by itself.");
  exit_codes(c, "0 removed, or kept because there was nothing to do, 1 the removal failed, 2 bad input or a "
                "directory it refuses to remove");
  c->add_option("dir", o->dir, "The build directory (SRC/build).")->required()->type_name("DIR");
  c->add_flag("--if-stale", o->if_stale, "Only when it cannot be reused for the plan (see --plan).");
  c->add_option("--plan", o->lock, "The lock file whose toolchain the directory must match.")->type_name("LOCK");
  c->add_option("--keep-logs", o->keep_logs, "Where its logs go (default DIR.logs-<time>).")->type_name("DIR");
  c->add_flag("--dry-run", o->dry_run, "Say what would be removed; remove nothing.");
}

}  // namespace ts::cli
