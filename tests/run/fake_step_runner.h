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
#include <vector>

#include "run/step_runner.h"

namespace ts::run::testing {

struct Scripted {
  int exit_code = 0;
  bool cancel = false;        // raise *cancel_flag and report the step as cancelled
  std::string report_json;    // written to the path after --report, when given
  triage::Diagnosis diagnosis;
  std::map<std::string, std::string> writes;  // files the step leaves, path -> bytes (FakeWorld only)
};

class FakeStepRunner final : public StepRunner {
 public:
  std::map<std::string, std::deque<Scripted>> script;
  std::vector<build::StepSpec> calls;
  std::atomic<bool>* cancel_flag = nullptr;

  build::StepResult run(const build::StepSpec& spec, const build::RunnerOptions& o) override {
    calls.push_back(spec);
    Scripted s;
    if (auto it = script.find(spec.name); it != script.end() && !it->second.empty()) {
      s = it->second.front();
      it->second.pop_front();
    }
    if (!o.log_path.empty()) std::ofstream(o.log_path) << "fake " << spec.name << "\n";
    auto at = std::find(spec.argv.begin(), spec.argv.end(), "--report");
    if (!s.report_json.empty() && at != spec.argv.end() && at + 1 != spec.argv.end())
      std::ofstream(*(at + 1)) << s.report_json;
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

  std::vector<std::string> names() const {
    std::vector<std::string> v;
    for (const auto& c : calls) v.push_back(c.name);
    return v;
  }
};

}  // namespace ts::run::testing
