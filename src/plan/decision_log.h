#pragma once
// What a planner records while it runs: decisions and conflicts in order, each with the id of the
// rule that made it (the running step's, unless a compat rule decided). One recorder for the torch
// planner, the extension planner and the extension contract checks.
#include <string>
#include <vector>

#include "plan/plan.h"

namespace ts::plan {

struct DecisionLog {
  std::vector<Decision> decisions;
  std::vector<Conflict> conflicts;
  std::string rule;  // the running step's id ("plan.toolkit"), set by the planner before each step

  // rule: the compat rule that decided ("jobs.memory"); "" = the running step's.
  void decide(std::string topic, std::string value, std::string reason, std::string source, std::string rule = "") {
    record(std::move(topic), std::move(value), std::move(reason), std::move(source), false, std::move(rule));
  }
  // Chosen, but the user should know.
  void warn(std::string topic, std::string value, std::string reason, std::string source, std::string rule = "") {
    record(std::move(topic), std::move(value), std::move(reason), std::move(source), true, std::move(rule));
  }
  void record(std::string topic, std::string value, std::string reason, std::string source, bool warning,
              std::string rule = "") {
    decisions.push_back({std::move(topic), std::move(value), std::move(reason), std::move(source), warning,
                         rule.empty() ? this->rule : std::move(rule)});
  }
  void conflict(std::string what, std::string why, std::vector<std::string> fixes, std::string source,
                std::string rule = "") {
    conflicts.push_back({std::move(what), std::move(why), std::move(fixes), std::move(source),
                         rule.empty() ? this->rule : std::move(rule)});
  }
  // Appends everything recorded to the plan result, in order, and empties the log.
  void move_into(PlanResult& r) {
    for (auto& d : decisions) r.plan.decisions.push_back(std::move(d));
    for (auto& c : conflicts) r.conflicts.push_back(std::move(c));
    decisions.clear();
    conflicts.clear();
  }
};

}  // namespace ts::plan
