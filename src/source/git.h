#pragma once
// Running git for fetch and the submodule check: argv only, the same -c options (mirrors, file
// protocol) on every call so that git's own child processes inherit them.
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "util/process.h"

namespace ts::source {

struct Mirror {
  std::string from, to;  // url.<to>.insteadOf=<from>
};

struct GitOptions {
  std::string git = "git";
  std::vector<Mirror> mirrors;
  // file:// and local-path submodules are refused by git since 2.38.1 (CVE-2022-39253); allowed
  // only when the user's own spec or mirror points at local repositories.
  bool allow_file_protocol = false;
  std::chrono::milliseconds timeout{std::chrono::hours(2)};
};

// git [-c ...] args...; stdout and stderr captured (large cap: clone output is long).
util::RunResult run_git(const GitOptions& o, const std::vector<std::string>& args);
// "git clone: exit 128: fatal: repository '...' not found" for messages.
std::string describe_failure(const std::vector<std::string>& args, const util::RunResult& r, const GitOptions& o);
bool is_local_url(const std::string& url);

// HEAD's commit when `tree` is its own git checkout (not a directory inside some other
// repository: an extension's folder in a project's repo has no revision of its own), else "".
std::string own_head(const std::string& tree, const GitOptions& git);

}  // namespace ts::source
