#pragma once
// Verdicts from what the check script reported (python_run.h), compared with the plan: torch's
// version, CUDA, cuDNN, arch list, C++ ABI and build settings; the extension's import and smoke;
// the GPU checks. Pure: the same ScriptRun always gives the same verdicts.
#include <string>
#include <vector>

#include "plan/plan.h"
#include "verify/check.h"
#include "verify/python_run.h"
#include "verify/verdict.h"

namespace ts::verify {

struct JudgeOptions {
  const plan::Plan* plan = nullptr;  // nothing to compare with: facts become notes
  bool gpu = false;                  // --gpu was asked
  std::string torch_dir;             // torch must be imported from under here ("" = anywhere)
  std::string ext_dir;  // the extension must be imported from under here ("" = anywhere)
  std::vector<std::string> modules;  // the wheel's other modules, each imported ("import NAME" steps)
  // Without a plan naming one: the module an extension wheel installs (its own name or
  // top_level.txt), so the wheel is judged as what it is, not as torch. "" = none.
  std::string import_name;
  // The smoke code the check ran: the plan's, or without a plan the generic one (an import of the
  // wheel's modules that hold compiled code). "" = none.
  std::string smoke;
  // The extension wheel's version ("0.1.0+pt113cpu"): its torch tag (core/torch_tag.h) is compared
  // with the torch imported, a warning when they differ. "" = not known.
  std::string wheel_version;
};

std::vector<Verdict> judge_python_run(const ScriptRun& run, const JudgeOptions& o);

// A skipped check is a note whose detail begins "skipped: " (Verdict has no skip outcome).
Verdict skipped(const CheckName& check, std::string why);
bool is_skip(const Verdict& v);

// "12.8.93" -> "12.8"; "" stays "".
std::string major_minor(const std::string& version);

}  // namespace ts::verify
