#pragma once
// Everything the run loop asks of the machine, in one seam (as ninja's Builder runs over a
// DiskInterface and a CommandRunner): files, the clock, a tree's git state, processes and memory.
// The binary runs over RealWorld; tests hand run_build an in-memory world (tests/run/fake_world.h)
// and check resume, hashing, interruption and remedies in milliseconds, with no disk, git or spawn.
// Out of the seam (real in every world, and unused by a plan without them): the source ports, the
// copy of an extension's tree, the build helper, the compile cache, a shared store, distcc and the
// memory governor (it reads /proc; build/governor_test.cpp hands it fake roots). A build's
// .ninja_log is read from the disk (only read: absent in a fake world, the run has no timeline).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "build/memory.h"
#include "build/runner.h"
#include "run/step_runner.h"
#include "run/tree_lock.h"

namespace ts::run {

class World {
 public:
  virtual ~World() = default;

  // Files. write is atomic (a kill mid-write leaves the old file); both return "" or the error.
  virtual std::optional<std::string> read(const std::string& path) = 0;
  virtual std::string write(const std::string& path, const std::string& text) = 0;
  virtual std::string make_dirs(const std::string& dir) = 0;
  virtual bool exists(const std::string& path) = 0;
  virtual bool is_dir(const std::string& path) = 0;
  // Names directly in dir (files and directories), sorted; regular files only with files_only.
  virtual std::vector<std::string> list(const std::string& dir, bool files_only) = 0;
  virtual void remove(const std::string& path) = 0;      // a file; nothing when absent
  virtual void remove_all(const std::string& path) = 0;  // a tree
  virtual void link(const std::string& target, const std::string& at) = 0;  // a symlink, replacing at
  // The newest *.whl directly in dir, by modification time ("" when none): {wheel}, {built_wheel}.
  virtual std::string newest_wheel(const std::string& dir) = 0;
  // A packaged file's size and sha256 (streamed: a torch wheel is gigabytes); nullopt when unreadable.
  struct Sum { std::uint64_t size = 0; std::string sha256; };
  virtual std::optional<Sum> sum(const std::string& path) = 0;

  // One build of a tree at a time: held until the handle is destroyed; null with *error naming the holder.
  struct Lock { virtual ~Lock() = default; };
  virtual std::unique_ptr<Lock> lock(const std::string& dir, const std::string& what, bool wait, std::string* error) = 0;

  // The clock: seconds on a monotonic clock, and the wall clock as text (util::kIso8601, kCompact).
  virtual double now() = 0;
  virtual std::string utc(const char* format) = 0;

  // The commit checked out in dir when it is a git checkout of its own; "" otherwise.
  virtual std::string git_head(const std::string& dir) = 0;

  // Processes: a step's attempt, this process's id, CPU seconds (RUSAGE_SELF / RUSAGE_CHILDREN),
  // and an earlier run's leftovers stopped (how many there were).
  virtual build::StepResult run(const build::StepSpec& spec, const build::RunnerOptions& o) = 0;
  virtual int pid() = 0;
  virtual double cpu(int who) = 0;
  virtual int stop_leftovers(int pgid, const std::string& run_id) = 0;

  // What the machine's memory reads now (the status line's and the run record's samples).
  virtual build::MemReading memory() = 0;
};

// The machine: the disk, steady_clock, git, spawned process groups, /proc and /sys.
class RealWorld final : public World {
 public:
  // runner: who runs the steps (null = spawn them, build::run_step).
  explicit RealWorld(StepRunner* runner = nullptr) : runner_(runner) {}
  std::optional<std::string> read(const std::string& path) override;
  std::string write(const std::string& path, const std::string& text) override;
  std::string make_dirs(const std::string& dir) override;
  bool exists(const std::string& path) override;
  bool is_dir(const std::string& path) override;
  std::vector<std::string> list(const std::string& dir, bool files_only) override;
  void remove(const std::string& path) override;
  void remove_all(const std::string& path) override;
  void link(const std::string& target, const std::string& at) override;
  std::string newest_wheel(const std::string& dir) override;
  std::optional<Sum> sum(const std::string& path) override;
  std::unique_ptr<Lock> lock(const std::string& dir, const std::string& what, bool wait, std::string* error) override;
  double now() override;
  std::string utc(const char* format) override;
  std::string git_head(const std::string& dir) override;
  build::StepResult run(const build::StepSpec& spec, const build::RunnerOptions& o) override;
  int pid() override;
  double cpu(int who) override;
  int stop_leftovers(int pgid, const std::string& run_id) override;
  build::MemReading memory() override;

 private:
  StepRunner* runner_;
  ProcessStepRunner processes_;
  std::unique_ptr<build::MemoryReader> memory_;  // made on first use: it finds the cgroup once
};

}  // namespace ts::run
