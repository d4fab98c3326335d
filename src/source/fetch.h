#pragma once
// torchsmith fetch: clone (partial where the server allows), check out the ref, bring every
// submodule in recursively with retries, then prove the checkout complete and repair what is not.
// Re-running on an existing clone resumes instead of starting over.
#include <functional>
#include <string>
#include <vector>

#include "source/git.h"
#include "source/spec.h"
#include "source/submodules.h"

namespace ts::source {

struct FetchOptions {
  std::string dir;  // where the tree goes
  GitOptions git;
  int jobs = 8;     // parallel submodule clones
  int retries = 3;  // per network step
  std::function<void(const std::string&)> progress;  // one line per step
};

struct FetchResult {
  bool ok = false;
  bool resumed = false;  // an existing clone was continued
  std::string head;      // the commit checked out
  RepairResult check;    // the completeness check (and repairs)
  std::vector<std::string> errors;
};

FetchResult fetch_source(const SourceSpec& spec, const FetchOptions& options);

// Unpacks a source archive (.tar, .tar.gz, .tar.xz, ...) into dir with tar (argv, no shell); returns
// the tree: dir itself, or its only top-level folder ("pytorch-v2.4.1/"). "" and *error on failure.
std::string extract_archive(const std::string& archive, const std::string& dir, std::string* error);

// The same check and repair on an existing tree (--source DIR), offline unless a repair must fetch.
RepairResult check_and_repair(const std::string& tree, const GitOptions& git, int retries,
                              const std::function<void(const std::string&)>& progress);

}  // namespace ts::source
