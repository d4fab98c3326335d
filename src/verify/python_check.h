#pragma once
// The import and GPU smoke checks of `torchsmith verify --python PY [WHEEL] [--plan] [--gpu]`, as a
// library the build runner calls after packaging: install the wheel where nothing else sees it
// (install_wheel.h), run the check script there (python_run.h), judge it against the plan
// (python_compare.h).
#include <chrono>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kb/kb.h"
#include "plan/plan.h"
#include "verify/verdict.h"

namespace ts::verify {

struct PythonCheckOptions {
  std::string python;              // the interpreter under test
  std::string wheel;               // "" = check the torch `python` has installed
  std::optional<plan::Plan> plan;  // unset: facts are reported as notes
  bool gpu = false;  // run the GPU checks (skipped or failed without a GPU: docs/verify.md)
  std::chrono::milliseconds timeout{
      std::chrono::minutes(5)};  // per child process (install, checks)
  std::string work_dir;  // scratch; "" = a fresh directory under $TMPDIR, removed afterwards
  // A checker another process started ahead of this check (early_check.h): used when it was started
  // for this Python and GPU setting and the wheel is an extension's, else released and ours starts.
  std::string early_dir;
  bool prefer_pip = false;  // install with pip even a wheel torchsmith can extract (install_wheel.h)
  // The wheel's runtime dependencies (Requires-Dist) installed beside it (install_deps.h).
  bool runtime_deps = true;
  std::string wheelhouse;  // "" = the package index; else only this directory (pip --no-index)
  std::string pip_cache;   // pip's cache for them ("" = none)
  const kb::Kb* kb = nullptr;  // keeps NumPy in the range of the torch under test (install_deps.h)
};

struct PythonCheckReport {
  std::vector<Verdict>
      verdicts;          // check names: install, import torch, torch version, config, cuda, ...
  nlohmann::json steps;  // what the script reported, step -> {ok, value|error}
  // What the wheel asked for and what was imported besides the plan's module.
  std::vector<std::string> requires_dist, modules;
};

// Never throws; every problem (no such Python, a hang, a crash, garbage) is a fail verdict.
PythonCheckReport verify_python_install(const PythonCheckOptions& o);

}  // namespace ts::verify
