#include "plan/parallelism.h"

#include <algorithm>

namespace ts::plan {

Parallelism parallelism_of(const Plan& p) {
  return {std::max(p.jobs, 1), std::max(p.nvcc_threads, 1), p.nvcc_split, p.side_by_side};
}

int job_slots(const Parallelism& p) { return std::max(p.jobs, 1) * std::max(p.nvcc_threads, 1); }
int job_slots(const Plan& p) { return job_slots(parallelism_of(p)); }

namespace {

// flags with its "--split-compile N" set to `split`, or removed when split < 2.
std::string with_split(const std::string& flags, int split) {
  const std::string opt = "--split-compile ";
  auto at = flags.find(opt);
  if (at == std::string::npos) return flags;
  auto end = flags.find(' ', at + opt.size());
  std::string rest = end == std::string::npos ? "" : flags.substr(end);
  if (split >= 2) return flags.substr(0, at) + opt + std::to_string(split) + rest;
  std::string out = flags.substr(0, at) + (rest.empty() ? "" : rest.substr(1));
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace

std::map<std::string, std::string> job_env(const Parallelism& now, const std::map<std::string, std::string>& env) {
  std::map<std::string, std::string> want;
  for (const char* k : kJobKnobs)
    if (env.count(k) || std::string(k) == "MAX_JOBS") want[k] = std::to_string(now.jobs);
  if (now.side_by_side) want["TORCHSMITH_EXT_JOBS"] = std::to_string(job_slots(now));
  if (auto it = env.find("NVCC_APPEND_FLAGS"); it != env.end()) want[it->first] = with_split(it->second, now.split);
  std::map<std::string, std::string> changed;
  for (auto& [k, v] : want)
    if (auto it = env.find(k); it == env.end() || it->second != v) changed[k] = std::move(v);
  return changed;
}

}  // namespace ts::plan
