#pragma once
// A pid that was a process a moment ago and is gone now (forked, exited, reaped): what a
// partial file of a killed run carries.
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ts::testkit {

inline pid_t dead_pid() {
  pid_t p = ::fork();
  if (p == 0) ::_exit(0);
  int st = 0;
  ::waitpid(p, &st, 0);
  return p;
}

}  // namespace ts::testkit
