#pragma once
// `torchsmith index DIR`: a local conda channel (DIR/<subdir>/repodata.json, linux-64 and noarch
// always present) and a PEP 503 simple index for pip (DIR/simple/) over the wheels found in DIR.
// Every file written atomically; the same DIR gives the same bytes (idempotent); a corrupt package
// is left out and named, the rest are still indexed.
#include <string>
#include <vector>

namespace ts::package {

struct IndexProblem {
  std::string file;   // the package or wheel, as found under DIR
  std::string error;  // what is wrong and the way out
};

struct IndexResult {
  std::string fatal;                   // DIR unusable: nothing was written
  std::vector<std::string> written;    // repodata.json and index.html files
  std::vector<IndexProblem> problems;  // corrupt or misplaced files, left out of the index
  int conda_packages = 0, wheels = 0;  // indexed
  std::vector<std::string> notes;
  int exit_code() const { return !fatal.empty() || !problems.empty() ? 2 : 0; }
};

IndexResult build_index(const std::string& dir);

// The two halves, each adding to `r` (channel.h / simple_index.h hold their helpers).
void index_conda_channel(const std::string& dir, IndexResult& r);
void index_wheels(const std::string& dir, IndexResult& r);

}  // namespace ts::package
