#pragma once
// Wheel repair: a built wheel made installable and honest. RPATHs in the official torch layout,
// every DT_NEEDED accounted for (the wheel itself, torch or the driver for extensions, the
// manylinux system libraries, else vendored under a hash-suffixed name or a failure naming it),
// a local version saying what is inside, the platform tag the symbol versions allow, RECORD
// rewritten, and the result written atomically next to (never over) the input.
#include <string>
#include <vector>

#include "package/wheel_policy.h"
#include "plan/build_kb.h"
#include "plan/plan.h"
#include "verify/verdict.h"

namespace ts::package {

struct RepairOptions {
  std::string wheel;                 // input .whl (never modified)
  std::string out_dir;               // "" = the input's directory
  const plan::Plan* plan = nullptr;  // optional: CUDA/arch list for the local version
  std::string local_version;         // "" = auto with a plan, none without; "auto", "none", TEXT
  // Requires-Dist on torch (torch_pin.h): "minor", "exact", "none"; "" = minor when the plan is an
  // extension's (it names the torch built against), else none.
  std::string pin_torch;
  bool vendor = true;                // copy libraries outside policy into <dist>.libs/
  std::vector<std::string> lib_dirs;     // searched first for libraries to vendor
  std::vector<std::string> system_dirs;  // "" = the loader's (ld.so.conf + defaults)
  // The command's manylinux.toml and build.toml (cli/knowledge.h); null: the embedded ones.
  const WheelPolicies* policies = nullptr;
  const plan::BuildKb* build_kb = nullptr;
  std::string patchelf;                  // "" = from PATH, "none" = as if absent
  // The target torch's package directory: a NEEDED that import torch has already mapped under that
  // SONAME, with the symbol versions asked of it, is torch's (torch_libs.h), not vendored. "" = none.
  std::string torch_dir;
};

struct RepairResult {
  int exit_code = 0;     // 0 repaired, 1 a check failed, 2 bad input
  std::string error;     // the bad-input message (exit 2)
  std::string output;    // the wheel written ("" when none was)
  bool unchanged = false;  // no compiled extension: output is the input, copied as it was
  std::string version, platform;
  std::vector<std::string> vendored;  // "libfoo.so.1 -> foo.libs/libfoo-1a2b3c4d.so.1"
  std::vector<verify::Verdict> verdicts;  // one line a check
};

RepairResult repair_wheel(const RepairOptions& o);

}  // namespace ts::package
