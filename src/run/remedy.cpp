#include "run/remedy.h"

#include <algorithm>

#include "compat/jobs_rule.h"
#include "plan/parallelism.h"
#include "plan/plan.h"

namespace ts::run {

namespace {

std::string appended(const std::map<std::string, std::string>& env, const char* key, const std::string& more) {
  auto it = env.find(key);
  return it == env.end() || it->second.empty() ? more : it->second + " " + more;
}

}  // namespace

RemedyPlan choose_remedy(const triage::Diagnosis& d, const std::map<std::string, std::string>& env,
                         const plan::Parallelism& now, const RetryPolicy& policy, int retries_done,
                         const ArchList& native_arches) {
  RemedyPlan r;
  const triage::Finding* root = d.root();
  if (!root || !root->sig) return r;
  const auto& rem = root->remedy;
  if (rem.kind == triage::RemedyKind::none) return r;
  r.kind = std::string(triage::to_string(rem.kind));
  if (!policy.auto_fix) { r.refused = "auto-fix is off (--no-auto-fix)"; return r; }
  if (retries_done >= policy.max_retries) {
    r.refused = "already retried " + std::to_string(retries_done) + " times (--max-retries)";
    return r;
  }
  r.env = rem.env;
  switch (rem.kind) {
    case triage::RemedyKind::halve_jobs: {
      // Typed counts in, typed counts out; the knobs are written from them (plan/parallelism.h).
      // nvcc --split-compile threads (plan/speed_split.h) hold memory too: halved with the jobs.
      plan::Parallelism next = now;
      next.split = now.split >= 2 && now.split / 2 >= 2 ? now.split / 2 : 0;
      std::string split_note = now.split >= 2 ? ", nvcc split-compile " + std::to_string(now.split) + " -> " +
                                                    std::to_string(std::max(next.split, 1)) : "";
      if (now.jobs <= 1 && now.split < 2) { r.refused = "already at 1 job: memory, not parallelism, is short"; return r; }
      if (now.jobs > 1) next.jobs = compat::jobs_after_oom(now.jobs);
      for (const char* k : plan::kJobKnobs) r.env.erase(k);  // the signature's own count yields to the halved one
      // The slots side-by-side extensions share (jobs x nvcc threads, run/pyshim.h) follow the jobs.
      for (auto& [k, v] : plan::job_env(next, env)) r.env[k] = v;
      r.parallel = next;
      r.reason = root->id + (now.jobs > 1 ? ": jobs " + std::to_string(now.jobs) + " -> " + std::to_string(next.jobs)
                                          : ": jobs stay at 1") + split_note;
      break;
    }
    case triage::RemedyKind::set_env: {
      if (rem.env.empty()) { r.refused = "the signature names no variables"; return r; }
      bool changes = false;
      for (const auto& [k, v] : rem.env)
        if (auto it = env.find(k); it == env.end() || it->second != v) changes = true;
      if (!changes) { r.refused = "its variables are already set: the remedy did not help"; return r; }
      std::string what;
      for (const auto& [k, v] : rem.env) what += (what.empty() ? "" : " ") + k + "=" + v;
      r.reason = root->id + ": set " + what;
      r.reconfigure = true;  // CMake reads most of these at configure time only
      break;
    }
    case triage::RemedyKind::clean_build_dir:
      r.clean_build = true;
      r.reason = root->id + ": the build directory is stale; cleaned (its logs kept)";
      break;
    case triage::RemedyKind::reconfigure:
      r.reconfigure = true;
      r.reason = root->id + ": configure again from scratch (CMakeCache.txt removed)";
      break;
    case triage::RemedyKind::shorten_arch_list: {
      if (!policy.allow_arch_shrink) {
        r.refused = "shortening the arch list changes what is built: pass --allow-arch-shrink to allow it";
        return r;
      }
      // Spelled as the plan spells TORCH_CUDA_ARCH_LIST, so "already only these" compares like with like.
      const std::string native = native_arches.torch_cuda_arch_list();
      auto it = env.find("TORCH_CUDA_ARCH_LIST");
      if (native_arches.empty() || (it != env.end() && it->second == native)) {
        r.refused = "no shorter arch list known (no GPU detected, or already only the GPUs here)";
        return r;
      }
      r.env["TORCH_CUDA_ARCH_LIST"] = native;
      r.reason = root->id + ": arch list -> " + native + " (the GPUs here; allowed by --allow-arch-shrink)";
      break;
    }
    case triage::RemedyKind::force_include: {
      // A header the sources forgot, included in front of every C++ and CUDA file: nvcc reads
      // NVCC_APPEND_FLAGS itself, CMake reads CXXFLAGS at configure, and torch's BuildExtension
      // gets it through the build helper (TORCHSMITH_FORCE_INCLUDE, run/pyshim/sitecustomize.py).
      std::string h = triage::expand_captures(rem.header, root->captures);
      if (!triage::valid_header_name(h)) { r.refused = "no header name in the log line"; return r; }
      std::string have;
      if (auto it = env.find("TORCHSMITH_FORCE_INCLUDE"); it != env.end()) have = " " + it->second + " ";
      if (have.find(" " + h + " ") != std::string::npos) {
        r.refused = "<" + h + "> is already force-included: the remedy did not help";
        return r;
      }
      if (have.empty()) {
        auto py = env.find("PYTHONPATH");
        r.env["PYTHONPATH"] = plan::pythonpath_with_pyshim(py == env.end() ? "" : py->second);
      }
      r.env["TORCHSMITH_FORCE_INCLUDE"] = appended(env, "TORCHSMITH_FORCE_INCLUDE", h);
      r.env["NVCC_APPEND_FLAGS"] = appended(env, "NVCC_APPEND_FLAGS", "-include " + h);
      r.env["CXXFLAGS"] = appended(env, "CXXFLAGS", "-include " + h);
      r.reconfigure = true;  // CMake reads CXXFLAGS when it configures
      r.reason = root->id + ": <" + h + "> force-included (-include " + h + " for the host compiler and nvcc)";
      break;
    }
    case triage::RemedyKind::switch_host_compiler: {
      // Automatic only when triage named an installed compiler that fits (triage/specialize.cpp
      // fills CC/CXX/CUDAHOSTCXX from the machine's facts); otherwise the plan must change.
      auto to = rem.env.find("CUDAHOSTCXX");
      if (to == rem.env.end()) to = rem.env.find("CXX");
      if (to == rem.env.end() || to->second.empty()) {
        r.refused = "needs a different plan: no installed host compiler that fits is known (" + rem.note + ")";
        return r;
      }
      auto now = env.find(to->first);
      if (now != env.end() && now->second == to->second) {
        r.refused = to->second + " is already the host compiler: the remedy did not help";
        return r;
      }
      std::string what;
      for (const auto& [k, v] : rem.env) what += (what.empty() ? "" : " ") + k + "=" + v;
      r.clean_build = true;  // CMake cannot change the compiler of a configured build directory
      r.reason = root->id + ": host compiler " + (now == env.end() ? std::string("(default)") : now->second) +
                 " -> " + to->second + " (installed, fits; " + what + "; build directory cleaned)";
      break;
    }
    default:
      r.refused = "needs a different plan (" + rem.note + ")";
      return r;
  }
  r.retry = true;
  return r;
}

}  // namespace ts::run
