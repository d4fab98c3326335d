#pragma once
// Applying fixes to a source tree, and reverting them. All edits are computed in memory first:
// any drift stops the run with nothing written. Then the journal, then each file, atomically.
#include <string>
#include <utility>
#include <vector>

#include "source/fix.h"
#include "source/journal.h"

namespace ts::source {

struct ApplyOptions {
  bool dry_run = false;  // compute and diff, write nothing
};

struct FixReport {
  enum class State { applied, already_applied, failed, no_edits } state = State::applied;
  std::string id, hash;
  std::vector<std::string> messages;  // drift and other errors for this fix
};
std::string_view to_string(FixReport::State s);

struct ApplyResult {
  bool ok = true;
  std::vector<std::string> errors;          // every problem, each naming file and fix
  std::vector<FixReport> fixes;
  std::vector<std::string> changed_files;   // written (or, for a dry run, that would be)
  std::string diff;                         // unified diff of every change
  std::vector<std::pair<std::string, std::string>> env;  // from the fixes, templates filled
  std::vector<std::string> cmake_options;
};

ApplyResult apply_fixes(const std::string& tree, const std::vector<const Fix*>& fixes, const FixContext& ctx,
                        const ApplyOptions& options = {});

struct RevertOptions {
  bool force = false;    // restore files the user changed after torchsmith edited them
  bool dry_run = false;
  const char* journal = kJournalRel;  // kPortJournalRel: the source ports' edits only
};

struct RevertResult {
  bool ok = true;
  bool had_journal = false;
  std::vector<std::string> restored;   // written back to their original bytes
  std::vector<std::string> unchanged;  // already original
  std::vector<std::string> refused;    // changed by the user since; kept (use force)
  std::vector<std::string> errors;
  std::string diff;                    // what restoring changes
};

RevertResult revert_fixes(const std::string& tree, const RevertOptions& options = {});

}  // namespace ts::source
