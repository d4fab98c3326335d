#pragma once
// Streaming triage of one log: feed bytes as the build prints them (any chunking), then finish().
// Memory stays constant: findings (a few evidence lines each), a partial line capped at kLineCap,
// and a ring of the last few lines for context. Feeding a whole file at once gives the same result
// as feeding it in pieces.
#include <array>
#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "triage/diagnosis.h"
#include "triage/engine.h"

namespace ts::triage {

class Scanner {
 public:
  // record_matches: keep the line number of every line a signature pattern matched (bench/tests).
  // threads: for big chunks (a mapped file slice), candidate lines are found in parallel; the
  // result does not depend on it. 0 = the machine's cores (at most 8), 1 = this thread only.
  explicit Scanner(const Engine& engine, bool record_matches = false, unsigned threads = 0);

  void feed(std::string_view bytes);
  // Ends the log (a last line without '\n' counts) and ranks the findings.
  Diagnosis finish();

  // Whether big chunks re-place the prefilter's probes for the log (on by default), process-wide:
  // bench/triage measures both ways; the findings never depend on it.
  static void set_adapt_prefilter(bool on) { adapt_ = on; }

  std::uint64_t lines() const { return line_no_; }
  std::uint64_t bytes() const { return bytes_; }
  const std::vector<std::uint64_t>& matched_lines() const { return matched_lines_; }

  // Whether finish() may read an unrecognised root's lines joined (a terminal's hard wrap): off in the
  // scan of the joined lines themselves.
  void set_rejoin(bool on) { rejoin_ = on; }

  static constexpr int kBefore = 3;     // context lines kept before a first evidence line
  static constexpr int kAfter = 2;      // and after it
  static constexpr int kReportAfter = 12;  // after a build tool's failure line: the backend's output in its box
  static constexpr int kMaxEvidence = 3;

 private:
  struct After { Finding* f; int left; };
  struct Candidate { const char* line_start; std::uint64_t newlines_before; };  // from the part's start
  static constexpr std::size_t kMinPart = 4 << 20;  // smaller chunks are not worth a thread
  static constexpr std::size_t kWindow = 64 << 10;  // bytes searched before their newlines are counted
  static std::atomic<bool> adapt_;  // set_adapt_prefilter
  // What the prefilter already told, carried between calls: lines with an ESC come before a hit
  // one by one, and searching past them again for each would be quadratic.
  struct Probe {
    const char* hit = nullptr;    // the first literal at or after the last search's start
    const char* clear = nullptr;  // no literal starts before this (a window searched in vain)
  };
  bool next_candidate(const char* pos, const char* e, const char*& ls, std::uint64_t& newlines, Probe& probe) const;
  std::vector<Candidate> candidates(const char* b, const char* e) const;
  void scan_region(const char* b, const char* e);  // whole lines; e is just past a '\n'
  void scan_lines(const char* b, const char* e, const char* region_begin, const std::vector<Candidate>* pre);
  void on_line(std::string_view raw, const char* region_begin);
  void record(Finding& f, std::string_view raw, std::string_view clean, const char* region_begin, const RE2* re);
  void remember_tail(const char* b, const char* e);
  void push_ring(std::uint64_t line, std::string_view raw);
  std::vector<Evidence> before(std::string_view raw, const char* region_begin) const;
  void structural(std::string_view raw, std::string_view clean, const char* region_begin,
                  const std::array<bool, kMarkerCount>& markers, bool wrapper_line);
  bool following() const { return !after_.empty() || tb_active_ || cmake_left_ > 0; }

  const Engine& engine_;
  std::unique_ptr<Prefilter> adapted_;  // the engine's, its probes re-placed for this log (feed)
  const Prefilter* pf_;                 // the one the scan asks: the engine's or adapted_
  bool record_matches_;
  unsigned threads_;
  std::uint64_t line_no_ = 0, bytes_ = 0;
  std::string pending_;            // a line not yet ended by '\n' (its first kLineCap bytes)
  bool pending_open_ = false;
  std::deque<Evidence> ring_;      // the last kBefore lines before the current region
  std::vector<Finding> per_sig_;   // one slot per signature; count 0 = not seen
  std::vector<After> after_;       // findings still collecting after-context
  std::vector<int> hits_;          // RE2::Set scratch
  std::string clean_buf_;
  std::vector<std::uint64_t> matched_lines_;
  std::uint64_t error_lines_ = 0;
  LogFacts facts_;

  // Structural fallbacks for "unrecognised".
  Finding first_failed_, error_after_failed_, first_error_, cmake_block_, traceback_, first_failure_;
  bool tb_active_ = false;
  std::size_t tb_margin_ = 0, cmake_margin_ = 0;  // the block's first line's indentation
  int tb_budget_ = 0;
  int cmake_left_ = 0;
  bool cmake_head_ = false;  // the line before was the CMake Error header: this one is its message
  Evidence tb_last_frame_;
  bool rejoin_ = true;            // set_rejoin
  // The log's last bytes (kTail to 2 * kTail of them), read again joined when the log was hard-wrapped
  // at a console's width and the scan found no known failure (finish); copied per feed, not per line.
  static constexpr std::size_t kTail = 64 << 10;
  std::string tail_;
  bool tb_handled_ = false;       // the traceback in progress is under a logging record at WARNING
  bool failure_is_raise_ = false;  // first_failure_ is a traceback frame's `raise` line, which a later failure line replaces
  std::uint64_t tb_start_ = 0;    // its "Traceback" line
};

// Convenience: one whole buffer (a log already in memory).
Diagnosis diagnose_text(const Engine& engine, std::string_view text);

}  // namespace ts::triage
