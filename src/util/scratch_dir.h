#pragma once
// A temporary directory removed on every way out: the destructor on return and exceptions, and a
// signal-safe registry on SIGINT/SIGTERM/SIGHUP (an interrupted verify used to leave gigabytes in
// /tmp/torchsmith-verify-*). The handler is installed only where the signal's disposition is
// still the default, so a command with its own cancel handling (build) keeps it and unwinds.
#include <signal.h>

#include <string>

namespace ts::util {

class ScratchDir {
 public:
  // mkdtemp(parent/prefix-XXXXXX); parent "" = the temp directory ($TMPDIR or /tmp).
  explicit ScratchDir(const std::string& prefix, const std::string& parent = "");
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::string& path() const { return path_; }  // "" when it could not be made (see error())
  const std::string& error() const { return error_; }

 private:
  std::string path_, error_;
  int slot_ = -1;
};

// The registry under ScratchDir, for directories made some other way: register_cleanup returns a
// slot (-1 when full or the path is too long) whose directory is removed if a signal ends the
// process; unregister_cleanup drops it (the caller removes the directory itself).
int register_cleanup(const std::string& dir);
void unregister_cleanup(int slot);
// Held from creating a path to registering it: SIGINT, SIGTERM and SIGHUP wait (blocked in this
// thread) until the path is in the registry, so a signal in between cannot leave it behind.
class CleanupSignalsHeld {
 public:
  CleanupSignalsHeld();
  ~CleanupSignalsHeld();
  CleanupSignalsHeld(const CleanupSignalsHeld&) = delete;
  CleanupSignalsHeld& operator=(const CleanupSignalsHeld&) = delete;

 private:
  sigset_t old_;
};
// Removes dir and everything under it with system calls only (async-signal-safe); false if some
// of it remained. Used by the handler; exposed for tests.
bool remove_tree_signal_safe(const char* dir);

}  // namespace ts::util
