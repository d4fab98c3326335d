#pragma once
// Journal: what each step of a build directory's last run did, with the hash of its inputs, so
// `--resume` skips what is done and unchanged, and a torchsmith killed mid-step leaves enough
// behind (the step's process group) for the next run to find and stop its orphans.
#include <optional>
#include <string>
#include <vector>

namespace ts::run {

struct JournalStep {
  std::string name;
  std::string input_hash;
  std::string status;  // "running", "ok", "failed", "interrupted"
  double seconds = 0;
  std::string finished_at;
};

struct Journal {
  std::string plan_hash;
  std::vector<JournalStep> steps;
  int active_pgid = 0;         // the step's process group while it runs; 0 = none
  std::string active_run;      // run id (TORCHSMITH_RUN in the step's environment)

  const JournalStep* find(const std::string& name) const;
  JournalStep& upsert(const std::string& name);
};

// The journal's text and back (parse_journal: as load_journal, path only for the message).
std::string journal_text(const Journal& j);
Journal parse_journal(const std::optional<std::string>& text, const std::string& path, std::string* error);

// Missing file = empty journal; a damaged one is reported in *error and treated as empty (the
// run then redoes every step, which is always safe).
Journal load_journal(const std::string& path, std::string* error);
// Atomic: a kill during the write leaves the previous journal.
std::string save_journal(const std::string& path, const Journal& j);

// sha256 of the parts, each length-prefixed so that ("ab","c") and ("a","bc") differ.
std::string hash_parts(const std::vector<std::string>& parts);

}  // namespace ts::run
