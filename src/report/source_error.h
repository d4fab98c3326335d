#pragma once
// The compiler's error line in a failed run's diagnosis, at the user's own path: an extension is
// compiled from its copy in OUT/src, so "OUT/src/hello_ext.cpp:4" is shown as the file the user
// edits. The summary and report.html both ask this one function.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace ts::report {

struct SourceError {
  std::string file;      // the user's path when in their tree, else the compiler's
  std::string relative;  // within the user's tree ("hello_ext.cpp"); "" when outside it
  std::string compiled;  // the file the compiler read (the copy), for its lines
  int line = 0, column = 0;
  std::string message;   // "expected ';' before '}' token"
  bool in_user_tree() const { return !relative.empty(); }
  std::string where() const;  // "hello_ext.cpp:4" (or the full path:line outside the tree)
};

// The first "FILE:LINE[:COL]: [fatal ]error: MSG" (GCC, clang) or "FILE(LINE): error: MSG" (nvcc)
// among the root cause's evidence lines, then its context; nullopt when there is none.
std::optional<SourceError> source_error(const nlohmann::json& diagnosis, const std::string& source_dir,
                                        const std::string& source_copy);

// Lines line-around .. line+around of a file, numbered from 1; empty when it cannot be read.
std::vector<std::pair<int, std::string>> source_lines(const std::string& path, int line, int around);

}  // namespace ts::report
