#pragma once
// From a request on the command line (and torchsmith.toml) to a plan, the way `plan` and
// `build` both need it: the command's tables and scale probe handed to plan::request
// (plan/request.h), which picks the kind, reads the machine and plans.
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/request_options.h"
#include "core/host_facts.h"
#include "plan/build_kb.h"
#include "plan/plan.h"
#include "plan/provision_request.h"
#include "plan/request.h"
#include "run/remedy.h"
#include "scale/plan_scale.h"
#include "spec/raw_spec.h"

namespace ts::cli {

// One request (plan or build): what the options table (request_options.h) parsed into it; the
// planner's part (plan/request.h) and the command's own.
struct Request : plan::RequestInput {
  std::vector<std::pair<std::string, std::string>> given;  // each table option as written, in order
  std::string cache;          // --cache ENGINE+STORE: a shared compile cache (src/scale/)
  std::string distribute;     // --distribute distcc
  std::string hosts;          // --hosts "h1/4 h2/4" (or DISTCC_HOSTS)
  // The run's (build only).
  int max_retries = run::RetryPolicy{}.max_retries, keep_going_after = 0;
  std::string compile_cache = "auto";
};

// torch itself or an extension, by the requirement's form.
RequestKind request_kind(const Request& r);

// plan::request's answer and what the scale probe found (a stage above the planner's).
struct PlannedRequest : plan::Planned {
  scale::ScaleResult scale;  // the store's health and the hosts' probe, when asked for
};

// r's options already applied (apply_request_options) for its kind.
PlannedRequest plan_request(const GlobalOptions& g, const Request& r);

}  // namespace ts::cli
