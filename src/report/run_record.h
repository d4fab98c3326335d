#pragma once
// RunRecord: what one `torchsmith build` run did, as written to <run dir>/run.json and rendered
// into report.html. The run stage fills it while it works; the report stage only reads it.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace ts::report {

struct StepRecord {
  std::string name;        // fetch, fix, clean, configure, build, package, verify
  std::string status;      // "ok", "failed", "skipped" (unchanged inputs on resume), "interrupted"
  std::string input_hash;  // sha256 over the step's inputs (plan, fixes, source revision)
  double start = 0;        // seconds since the run started
  double seconds = 0;
  int exit_code = -1;
  std::string log;         // log file, relative to the run directory
  std::string note;        // why skipped, what failed
  double cpu_seconds = 0;  // user + system CPU of the step's processes (reaped children)
};

struct RetryRecord {
  std::string step;
  std::string reason;  // "OOM kill (signature oom-killed): jobs 8 -> 4"
  std::string remedy;  // "lower-jobs", "cmake-policy-minimum", "clean-stale", "shorten-arch-list"
  double at = 0;
  std::string diff;    // what a source port changed in the build's copy of the source (unified diff)
};

struct GovernorAction {
  double at = 0;
  std::string action;  // "pause", "resume"
  int pid = 0;
  std::string reason;  // "MemAvailable 1.1 GiB < 1.5 GiB reserve"
};

struct MemorySample {
  double at = 0;
  std::uint64_t used_bytes = 0;       // by the build's processes (RSS sum) or the cgroup
  std::uint64_t available_bytes = 0;  // MemAvailable (or the cgroup's headroom)
};

struct CacheStats {
  std::string tool;  // "ccache", "sccache", "" = none
  std::uint64_t hits = 0, misses = 0;
  // A shared store (--cache ENGINE+STORE): its URL, whether it answered before the build (when
  // not, the build ran without it and `warning` says so), and where the hits came from.
  std::string store;
  bool store_ok = false;
  std::string warning;
  std::uint64_t local_hits = 0, remote_hits = 0, remote_errors = 0;
  // hits / (hits + misses); negative when there was no cache or no lookup.
  double hit_rate() const { return hits + misses ? double(hits) / double(hits + misses) : -1; }
};

// A job distcc sent to a host that failed it, so it compiled here instead.
struct MovedJob {
  std::string source, host, why;
};

// --distribute distcc: what distcc's log says happened.
struct DistributedStats {
  std::string engine;                    // "distcc"; "" = not distributed
  std::string hosts;                     // the hosts used (DISTCC_HOSTS form)
  std::vector<std::string> left_out;     // "HOST: why", from the plan's probe
  std::map<std::string, int> remote_jobs;  // host -> units compiled there
  int local_jobs = 0;                    // units distcc ran here
  std::vector<MovedJob> moved;
  std::string log;                       // distcc's log (absolute)
};

// A file the run packaged, handed over in the summary and the report: where, how big, its sha256
// and the line that installs it.
struct ArtifactFile {
  std::string file;     // relative to the out directory: "dist/hello_ext-0.1.0+pt113cpu-....whl"
  std::string path;     // absolute
  std::uint64_t size = 0;
  std::string sha256;   // hex
  std::string install;  // "/usr/bin/python3 -m pip install /abs/dist/x.whl" ("" = no installer for this kind)
  std::string torch;    // the torch it needs, in words: "torch 1.13 (CPU)" ("" = not an extension wheel)
};

struct RunRecord {
  std::string schema = "torchsmith-run/1";
  std::string torchsmith_version;
  std::string what;        // "torch==2.4.1", "./detectron2"
  std::string outcome;     // "ok", "failed", "interrupted", "conflict"
  std::string started_at;  // ISO 8601 UTC
  double seconds = 0;
  double self_cpu_seconds = 0;  // torchsmith's own CPU while it ran the steps (triage, governor, ...)
  nlohmann::json plan;     // the lock (plan::Plan as JSON)
  std::vector<StepRecord> steps;
  std::vector<RetryRecord> retries;
  std::vector<GovernorAction> governor;
  std::vector<MemorySample> memory;
  CacheStats cache;
  DistributedStats distributed;
  nlohmann::json diagnosis;             // triage's diagnosis when it failed (null otherwise)
  std::vector<std::string> artifacts;   // files produced, relative to the out directory
  std::vector<ArtifactFile> artifact_files;  // the same files with size, sha256 and install line
  // The command that ran (argv), for the report's "reproduce" line and the summary's --resume line.
  std::vector<std::string> command;
  // An extension built from its copy: the user's tree and the copy (OUT/src) a compiler names, so
  // an error's file is shown at its own path. Both "" when the tree was built in place.
  std::string source_dir, source_copy;
  std::vector<std::string> verdicts;    // verify's table, one line a check
  // verify's verdicts as it wrote them (`verify --report`): [{check, outcome, detail, file}]; null
  // when verify did not run.
  nlohmann::json checks;
  std::string ninja_log;  // the build tree's .ninja_log (absolute): timeline, slowest targets, trace
  std::string run_dir;    // where run.json, report.html and trace.json are written

  const StepRecord* step(std::string_view name) const;  // the last step of that name, or null
};

void to_json(nlohmann::json& j, const RunRecord& r);
// Throws nlohmann::json::exception on bad input; the message names the field
// ("run.json: steps[2].seconds: expected a number, got a string").
void from_json(const nlohmann::json& j, RunRecord& r);
// run.json's text (2-space indent) and back; parse_run_json throws nlohmann::json::exception.
std::string run_json_text(const RunRecord& r);
RunRecord parse_run_json(std::string_view text);

}  // namespace ts::report
