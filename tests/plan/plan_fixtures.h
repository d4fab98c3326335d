#pragma once
// Shared by the plan tests: host fixtures probed once, the embedded knowledge loaded once, and
// specs written the way the command line gives them.
#include <map>
#include <string>

#include "plan/planner.h"
#include "spec/raw_spec.h"

#include <gtest/gtest.h>

#include <mutex>

#include "probe/probe.h"

namespace ts::plan::testing {


inline const HostFacts& fixture(const std::string& name) {
  static std::map<std::string, HostFacts> cache;
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(name);
  if (it != cache.end()) return it->second;
  std::string err;
  auto host = probe::Host::at(std::string(TS_SOURCE_DIR) + "/tests/fixtures/hosts/" + name, &err);
  EXPECT_TRUE(host) << err;
  probe::ProbeOptions po;
  po.import_torch = false;
  // bad-python's interpreter hangs: a hang at 3 s is the same fact as at the default 15 s, which every
  // test probing all fixtures waited out (tests/probe/bad_input_test.cpp checks the timeout itself).
  po.python_timeout = std::chrono::seconds(3);
  HostFacts f = host ? probe::probe(*host, po) : HostFacts{};
  return cache.emplace(name, f).first->second;
}

inline const Knowledge& knowledge() {
  static const Knowledge k = [] {
    Knowledge k = load_knowledge({});
    EXPECT_TRUE(k.errors.empty()) << k.errors.front();
    return k;
  }();
  return k;
}

inline spec::BuildSpec spec_of(const std::string& requirement, const std::map<std::string, std::string>& opts = {}) {
  spec::RawSpec raw;
  raw.requirement = {requirement, "the requirement", true};
  std::map<std::string, spec::RawField spec::RawSpec::*> by_flag{
      {"--cuda", &spec::RawSpec::cuda},         {"--arch", &spec::RawSpec::arch},
      {"--python", &spec::RawSpec::python},     {"--with", &spec::RawSpec::with},
      {"--without", &spec::RawSpec::without},   {"--build-type", &spec::RawSpec::build_type},
      {"--jobs", &spec::RawSpec::jobs},         {"--mem-budget", &spec::RawSpec::mem_budget},
      {"--package", &spec::RawSpec::packages},  {"--source", &spec::RawSpec::source}};
  for (const auto& [k, v] : opts) {
    EXPECT_TRUE(by_flag.count(k)) << k;
    if (by_flag.count(k)) raw.*by_flag[k] = {v, k, true};
  }
  std::string err;
  auto s = spec::check(raw, err);
  EXPECT_TRUE(s) << err;
  return s ? *s : spec::BuildSpec{};
}

inline bool has_decision(const PlanResult& r, const std::string& topic, const std::string& value_part) {
  for (const auto& d : r.plan.decisions)
    if (d.topic == topic && d.value.find(value_part) != std::string::npos) return true;
  return false;
}

inline const Conflict* find_conflict(const PlanResult& r, const std::string& why_part) {
  for (const auto& c : r.conflicts)
    if (c.why.find(why_part) != std::string::npos || c.what.find(why_part) != std::string::npos) return &c;
  return nullptr;
}

}  // namespace ts::plan::testing
