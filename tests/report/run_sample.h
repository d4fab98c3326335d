#pragma once
// A filled RunRecord shared by the report tests: a failed build with retries, governor actions,
// memory samples and a diagnosis.
#include "report/run_record.h"

namespace ts::report::sample {

inline RunRecord sample_record() {
  RunRecord r;
  r.torchsmith_version = "0.1.0";
  r.what = "torch==2.4.1";
  r.outcome = "failed";
  r.started_at = "2025-01-02T03:04:05Z";
  r.seconds = 1234.5;
  r.plan = {{"schema", "torchsmith-plan/1"}, {"torch_version", "2.4.1"}, {"jobs", 4}};
  r.steps = {{"fetch", "ok", "aaaaaaaaaaaaaaaaaaaaaaaa1111", 0, 10.5, 0, "logs/fetch.log", ""},
             {"configure", "ok", "bbbbbbbbbbbbbbbbbbbbbbbb2222", 10.5, 30, 0, "logs/configure.log", ""},
             {"build", "failed", "cccccccccccccccccccccccc3333", 40.5, 1190, 1, "logs/build.log",
              "nvcc killed"}};
  r.retries = {{"build", "OOM kill (signature oom-killed): jobs 8 -> 4", "lower-jobs", 600}};
  r.governor = {{700, "pause", 4711, "MemAvailable 1.1 GiB < 1.5 GiB reserve"},
                {720, "resume", 4711, "MemAvailable 3.0 GiB"}};
  r.memory = {{0, 1ull << 30, 14ull << 30}, {600, 12ull << 30, 1ull << 30}, {1200, 6ull << 30, 9ull << 30}};
  r.cache = {"ccache", 300, 100};
  r.diagnosis = {{"schema", "torchsmith-diagnosis/1"},
                 {"known", true},
                 {"root_cause",
                  {{"id", "oom-killed"},
                   {"cause", "the compiler was killed: out of memory"},
                   {"fix", "lower MAX_JOBS"},
                   {"evidence", {{{"line", 812}, {"text", "c++: fatal error: Killed signal terminated program cc1plus"}}}}}}};
  r.artifacts = {"dist/torch-2.4.1-cp311-cp311-linux_x86_64.whl"};
  r.verdicts = {"ok   sm_80 SASS present", "fail libcudnn.so.9 not found"};
  r.ninja_log = "/src/pytorch/build/.ninja_log";
  r.run_dir = "/runs/2025-01-02T030405";
  return r;
}

}  // namespace ts::report::sample
