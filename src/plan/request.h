#pragma once
// One way into planning for `plan`, `build` and `matrix`: from what the command line (and
// torchsmith.toml) asked to a Plan or its Conflicts. request() picks the kind by the requirement's
// form (torch==X: resolve torch itself; DIR, URL@REF, NAME==X: an extension against an installed
// torch), reads what it needs of the machine through the probe (or a --facts report), a --toolkit
// PATH's nvcc, the machine's toolkits, NAME==X's sdist on the index and a source tree's commit, and
// runs the planner with its scale step. The CLI parses and renders; it starts no process of its own.
#include <string>
#include <utility>
#include <vector>

#include "core/host_facts.h"
#include "plan/build_kb.h"
#include "plan/extension.h"
#include "plan/plan.h"
#include "plan/planner.h"
#include "plan/provision_request.h"
#include "plan/recipe.h"
#include "spec/raw_spec.h"

namespace ts::plan {

// What was asked, as the options table (cli/request_options.h) parsed it.
struct RequestInput {
  spec::RawSpec raw;
  std::string requirement, spec_file;
  bool debug = false, relwithdebinfo = false;
  std::string torch;  // --torch PYTHON: the installed torch an extension builds against
  int split_compile = -1;  // --split-compile (extensions): -1 auto, 1 off, N nvcc threads per CUDA compile
  std::string toolkit;    // --toolkit system|pip|redist|conda|wheelhouse:DIR|PATH ("" = automatic)
  // --toolkit-mirror URL|DIR: NVIDIA's archives / a conda channel from there (a directory made
  // absolute, checked by the command: provision/fetch_file.h is a stage above this one)
  std::string toolkit_mirror;
  std::string cache_dir;  // --cache-dir: where provisioned tools live ("" = XDG / ~/.cache/torchsmith)
  std::string index;      // --index URL: the package index NAME==VERSION's sdist is looked up in
  std::vector<std::pair<std::string, std::string>> env;  // --env KEY=VALUE: a package's own build switches
  // --no-fetch: an extension's source is never fetched (neither read before planning nor by the
  // build): a URL@REF or NAME==VERSION is refused, naming what would have been fetched.
  bool no_fetch = false;
  // --wheelhouse DIR: the build's Python requirements (the build overlay, pybind11 for
  // build.fetch-local) and verify's runtime dependencies come from this directory only, offline
  // (pip --no-index --find-links DIR); kept in the lock. Never a torch other than the target's.
  std::string wheelhouse;
};

// The tables a request plans with (loaded once by the command), each with its reader's errors.
struct RequestTables {
  Knowledge planner;
  const RecipeSet* recipes = nullptr;
  std::vector<std::string> recipe_errors;
  const ProvisionCatalog* catalog = nullptr;
  std::vector<std::string> catalog_errors;
};

struct Planned {
  PlanResult result;  // the plan, or its conflicts
  ProvisionCatalog catalog;
  ProvisionContext provision;
  HostFacts facts;
  BuildKb build_kb;  // for renderers that need it (Dockerfile)
  bool extension = false;
  std::string error;  // bad input (exit 2); conflicts are in result
  std::vector<std::string> toolkit_facts;  // KB entries replaced by what this machine's toolkits say
};

// scale: the planner's scale step's probe (--cache / --distribute; empty = none).
Planned request(const RequestInput& in, RequestTables tables, const ScaleProbe& scale = {});

}  // namespace ts::plan
