#pragma once
// From a request on the command line (and torchsmith.toml) to a plan, the way `plan` and
// `build` both need it: read the spec, load the KB, probe the machine (or read --facts), resolve
// torch itself (torch==X) or an extension against an installed torch (DIR, URL@REF, NAME==X).
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/request_options.h"
#include "core/host_facts.h"
#include "plan/build_kb.h"
#include "plan/plan.h"
#include "plan/provision_request.h"
#include "scale/plan_scale.h"
#include "spec/raw_spec.h"

namespace ts::cli {

// One request (plan or build): what the options table (request_options.h) parsed into it.
struct Request {
  std::vector<std::pair<std::string, std::string>> given;  // each table option as written, in order
  spec::RawSpec raw;
  std::string requirement, spec_file;
  bool debug = false, relwithdebinfo = false;
  std::string torch;  // --torch PYTHON: the installed torch an extension builds against
  int split_compile = -1;  // --split-compile (extensions): -1 auto, 1 off, N nvcc threads per CUDA compile
  std::string toolkit;    // --toolkit system|pip|redist|conda|wheelhouse:DIR|PATH ("" = automatic)
  std::string toolkit_mirror;  // --toolkit-mirror URL|DIR: NVIDIA's archives / a conda channel from there
  std::string cache_dir;  // --cache-dir: where provisioned tools live ("" = XDG / ~/.cache/torchsmith)
  std::string cache;          // --cache ENGINE+STORE: a shared compile cache (src/scale/)
  std::string distribute;     // --distribute distcc
  std::string hosts;          // --hosts "h1/4 h2/4" (or DISTCC_HOSTS)
  std::string index;          // --index URL: the package index NAME==VERSION's sdist is looked up in
  std::vector<std::pair<std::string, std::string>> env;  // --env KEY=VALUE: a package's own build switches
  // The run's (build only).
  int max_retries = 2, keep_going_after = 0;
  std::string compile_cache = "auto";
};

// torch itself or an extension, by the requirement's form.
RequestKind request_kind(const Request& r);

struct PlannedRequest {
  plan::PlanResult result;
  plan::ProvisionCatalog catalog;
  plan::ProvisionContext provision;
  HostFacts facts;
  plan::BuildKb build_kb;  // for renderers that need it (Dockerfile)
  bool extension = false;
  std::string error;  // bad input (exit 2); conflicts are in result
  std::vector<std::string> toolkit_facts;  // KB entries replaced by what this machine's toolkits say
  scale::ScaleResult scale;  // the store's health and the hosts' probe, when asked for
};

// r's options already applied (apply_request_options) for its kind.
PlannedRequest plan_request(const GlobalOptions& g, const Request& r);

}  // namespace ts::cli
