#include "plan/speed_split.h"

#include <algorithm>

#include "compat/facts_util.h"
#include "plan/extension_internal.h"

namespace ts::plan {

using compat::num;

SplitCompile choose_split_compile(const SplitCompileInput& in) {
  SplitCompile r;
  if (in.cu_files <= 0) {
    r.why = "no .cu file counted in the tree";
    return r;
  }
  int cores = std::max(in.cores, 1), threads = std::max(in.threads, 1);
  int at_once = std::clamp(std::min(in.jobs, in.cu_files), 1, cores);
  std::string busy = std::to_string(at_once) + " CUDA compile(s) at once x " + std::to_string(threads) +
                     " nvcc thread(s) on " + std::to_string(cores) + " cores";
  // Up to kThreadsPerCore threads a core at the busiest moment: compiles are CPU-bound, so sharing
  // costs little, while the last, longest compile gets cores that would otherwise idle.
  constexpr int kThreadsPerCore = 3;
  int cap = std::max(cores / threads, 1);
  int want = (kThreadsPerCore * cores + at_once * threads - 1) / (at_once * threads);
  r.split = std::clamp(want, 1, cap);
  if (r.split < 2) {
    r.why = busy + ": no room for more threads";
    return r;
  }
  r.why = busy + ": " + std::to_string(r.split) + " threads each (at most " + std::to_string(kThreadsPerCore) +
          " a core while all run, every core for the last one)";
  // Memory: the compiles at once, each a job (x its nvcc threads) plus a share per further split thread.
  double job = in.job_gib * std::max(1.0, threads * std::max(in.thread_factor, 0.0));
  if (in.usable_gib > 0 && job > 0) {
    auto need = [&](int split) { return at_once * job * (1 + (split - 1) * std::max(in.split_factor, 0.0)); };
    int fit = r.split;
    while (fit > 1 && need(fit) > in.usable_gib) --fit;
    if (fit < r.split) {
      r.split = fit;
      r.why += "; memory allows " + std::to_string(fit) + " (" + num(need(fit)) + " of " + num(in.usable_gib) + " GiB)";
    }
  }
  return r;
}

}  // namespace ts::plan

namespace ts::plan::ext {

void choose_nvcc_split(Ctx& c) {
  if (!c.python || !c.cuda_on || !c.toolkit) return;
  const auto& req = *c.req;
  if (req.split_compile == 1) {
    c.decide("split-compile", "off", "asked for (--split-compile off)", "--split-compile");
    return;
  }
  if (!c.toolkit->split_compile) {
    if (req.split_compile > 1)
      c.record("split-compile", "off", c.toolkit->nvcc + " --help lists no --split-compile (nvcc " + c.toolkit->version +
               "): --split-compile " + std::to_string(req.split_compile) + " is not passed", "nvcc --help", true);
    return;
  }
  int split = req.split_compile;
  std::string why = "asked for (--split-compile " + std::to_string(split) + ")";
  if (split < 0) {
    // nvcc units compile here even when distcc takes the host compiles: this machine's jobs.
    int local = c.p.scale.remote_slots > 0 ? c.p.scale.local_jobs : c.p.jobs;
    auto r = choose_split_compile({c.cores, local, c.nvcc_threads, req.scan.cu_files, c.usable_gib, c.nvcc_job_gib,
                                   c.kb().resources.nvcc_thread_factor, c.kb().resources.nvcc_split_thread_factor});
    if (r.split < 2) return;  // every core already has a compile, or memory has no room: no threads added
    split = r.split;
    why = r.why;
  }
  c.p.nvcc_split = split;
  std::string flags = "--split-compile " + std::to_string(split);
  auto it = c.p.env.find("NVCC_APPEND_FLAGS");
  if (it != c.p.env.end() && !it->second.empty()) flags = it->second + " " + flags;
  c.set_env("NVCC_APPEND_FLAGS", flags,
            "nvcc runs one compile's optimizer and assembler (cicc, ptxas) in " + std::to_string(split) +
            " threads, so the longest kernel file stops holding the build while cores idle: " + why +
            "; nvcc says this has minimal, if any, effect on the compiled code",
            "nvcc --help (--split-compile); " + c.toolkit->nvcc);
}

}  // namespace ts::plan::ext
