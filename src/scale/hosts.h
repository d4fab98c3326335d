#pragma once
// Every distcc host checked before a build: it answers, and it compiles with the same compiler as
// this machine. The identity comes through distcc itself: a tiny file is compiled on each host
// alone (DISTCC_HOSTS=that host, no local fallback) and the object's .comment section — written by
// the compiler proper, which runs remotely (distcc preprocesses here, so __VERSION__ would only
// name this machine's preprocessor) — must equal a local compile's. A host that fails either is
// left out of the build, with the reason.
#include <chrono>
#include <string>
#include <vector>

#include "scale/health.h"
#include "scale/request.h"

namespace ts::scale {

struct HostCheck {
  DistccHost host;
  bool reachable = false;
  std::string compiler;   // the identity its compile carried ("GCC: (Debian 12.2.0-14) 12.2.0"); "" when none
  bool kept = false;
  std::string why;        // why left out, or "" when kept
  double ms = 0;          // the probe compile's wall time
};

struct HostsCheck {
  std::string distcc;          // the distcc client used ("" = not found)
  std::string local_compiler;  // this machine's identity for the same compiler
  std::vector<HostCheck> hosts;
  std::string error;           // nothing could be checked (no distcc, no compiler, no scratch dir)
  int kept_slots() const;
  std::vector<DistccHost> kept() const;
};

// The compiler identity an ELF64 object carries: its .comment strings ("GCC: (Debian 12.2.0-14)
// 12.2.0"), joined by "; " ("" when absent or not ELF64).
std::string identity_in_object(const std::string& bytes);

// compiler: the C++ compiler the build uses (name or path). work_dir: scratch (probe files, the
// distcc state dir). Each probe runs within `timeout`.
HostsCheck check_hosts(const std::vector<DistccHost>& hosts, const std::string& compiler, const std::string& path_var,
                       const std::string& work_dir,
                       std::chrono::milliseconds timeout = std::chrono::milliseconds(20000));

}  // namespace ts::scale
