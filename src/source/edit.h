#pragma once
// One anchored edit on a file's text: exactly one anchor match or "upstream drifted"; an edit whose
// result is already there is recognised, so applying twice changes nothing.
#include <string>
#include <vector>

#include "source/fix.h"

namespace ts::source {

struct EditOutcome {
  enum class Status { applied, already_applied, drifted } status = Status::drifted;
  std::string content;  // the new text (applied) or the input (otherwise)
  std::size_t matches = 0;
  std::string message;  // for drifted: "upstream drifted: FILE: anchor '...' matched N times"
};

// text is the edit's text with any template already filled.
EditOutcome apply_edit(const std::string& content, const FileEdit& edit, const std::string& text);

// Where the anchor matches: [begin, end) byte ranges, in order (overlapping exact matches counted).
// A regex anchor is RE2 syntax, ^ and $ at line ends; its span is the whole match, or the group
// named "at" when it has one ('(?P<at>\+ cc_flag)\n[ \t]*\),': the context RE2 has no lookahead for).
std::vector<std::pair<std::size_t, std::size_t>> anchor_matches(const std::string& content, const FileEdit& edit);

// "" when `anchor` compiles as an anchor regex, else RE2's reason.
std::string anchor_regex_problem(const std::string& anchor);

// The anchor as people read it in a message: first line, at most 60 characters.
std::string anchor_preview(const std::string& anchor);

}  // namespace ts::source
