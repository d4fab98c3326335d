#pragma once
// What a log line is before patterns see it. One definition for the fast path and the streaming
// path so both give the same answers: the first kLineCap bytes of the raw line, a trailing '\r'
// dropped, ANSI escape sequences (colour, erase-line) removed, a Markdown quote's "> ", a log
// collector's or CI runner's prefix ("#12 3.456 " from docker BuildKit, journald's "Oct 04 13:19:39 host
// unit[394]: ", glog's "E0205 09:51:38.047000 18628 file.py:810] ", an ISO time from GitHub Actions,
// Jenkins or kubectl --timestamps, GitLab's with its stream tag "01E ", kubectl --prefix's
// "[pod/NAME/CONTAINER] ") and a distributed launcher's rank prefix ("[rank3]: ", "[default0]:") dropped;
// a line that is the frame's own (a Markdown code fence, GitLab's section marker) reads as empty. How the
// log arrived must not change what it says (bench_triage_real --frames measures it). Bytes are Latin-1
// to RE2, so invalid UTF-8 and binary junk are just bytes.
#include <cstddef>
#include <string>
#include <string_view>

namespace ts::triage {

inline constexpr std::size_t kLineCap = 16 * 1024;  // longer lines are matched on their head
inline constexpr std::size_t kEvidenceCap = 400;     // bytes of a line kept as evidence/context

// Writes the sanitised form of `raw` (already capped by the caller) into `out`; returns a view of
// `raw` itself when no escape sequence had to go (the common case: no allocation).
std::string_view sanitize_line(std::string_view raw, std::string& out);

// A line as kept in a report: sanitised, capped at kEvidenceCap, control bytes shown as '?'.
std::string printable_line(std::string_view raw);

}  // namespace ts::triage
