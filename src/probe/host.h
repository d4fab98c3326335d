#pragma once
// The machine the probe looks at: a root directory ("/" or a fake host under tests/fixtures/hosts)
// and a command runner. Every absolute path goes through root, and commands are looked up only
// in root's own bin directories, so a fake host can never leak facts of the real one.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "util/process.h"

namespace ts::probe {

using Runner = std::function<util::RunResult(const std::vector<std::string>&, const util::RunOptions&)>;

struct Host {
  std::string root = "/";  // absolute, no trailing '/' except for "/" itself
  Runner runner;           // util::run unless a test hands in another
  // The host's environment (PATH, HOME, CUDA_HOME, CONDA_PREFIX, VIRTUAL_ENV, TMPDIR, ...).
  // For "/" it is our own; for a fake root it is read from ROOT/.host/env (KEY=VALUE lines),
  // so a fixture says what its user had exported and the real environment never leaks in.
  std::map<std::string, std::string> env;

  // The real machine, with our own environment.
  static Host real();
  // A host under dir: "/" gives real(); anything else must be an existing directory, else
  // nullopt with *error set ("--root /x: no such directory").
  static std::optional<Host> at(const std::string& dir, std::string* error);

  bool is_real() const { return root == "/"; }
  // "/proc/meminfo" -> ROOT/proc/meminfo. Host paths are what facts report; mapped paths are
  // only for reading.
  std::string map(const std::string& host_path) const;
  // The inverse for a mapped path under root; other paths come back unchanged.
  std::string unmap(const std::string& mapped) const;

  std::optional<std::string> read(const std::string& host_path, std::size_t max = 1 << 20) const;
  bool exists(const std::string& host_path) const;
  bool is_dir(const std::string& host_path) const;
  // Entry names of a directory, sorted; empty when it is not one.
  std::vector<std::string> list(const std::string& host_path) const;
  // Symlinks resolved inside root (an absolute link target is taken relative to root);
  // "" when the path does not exist.
  std::string canonical(const std::string& host_path) const;
  // The raw target of a symlink ("" when not a link).
  std::string readlink(const std::string& host_path) const;
  std::string getenv(const std::string& name) const;
  std::string home() const;  // $HOME, else "/root"

  // Directories searched for commands, in order, as host paths: PATH (from env) first, then
  // the usual bin dirs (/usr/local/sbin.. /usr/bin, /bin, /usr/local/cuda*/bin, /opt/conda/bin,
  // /usr/lib/wsl/lib). Deduplicated, existing only.
  std::vector<std::string> bin_dirs() const;
  // Host path of the first executable `name` in bin_dirs(); "" when none.
  std::string find_command(const std::string& name) const;
  // Runs a command given by host path (argv[0]) through runner, mapped under root, in a clean
  // locale (LC_ALL=C) so outputs parse the same everywhere.
  util::RunResult run(std::vector<std::string> argv, std::chrono::milliseconds timeout,
                      const std::map<std::string, std::string>& extra_env = {}) const;
};

// "a/b/../c" -> "a/c" on strings only (no file system access).
std::string normalize_path(const std::string& p);

}  // namespace ts::probe
