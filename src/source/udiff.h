#pragma once
// A unified diff (diff -u style, 3 lines of context) of two versions of one file, for --dry-run.
#include <string>

namespace ts::source {

// "" when equal. Headers are "--- a/<name>" and "+++ b/<name>"; a last line without a newline is
// marked "\ No newline at end of file" as diff does, so `patch -p1` applies the output.
std::string unified_diff(const std::string& name, const std::string& before, const std::string& after,
                         int context = 3);

}  // namespace ts::source
