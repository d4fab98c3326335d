#include "util/scratch_dir.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <mutex>

namespace ts::util {

namespace {

constexpr int kSlots = 64;
constexpr std::size_t kMaxPath = 4096;

struct Slot {
  std::atomic<bool> used{false};
  char path[kMaxPath];
};
Slot g_slots[kSlots];
std::mutex g_mutex;  // registration only; the handler reads `used` and never locks

struct LinuxDirent64 {
  ino64_t d_ino;
  off64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[];
};

// Empties the directory open as fd (depth-limited), with getdents64/unlinkat/openat only.
bool empty_dir_fd(int fd, int depth) {
  if (depth > 128) return false;
  alignas(8) char buf[4096];
  bool ok = true;
  for (;;) {
    long n = syscall(SYS_getdents64, fd, buf, sizeof buf);
    if (n <= 0) break;
    bool removed_any = false;
    for (long off = 0; off < n;) {
      auto* d = reinterpret_cast<LinuxDirent64*>(buf + off);
      off += d->d_reclen;
      const char* name = d->d_name;
      if (name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0))) continue;
      if (unlinkat(fd, name, 0) == 0) { removed_any = true; continue; }
      int sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (sub < 0) { ok = false; continue; }
      ok = empty_dir_fd(sub, depth + 1) && ok;
      close(sub);
      if (unlinkat(fd, name, AT_REMOVEDIR) == 0) removed_any = true;
      else ok = false;
    }
    // Entries were removed while reading: start over from the beginning to see what is left.
    if (removed_any) lseek(fd, 0, SEEK_SET);
    else if (!ok) break;
  }
  return ok;
}

void on_signal(int sig) {
  int saved = errno;
  for (auto& s : g_slots)
    if (s.used.load(std::memory_order_acquire)) remove_tree_signal_safe(s.path);
  errno = saved;
  // Die of the same signal, so the parent sees how we ended (exit status 128+sig in a shell).
  signal(sig, SIG_DFL);
  raise(sig);
}

void install_handlers() {
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    if (sigaction(sig, nullptr, &old) != 0) continue;
    if (old.sa_handler != SIG_DFL || (old.sa_flags & SA_SIGINFO)) continue;  // someone else's
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigfillset(&sa.sa_mask);
    sigaction(sig, &sa, nullptr);
  }
}

}  // namespace

bool remove_tree_signal_safe(const char* dir) {
  if (rmdir(dir) == 0 || unlink(dir) == 0) return true;
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return errno == ENOENT;
  bool ok = empty_dir_fd(fd, 0);
  close(fd);
  return rmdir(dir) == 0 && ok;
}

int register_cleanup(const std::string& dir) {
  if (dir.empty() || dir.size() >= kMaxPath) return -1;
  std::lock_guard<std::mutex> lock(g_mutex);
  install_handlers();  // each time: a signal reset to its default since then gets ours again
  for (int i = 0; i < kSlots; ++i) {
    if (g_slots[i].used.load(std::memory_order_relaxed)) continue;
    std::memcpy(g_slots[i].path, dir.c_str(), dir.size() + 1);
    g_slots[i].used.store(true, std::memory_order_release);
    return i;
  }
  return -1;
}

void unregister_cleanup(int slot) {
  if (slot < 0 || slot >= kSlots) return;
  std::lock_guard<std::mutex> lock(g_mutex);
  g_slots[slot].used.store(false, std::memory_order_release);
}

CleanupSignalsHeld::CleanupSignalsHeld() {
  sigset_t held;
  sigemptyset(&held);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&held, sig);
  pthread_sigmask(SIG_BLOCK, &held, &old_);
}

CleanupSignalsHeld::~CleanupSignalsHeld() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }

ScratchDir::ScratchDir(const std::string& prefix, const std::string& parent) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path base = parent.empty() ? fs::temp_directory_path(ec) : fs::path(parent);
  if (ec) base = "/tmp";
  std::string tmpl = (base / (prefix + "-XXXXXX")).string();
  CleanupSignalsHeld held;  // a signal between mkdtemp and the registry would leave the directory
  if (!::mkdtemp(tmpl.data())) {
    error_ = "cannot create a temporary directory in " + base.string() + ": " + std::strerror(errno);
    return;
  }
  path_ = tmpl;
  slot_ = register_cleanup(path_);
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  unregister_cleanup(slot_);  // after: a signal during remove_all still finishes the job
}

}  // namespace ts::util
