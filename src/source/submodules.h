#pragma once
// The completeness check of a checkout: every submodule .gitmodules names (recursively) is present,
// populated and at the commit its superproject records; and the repair of only the broken ones.
#include <functional>
#include <string>
#include <vector>

#include "source/git.h"

namespace ts::source {

struct SubmoduleState {
  enum class Problem { ok, missing, empty, not_checked_out, wrong_commit, dirty_wrong_commit };
  std::string path;      // relative to the top of the tree: "third_party/fbgemm/third_party/asmjit"
  std::string parent;    // the repository that records it, relative to the top ("" = the top)
  std::string name;      // its name in the parent's .gitmodules
  std::string expected;  // the commit the parent records
  std::string actual;    // its HEAD, when it has one
  Problem problem = Problem::ok;
  std::string describe() const;  // "third_party/lib: at 1234567, the superproject records 89abcde"
};

struct SubmoduleReport {
  // A tree without git metadata (from a release archive): only presence and content are checked
  // (as PyTorch's setup.py does: CMakeLists.txt, Makefile, setup.py or LICENSE*), no commits.
  bool archive = false;
  std::vector<SubmoduleState> modules;
  std::vector<std::string> errors;  // the check itself failed (not a git tree, unreadable .gitmodules)
  bool complete() const;
  std::vector<SubmoduleState> broken() const;
};

// Offline: reads .gitmodules, git ls-tree and each submodule's HEAD (or, in an archive, its files).
SubmoduleReport check_submodules(const std::string& tree, const GitOptions& git);

struct RepairResult {
  bool ok = true;
  SubmoduleReport after;            // the check once repairs are done
  std::vector<std::string> repaired;
  std::vector<std::string> moved_aside;  // half-populated dirs kept under .torchsmith/broken-submodules/
  std::vector<std::string> errors;
};

// Re-initialises only the broken submodules (rounds until nested ones are done or nothing changes).
// A submodule with local changes is never overwritten; a half-populated one is moved aside, not deleted.
RepairResult repair_submodules(const std::string& tree, const GitOptions& git, int retries,
                               const std::function<void(const std::string&)>& progress);

}  // namespace ts::source
