#pragma once
// A scripted StepRunner: each step name has a queue of results, taken one per attempt (an empty
// queue means success). It spawns nothing; it records what it was asked to run, can write verify's
// --report document and can raise the run's cancel flag, as Ctrl-C would during the step.
#include <algorithm>
#include <atomic>
#include <deque>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "run/pipeline.h"
#include "run/step_runner.h"

namespace ts::run::testing {

struct Scripted {
  int exit_code = 0;
  bool cancel = false;        // raise *cancel_flag and report the step as cancelled
  std::string report_json;    // written to the path after --report, when given
  triage::Diagnosis diagnosis;
  std::map<std::string, std::string> writes;  // files the step leaves, path -> bytes (FakeWorld only)
  std::string log;  // what the step prints into its log ("fake NAME" when empty)
};

// The next scripted result for a step (success when its queue is empty), taken off the queue.
inline Scripted take_scripted(std::map<std::string, std::deque<Scripted>>& script, const std::string& name) {
  Scripted s;
  if (auto it = script.find(name); it != script.end() && !it->second.empty()) {
    s = it->second.front();
    it->second.pop_front();
  }
  return s;
}

// The path after --report in a step's argv, or nullptr.
inline const std::string* report_path(const build::StepSpec& spec) {
  auto at = std::find(spec.argv.begin(), spec.argv.end(), "--report");
  return at != spec.argv.end() && at + 1 != spec.argv.end() ? &*(at + 1) : nullptr;
}

// What a scripted step returns; a cancelling one raises the run's flag as Ctrl-C would.
inline build::StepResult scripted_result(const Scripted& s, std::atomic<bool>* cancel_flag) {
  build::StepResult r;
  r.exit_code = s.exit_code;
  r.diagnosis = s.diagnosis;
  if (s.cancel && cancel_flag) {
    cancel_flag->store(true);
    r.cancelled = true;
    r.exit_code = -1;
    r.signal = 2;
  }
  return r;
}

class FakeStepRunner final : public StepRunner {
 public:
  std::map<std::string, std::deque<Scripted>> script;
  std::vector<build::StepSpec> calls;
  std::atomic<bool>* cancel_flag = nullptr;

  build::StepResult run(const build::StepSpec& spec, const build::RunnerOptions& o) override {
    calls.push_back(spec);
    Scripted s = take_scripted(script, spec.name);
    if (!o.log_path.empty()) std::ofstream(o.log_path) << (s.log.empty() ? "fake " + spec.name + "\n" : s.log);
    if (const std::string* report = report_path(spec); report && !s.report_json.empty()) std::ofstream(*report) << s.report_json;
    return scripted_result(s, cancel_flag);
  }

  std::vector<std::string> names() const {
    std::vector<std::string> v;
    for (const auto& c : calls) v.push_back(c.name);
    return v;
  }
};

// BuildOptions for a run driven by a scripted runner (or, with nullptr, a world the caller sets): no
// compile cache, governor or status line, no real torchsmith to call; what the run says is kept in
// *said (dropped when said is nullptr).
inline BuildOptions scripted_build_options(const std::string& out_dir, StepRunner* runner,
                                           std::vector<std::string>* said) {
  BuildOptions o;
  o.out_dir = out_dir;
  o.self_exe = "/nonexistent/torchsmith";
  o.compile_cache = "none";
  o.governor = false;
  o.status_fd = -1;
  o.what = "fixture";
  o.runner = runner;
  o.say = [said](const std::string& s) {
    if (said) said->push_back(s);
  };
  return o;
}

// A diagnosis whose one root cause is signature ID carrying remedy KIND (the finding points at the
// signature held here, so keep the object alive while the diagnosis is used).
struct OneRootDiagnosis {
  triage::Signature sig;
  triage::Diagnosis d;
  OneRootDiagnosis(std::string id, triage::RemedyKind kind) {
    sig.id = std::move(id);
    sig.remedy.kind = kind;
    triage::Finding f;
    f.id = sig.id;
    f.sig = &sig;
    f.remedy = sig.remedy;
    d.findings.push_back(f);
    d.root_count = 1;
  }
};

}  // namespace ts::run::testing
