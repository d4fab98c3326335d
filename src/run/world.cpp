#include "run/world.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "run/leftover.h"
#include "run/run_paths.h"
#include "source/git.h"
#include "util/fs.h"
#include "util/sha256.h"
#include "util/utc_time.h"

namespace ts::run {

namespace fs = std::filesystem;

namespace {
struct HeldTree final : World::Lock {
  explicit HeldTree(TreeLock l) : lock(std::move(l)) {}
  TreeLock lock;
};
}  // namespace

std::optional<std::string> RealWorld::read(const std::string& path) { return util::read_file(path); }
std::string RealWorld::write(const std::string& path, const std::string& text) { return util::write_file_atomic(path, text); }

std::string RealWorld::make_dirs(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  return ec ? dir + ": " + ec.message() : "";
}

bool RealWorld::exists(const std::string& path) {
  std::error_code ec;
  return fs::exists(path, ec);
}

bool RealWorld::is_dir(const std::string& path) {
  std::error_code ec;
  return fs::is_directory(path, ec);
}

std::vector<std::string> RealWorld::list(const std::string& dir, bool files_only) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (!files_only || e.is_regular_file(ec)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

void RealWorld::remove(const std::string& path) {
  std::error_code ec;
  fs::remove(path, ec);
}

void RealWorld::remove_all(const std::string& path) {
  std::error_code ec;
  fs::remove_all(path, ec);
}

void RealWorld::link(const std::string& target, const std::string& at) {
  std::error_code ec;
  fs::remove(at, ec);
  fs::create_symlink(target, at, ec);
}

std::string RealWorld::newest_wheel(const std::string& dir) { return run::newest_wheel(dir); }

std::optional<World::Sum> RealWorld::sum(const std::string& path) {
  std::error_code ec;
  auto size = fs::file_size(path, ec);
  auto sha = util::sha256_file(path);
  if (ec || !sha) return std::nullopt;
  return Sum{size, *sha};
}

std::unique_ptr<World::Lock> RealWorld::lock(const std::string& dir, const std::string& what, bool wait, std::string* error) {
  TreeLock l = TreeLock::acquire(dir, what, wait, error);
  if (!l.held()) return nullptr;
  return std::make_unique<HeldTree>(std::move(l));
}

double RealWorld::now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string RealWorld::utc(const char* format) { return util::utc_time(format); }

std::string RealWorld::git_head(const std::string& dir) {
  source::GitOptions git;
  git.timeout = std::chrono::milliseconds(10000);
  return source::own_head(dir, git);
}

build::StepResult RealWorld::run(const build::StepSpec& spec, const build::RunnerOptions& o) {
  return (runner_ ? *runner_ : static_cast<StepRunner&>(processes_)).run(spec, o);
}

int RealWorld::pid() { return static_cast<int>(getpid()); }

double RealWorld::cpu(int who) {
  rusage u{};
  getrusage(who, &u);
  return u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 + u.ru_stime.tv_sec + u.ru_stime.tv_usec / 1e6;
}

int RealWorld::stop_leftovers(int pgid, const std::string& run_id) { return run::stop_leftovers(pgid, run_id, 3000); }

build::MemReading RealWorld::memory() {
  if (!memory_) memory_ = std::make_unique<build::MemoryReader>();
  return memory_->read();
}

}  // namespace ts::run
