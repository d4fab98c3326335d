#pragma once
// The plan's part for a shared cache and distributed compilation: which engine and store (checked
// now, with a short timeout), which distcc hosts (each probed: reachable, same compiler), how many
// jobs (remote slots + what local memory allows), and where nvcc units run. Each choice is a
// Decision with its reason; nothing here fails a plan for a store or host that is down.
#include <functional>
#include <string>
#include <vector>

#include "plan/plan.h"
#include "scale/hosts.h"
#include "scale/request.h"

namespace ts::scale {

struct ScaleRequest {
  std::string cache;       // --cache ENGINE+STORE ("" = none)
  std::string distribute;  // --distribute distcc ("" = none)
  std::string hosts;       // --hosts, or DISTCC_HOSTS when empty
};

struct ScaleResult {
  std::string error;   // bad input (exit 2)
  HostsCheck hosts;    // what the probe found (doctor and explain show it)
  Health store;        // the store's health at plan time
};

// Checks the distcc hosts for a compiler (check_hosts; tests hand in what a probe would find).
using HostChecker = std::function<HostsCheck(const std::vector<DistccHost>& hosts, const std::string& compiler)>;

// Adds plan.scale (remote_slots: the kept hosts' slots) and its decisions to plan; plan.jobs and the
// environment are the planner's (its scale step runs this before its jobs step). path_var: the
// build's PATH (where distcc, ccache, sccache and the compiler are looked up). work_dir: scratch for
// the host probe.
ScaleResult plan_scale(const ScaleRequest& r, plan::Plan& plan, const std::string& path_var,
                       const std::string& work_dir, const HostChecker& checker = {});

}  // namespace ts::scale
