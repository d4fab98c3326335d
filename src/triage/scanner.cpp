#include "triage/scanner.h"

#include <algorithm>
#include <cstring>
#include <thread>
#include <utility>
#if defined(__x86_64__)
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <re2/re2.h>

#include "triage/entity.h"
#include "triage/grammar.h"
#include "triage/line.h"
#include "triage/rank.h"

namespace ts::triage {
namespace {

std::uint64_t count_newlines(const char* b, const char* e) {
  std::uint64_t n = 0;
#if defined(__SSE2__)
  // cmpeq gives -1 per '\n': subtract into byte counters, sum them with SAD before they wrap.
  const __m128i nl = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();
  while (e - b >= 16) {
    __m128i acc = zero;
    int rounds = static_cast<int>(std::min<std::ptrdiff_t>((e - b) / 16, 255));
    for (int i = 0; i < rounds; ++i, b += 16)
      acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(b)), nl));
    __m128i sum = _mm_sad_epu8(acc, zero);
    n += static_cast<std::uint64_t>(_mm_cvtsi128_si64(sum)) + static_cast<std::uint64_t>(_mm_extract_epi16(sum, 4));
  }
#endif
  for (; b < e; ++b) n += *b == '\n';
  return n;
}

#if defined(__x86_64__)
// count_to_esc's loop 32 bytes at a time (CPUs with AVX2); stops before the block with an ESC.
__attribute__((target("avx2"))) const char* count_to_esc_avx2(const char* b, const char* e, std::uint64_t& n) {
  const __m256i nl = _mm256_set1_epi8('\n'), esc = _mm256_set1_epi8(0x1b), zero = _mm256_setzero_si256();
  while (e - b >= 32) {
    __m256i acc = zero;
    int rounds = static_cast<int>(std::min<std::ptrdiff_t>((e - b) / 32, 255));
    int i = 0;
    for (; i < rounds; ++i, b += 32) {
      __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b));
      if (_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, esc))) break;
      acc = _mm256_sub_epi8(acc, _mm256_cmpeq_epi8(v, nl));
    }
    __m256i sum = _mm256_sad_epu8(acc, zero);
    n += static_cast<std::uint64_t>(_mm256_extract_epi64(sum, 0) + _mm256_extract_epi64(sum, 1) +
                                    _mm256_extract_epi64(sum, 2) + _mm256_extract_epi64(sum, 3));
    if (i < rounds) break;
  }
  return b;
}

bool has_avx2() {
  static const bool yes = __builtin_cpu_supports("avx2");
  return yes;
}
#endif

// Counts '\n' in [b, e) up to the first ESC (colour codes can split a literal, so a line with one
// is always checked); returns that ESC's position, or e. One pass does both jobs.
const char* count_to_esc(const char* b, const char* e, std::uint64_t& n) {
#if defined(__x86_64__)
  if (has_avx2()) b = count_to_esc_avx2(b, e, n);  // the rest (a tail, an ESC block) below
#endif
#if defined(__SSE2__)
  const __m128i nl = _mm_set1_epi8('\n'), esc = _mm_set1_epi8(0x1b), zero = _mm_setzero_si128();
  while (e - b >= 16) {
    __m128i acc = zero;
    int rounds = static_cast<int>(std::min<std::ptrdiff_t>((e - b) / 16, 255));
    int i = 0;
    for (; i < rounds; ++i, b += 16) {
      __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b));
      if (_mm_movemask_epi8(_mm_cmpeq_epi8(v, esc))) break;
      acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(v, nl));
    }
    __m128i sum = _mm_sad_epu8(acc, zero);
    n += static_cast<std::uint64_t>(_mm_cvtsi128_si64(sum)) + static_cast<std::uint64_t>(_mm_extract_epi16(sum, 4));
    if (i < rounds) break;  // an ESC in this block: finish byte by byte
  }
#endif
  for (; b < e; ++b) {
    if (*b == 0x1b) return b;
    n += *b == '\n';
  }
  return e;
}

const char* line_start(const char* c, const char* lo) {
  while (c > lo && c[-1] != '\n') --c;
  return c;
}

std::vector<std::string> captures_of(const RE2& re, std::string_view s) {
  int n = re.NumberOfCapturingGroups();
  if (n <= 0) return {};
  std::vector<re2::StringPiece> groups(static_cast<std::size_t>(n) + 1);
  if (!re.Match(re2::StringPiece(s.data(), s.size()), 0, s.size(), RE2::UNANCHORED, groups.data(), n + 1)) return {};
  std::vector<std::string> out;
  for (int i = 1; i <= n; ++i) out.emplace_back(groups[i].data() ? std::string(groups[i].data(), groups[i].size()) : "");
  return out;
}

bool indented_or_blank(std::string_view s) { return s.empty() || s[0] == ' ' || s[0] == '\t'; }

// Leading spaces of a line; a block's margin when its first line is indented (pip's output).
std::size_t margin(std::string_view s) {
  std::size_t n = 0;
  while (n < s.size() && s[n] == ' ') ++n;
  return n;
}

// The line with the block's margin taken off; a line with less indentation stays as it is.
std::string_view within_margin(std::string_view s, std::size_t m) {
  return margin(s) >= m ? s.substr(std::min(m, s.size())) : s;
}

}  // namespace

Scanner::Scanner(const Engine& engine, bool record_matches, unsigned threads)
    : engine_(engine), pf_(&engine.prefilter()), record_matches_(record_matches),
      threads_(threads ? threads : std::max(1u, std::min(8u, std::thread::hardware_concurrency()))),
      per_sig_(engine.set().signatures.size()) {}

std::atomic<bool> Scanner::adapt_{true};

void Scanner::feed(std::string_view bytes) {
  bytes_ += bytes.size();
  if (rejoin_) {
    std::string_view last = bytes.substr(bytes.size() - std::min(bytes.size(), kTail));
    tail_.append(last);
    if (tail_.size() > 2 * kTail) tail_.erase(0, tail_.size() - kTail);
  }
  // The first big chunk (a mapped slice, a 4 MiB read) re-places the prefilter's probes for this
  // log; small feeds (a live build's lines) keep the engine's.
  if (!adapted_ && bytes.size() >= kMinPart && adapt_ && !engine_.prefilter().match_all()) {
    adapted_ = std::make_unique<Prefilter>(engine_.prefilter());
    adapted_->adapt(bytes);
    pf_ = adapted_.get();
  }
  const char* p = bytes.data();
  const char* e = p + bytes.size();
  if (pending_open_) {
    const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(e - p)));
    const char* upto = nl ? nl : e;
    std::size_t room = kLineCap - std::min(kLineCap, pending_.size());
    pending_.append(p, std::min<std::size_t>(room, static_cast<std::size_t>(upto - p)));
    if (!nl) return;
    ++line_no_;
    on_line(pending_, pending_.data());
    push_ring(line_no_, pending_);
    pending_.clear();
    pending_open_ = false;
    p = nl + 1;
  }
  if (p == e) return;
  const char* last_nl = static_cast<const char*>(memrchr(p, '\n', static_cast<std::size_t>(e - p)));
  if (last_nl) {
    scan_region(p, last_nl + 1);
    remember_tail(p, last_nl + 1);
    p = last_nl + 1;
  }
  if (p < e) {
    pending_.assign(p, std::min<std::size_t>(kLineCap, static_cast<std::size_t>(e - p)));
    pending_open_ = true;
  }
}

// The next line at or after `pos` that the patterns could match: it holds a prefilter literal, or
// an ESC. Sets `ls` to its start and adds the newlines in [pos, ls) to `n`; false when none.
bool Scanner::next_candidate(const char* pos, const char* e, const char*& ls, std::uint64_t& n, Probe& probe) const {
  const Prefilter& pf = *pf_;
  if (pf.match_all()) { ls = pos; return pos < e; }
  // The first hit at or after an earlier pos is still the first at or after this one.
  while (!probe.hit || probe.hit < pos) {
    if (probe.clear > pos) {  // no literal before `clear`: only lines with an ESC are candidates
      std::uint64_t k = 0;
      const char* x = count_to_esc(pos, probe.clear, k);
      n += k;
      if (x < probe.clear) { ls = line_start(x, pos); return true; }
      pos = probe.clear;
      continue;
    }
    // Search a window of whole lines, then count its newlines while its bytes are still in cache
    // (a 1 GB log read twice from memory is slower than once). An occurrence starting in the
    // window ends within `longest` bytes after it, so the search runs that far.
    const char* we = e;
    if (static_cast<std::size_t>(e - pos) > kWindow) {
      const char* nl = static_cast<const char*>(std::memchr(pos + kWindow, '\n', static_cast<std::size_t>(e - pos) - kWindow));
      we = nl ? nl + 1 : e;
    }
    const char* se = static_cast<std::size_t>(e - we) > pf.longest() ? we + pf.longest() : e;
    const char* h = pf.find(pos, se);
    if (h < we || we == e) { probe.hit = h < se ? h : e; break; }
    probe.clear = we;
  }
  const char* hit_line = probe.hit < e ? line_start(probe.hit, pos) : e;
  std::uint64_t k = 0;
  const char* x = count_to_esc(pos, hit_line, k);
  n += k;
  if (x < hit_line) {  // an earlier line has an ESC: that one first
    ls = line_start(x, pos);
    return true;
  }
  ls = hit_line;
  return probe.hit < e;
}

std::vector<Scanner::Candidate> Scanner::candidates(const char* b, const char* e) const {
  std::vector<Candidate> out;
  const char* pos = b;
  std::uint64_t nl_count = 0;
  const char* ls = nullptr;
  Probe probe;
  while (pos < e && next_candidate(pos, e, ls, nl_count, probe)) {
    out.push_back({ls, nl_count});
    pos = static_cast<const char*>(std::memchr(ls, '\n', static_cast<std::size_t>(e - ls))) + 1;
    ++nl_count;
  }
  return out;
}

void Scanner::scan_lines(const char* b, const char* e, const char* region_begin, const std::vector<Candidate>* pre) {
  const std::uint64_t base = line_no_;  // lines before b
  const char* pos = b;
  Probe probe;
  std::size_t next = 0;
  while (pos < e) {
    if (following()) {  // lines after a first evidence, a traceback, a CMake error: one by one
      const char* nl = static_cast<const char*>(std::memchr(pos, '\n', static_cast<std::size_t>(e - pos)));
      ++line_no_;
      on_line(std::string_view(pos, static_cast<std::size_t>(nl - pos)), region_begin);
      pos = nl + 1;
      continue;
    }
    const char* ls;
    if (pre) {  // candidates found by a worker thread, with their line offsets
      while (next < pre->size() && (*pre)[next].line_start < pos) ++next;
      if (next == pre->size()) {
        line_no_ += count_newlines(pos, e);
        break;
      }
      ls = (*pre)[next].line_start;
      line_no_ = base + (*pre)[next].newlines_before + 1;
    } else {
      std::uint64_t n = 0;
      bool found = next_candidate(pos, e, ls, n, probe);
      line_no_ += n;
      if (!found) break;
      ++line_no_;
    }
    const char* nl = static_cast<const char*>(std::memchr(ls, '\n', static_cast<std::size_t>(e - ls)));
    on_line(std::string_view(ls, static_cast<std::size_t>(nl - ls)), region_begin);
    pos = nl + 1;
  }
}

// Big regions (a mapped slice of a file): workers find the candidate lines of all parts but the
// first while this thread scans the first; then the parts are processed in order. The result is
// the sequential one: workers only precompute what next_candidate would have returned.
void Scanner::scan_region(const char* b, const char* e) {
  std::size_t parts = std::min<std::size_t>(threads_, static_cast<std::size_t>(e - b) / kMinPart);
  if (parts < 2) { scan_lines(b, e, b, nullptr); return; }
  std::vector<const char*> cut{b};
  for (std::size_t i = 1; i < parts; ++i) {
    const char* at = b + (e - b) * static_cast<std::ptrdiff_t>(i) / static_cast<std::ptrdiff_t>(parts);
    if (at <= cut.back()) continue;
    const char* nl = static_cast<const char*>(std::memchr(at, '\n', static_cast<std::size_t>(e - at)));
    if (!nl || nl + 1 >= e) break;
    cut.push_back(nl + 1);
  }
  cut.push_back(e);
  std::vector<std::vector<Candidate>> found(cut.size() - 1);
  std::vector<std::thread> workers;
  for (std::size_t i = 1; i + 1 < cut.size(); ++i)
    workers.emplace_back([&, i] { found[i] = candidates(cut[i], cut[i + 1]); });
  scan_lines(cut[0], cut[1], b, nullptr);
  for (std::size_t i = 1; i + 1 < cut.size(); ++i) {
    workers[i - 1].join();
    scan_lines(cut[i], cut[i + 1], b, &found[i]);
  }
}

void Scanner::on_line(std::string_view raw, const char* region_begin) {
  std::string_view clean = sanitize_line(raw, clean_buf_);
  hits_.clear();
  if (pf_->may_match(clean)) engine_.regex_set().Match(re2::StringPiece(clean.data(), clean.size()), &hits_);
  std::array<bool, kMarkerCount> markers{};
  bool wrapper_line = false, any_sig = false;
  int last_sig = -1;
  for (int idx : hits_) {
    const PatternRef& r = engine_.ref(idx);
    if (r.kind == PatternRef::signature) {
      any_sig = true;
      const Signature& s = engine_.set().signatures[static_cast<std::size_t>(r.owner)];
      wrapper_line |= s.severity == Severity::wrapper;
      if (r.owner == last_sig) continue;  // several patterns of one signature: one line, counted once
      last_sig = r.owner;
      Finding& f = per_sig_[static_cast<std::size_t>(r.owner)];
      if (f.count == 0) { f.id = s.id; f.sig = &s; }
      record(f, raw, clean, region_begin, &engine_.regex(idx));
    } else if (r.kind == PatternRef::log_fact) {
      const std::string& name = engine_.set().log_facts[static_cast<std::size_t>(r.owner)].name;
      if (name == "build_step" || name == "torch_preload") {  // the first 63 and the latest, and the one nearest the end
        auto& lines = name == "build_step" ? facts_.build_steps : facts_.torch_preloads;
        if (!lines.empty() && lines.back() == line_no_) continue;
        if (lines.size() < 64) lines.push_back(line_no_);
        else lines.back() = line_no_;
        continue;
      }
      if (name == "cuda_compiler_absent") {
        if (facts_.cuda_compiler_absent == 0) facts_.cuda_compiler_absent = line_no_;
        continue;
      }
      std::string* slot = name == "cuda_version" ? &facts_.cuda_version
                          : name == "cxx_compiler" ? &facts_.cxx_compiler : &facts_.arch_list;
      if (slot->empty()) {
        auto c = captures_of(engine_.regex(idx), clean);
        if (!c.empty()) *slot = c[0].substr(0, 200);
      }
    } else {
      markers[static_cast<std::size_t>(r.owner)] = true;
    }
  }
  if (any_sig && record_matches_) matched_lines_.push_back(line_no_);

  // After-context for findings recorded on earlier lines.
  for (auto it = after_.begin(); it != after_.end();) {
    if (it->f->context.empty() || it->f->context.back().line != line_no_)
      it->f->context.push_back({line_no_, printable_line(raw)});
    if (--it->left <= 0) it = after_.erase(it);
    else ++it;
  }
  structural(raw, clean, region_begin, markers, wrapper_line);
}

void Scanner::record(Finding& f, std::string_view raw, std::string_view clean, const char* region_begin, const RE2* re) {
  if (f.count++ == 0) {
    f.context = before(raw, region_begin);
    f.context.push_back({line_no_, printable_line(raw)});
    if (re) f.captures = captures_of(*re, clean);
    // A re-recorded finding may already be in after_; the slots are per finding, so check.
    bool queued = false;
    for (auto& a : after_) queued |= a.f == &f;
    if (!queued) after_.push_back({&f, kAfter + 1});  // +1: this line is visited by the loop too
  }
  // A signature whose first line names no value (clang's "no member named X") takes the captures of
  // a later line that does (GCC's note naming the header), for the remedy.
  else if (re && f.captures.empty() && f.count <= 16 && re->NumberOfCapturingGroups() > 0)
    f.captures = captures_of(*re, clean);
  if (f.evidence.size() < kMaxEvidence) f.evidence.push_back({line_no_, printable_line(raw)});
}

// A log record at WARNING as Python's logging handlers print it: the default format ("WARNING:xformers:
// msg", logging/__init__.py BASIC_FORMAT), rich's ("WARNING  msg   __init__.py:61"), loguru-style columns
// ("WARNING | xformers | msg") and "<time> - WARNING - msg". Upper case: a compiler's "warning:" is none.
static bool warning_record(std::string_view line) {
  static const RE2 kRecord(R"(^\s*(?:\[?[\d:., /-]+\]?\s*(?:-\s*)?)?WARN(?:ING)?(?::[\w.]*:|\s+[|-]\s|\s{2,}\S))");
  return RE2::PartialMatch(re2::StringPiece(line.data(), line.size()), kRecord);
}

void Scanner::structural(std::string_view raw, std::string_view clean, const char* region_begin,
                         const std::array<bool, kMarkerCount>& markers, bool wrapper_line) {
  // A Python traceback ends at its first line no more indented than "Traceback" itself: the
  // exception (pip indents a whole build's output, so the block's own margin is the baseline).
  bool handled_end = false;  // this line ends a traceback the program logged at WARNING and went on from
  if (tb_active_) {
    std::string_view body = within_margin(clean, tb_margin_);
    if (body.rfind("  File \"", 0) == 0) tb_last_frame_ = {line_no_, printable_line(raw)};
    if (!indented_or_blank(body) && !markers[static_cast<std::size_t>(Marker::traceback)]) {
      tb_active_ = false;
      handled_end = tb_handled_;
      if (tb_handled_ && facts_.handled_tracebacks.size() < 64) facts_.handled_tracebacks.push_back({tb_start_, line_no_});
      if (traceback_.count == 0 && !wrapper_line && !tb_handled_) {  // "CalledProcessError" only says a child failed
        traceback_.id = "unrecognised";
        if (!tb_last_frame_.text.empty()) traceback_.evidence.push_back(tb_last_frame_);
        record(traceback_, raw, clean, region_begin, nullptr);
        traceback_.count = 1;
      }
    } else if (--tb_budget_ <= 0) {
      tb_active_ = false;
    }
  }
  if (cmake_left_ > 0) {
    --cmake_left_;
    // CMake prints its message on the line under the header, indented; a copy that lost the indentation
    // (a forum's quote) still has the message there, so that one line stays in the block.
    bool message = std::exchange(cmake_head_, false) && !clean.empty();
    if (!message && !indented_or_blank(within_margin(clean, cmake_margin_)) && !markers[static_cast<std::size_t>(Marker::cmake_error)])
      cmake_left_ = 0;
    else if (!clean.empty() && cmake_block_.evidence.size() < 8 && cmake_block_.count == 1)
      cmake_block_.evidence.push_back({line_no_, printable_line(raw)});
  }
  if (markers[static_cast<std::size_t>(Marker::traceback)]) {
    tb_active_ = true;
    // Right under a logging record at WARNING: an exception the program caught, logged and went on from.
    std::vector<Evidence> above = before(raw, region_begin);
    tb_handled_ = !above.empty() && above.back().line + 1 == line_no_ && warning_record(above.back().text);
    tb_start_ = line_no_;
    tb_margin_ = margin(clean);
    tb_budget_ = 400;
    tb_last_frame_ = {};
  }
  if (markers[static_cast<std::size_t>(Marker::cmake_error)]) {
    ++error_lines_;
    if (cmake_block_.count == 0) {
      cmake_margin_ = margin(clean);
      cmake_block_.id = "unrecognised";
      record(cmake_block_, raw, clean, region_begin, nullptr);
      cmake_left_ = 12;
      cmake_head_ = true;
    }
  }
  if (markers[static_cast<std::size_t>(Marker::failed_target)] && first_failed_.count == 0) {
    first_failed_.id = "unrecognised";
    record(first_failed_, raw, clean, region_begin, nullptr);
  }
  // A frame's `raise` line (grammar.h) right under its `File "..."` line stands for a traceback cut before its
  // exception line: any later failure line is the failure's own report and takes its place.
  const bool failure_line = markers[static_cast<std::size_t>(Marker::failure_line)] && !wrapper_line && !handled_end;
  bool raise_line = false;
  if (markers[static_cast<std::size_t>(Marker::frame_raise)] && !failure_line && !wrapper_line) {
    std::vector<Evidence> above = before(raw, region_begin);
    raise_line = !above.empty() && above.back().line + 1 == line_no_ && above.back().text.find("File \"") != std::string::npos;
  }
  if (failure_line && failure_is_raise_) {
    first_failure_ = Finding{};
    for (auto& a : after_)
      if (a.f == &first_failure_) a.left = kAfter + 1;
    failure_is_raise_ = false;
  }
  if ((failure_line || raise_line) && first_failure_.count == 0) {
    failure_is_raise_ = raise_line;
    first_failure_.id = "unrecognised";
    record(first_failure_, raw, clean, region_begin, nullptr);
    // A package build's failure as pip and uv report it (uv's "x Failed to build", pip's "Getting requirements
    // to build wheel ... error") is followed by the backend's own output, indented in the tool's box: that
    // report is the failure's message, so it is kept as context for the entity rules (entity.h). Once a log.
    auto line = read_failure_line(clean);
    if (line && std::string_view(line->grammar->phase) == "build")
      for (auto& a : after_)
        if (a.f == &first_failure_) a.left = kReportAfter + 1;
  }
  if (markers[static_cast<std::size_t>(Marker::compiler_error)]) {
    ++error_lines_;
    if (!wrapper_line) {
      if (first_error_.count == 0) { first_error_.id = "unrecognised"; record(first_error_, raw, clean, region_begin, nullptr); }
      else ++first_error_.count;
      if (first_failed_.count > 0) {
        if (error_after_failed_.count == 0) { error_after_failed_.id = "unrecognised"; record(error_after_failed_, raw, clean, region_begin, nullptr); }
        else ++error_after_failed_.count;
      }
    }
  }
}

std::vector<Evidence> Scanner::before(std::string_view raw, const char* region_begin) const {
  std::vector<Evidence> out;  // nearest first, reversed at the end
  std::uint64_t line = line_no_;
  const char* cur = raw.data();
  // Lines of the current region first (a pending line is its own region: it goes to the ring)...
  while (static_cast<int>(out.size()) < kBefore && cur > region_begin) {
    const char* end = cur - 1;  // the '\n' ending the previous line
    const char* start = line_start(end, region_begin);
    out.push_back({--line, printable_line(std::string_view(start, static_cast<std::size_t>(end - start)))});
    cur = start;
  }
  // ...then the ring of lines from earlier feeds, while they are contiguous.
  for (auto it = ring_.rbegin(); it != ring_.rend() && static_cast<int>(out.size()) < kBefore; ++it)
    if (it->line + 1 == line) { out.push_back(*it); --line; }
  std::reverse(out.begin(), out.end());
  return out;
}

void Scanner::push_ring(std::uint64_t line, std::string_view raw) {
  ring_.push_back({line, printable_line(raw)});
  while (ring_.size() > static_cast<std::size_t>(kBefore)) ring_.pop_front();
}

void Scanner::remember_tail(const char* b, const char* e) {
  // The last kBefore lines of [b, e) (e is just past a '\n'), oldest first.
  std::vector<std::string_view> tail;
  const char* cur = e;
  while (static_cast<int>(tail.size()) < kBefore && cur > b) {
    const char* end = cur - 1;
    const char* start = line_start(end, b);
    tail.emplace_back(start, static_cast<std::size_t>(end - start));
    cur = start;
  }
  std::uint64_t line = line_no_ - tail.size();
  for (auto it = tail.rbegin(); it != tail.rend(); ++it) push_ring(++line, *it);
}

// An unrecognised root read again as `text`: a known error there is the cause, with `why` as a note.
static bool adopt_reading(const Engine& engine, Finding& f, const std::string& text, const std::string& why) {
  Scanner again(engine, false, 1);
  again.set_rejoin(false);
  again.feed(text);
  Diagnosis j = again.finish();
  if (!j.known() || !j.failed()) return false;
  const Finding& r = *j.root();
  f.id = r.id;
  f.sig = r.sig;
  f.severity = r.severity;
  f.phase = r.phase;
  f.captures = r.captures;
  f.cause = r.cause;
  f.fix = r.fix;
  f.remedy = r.remedy;
  f.notes.insert(f.notes.begin(), why + r.id);
  f.notes.insert(f.notes.begin() + 1, r.notes.begin(), r.notes.end());  // what the reading reasoned (a table it cited)
  return true;
}

// An unrecognised root whose lines a terminal hard-wrapped (a console copied at its width cuts a
// failure line mid-word, "... is different \nthan the directory ...") is read again with each line of
// 80+ bytes joined to the next one in its context: a known error there is the cause.
void rejoin_wrapped(const Engine& engine, Diagnosis& d) {
  if (d.findings.empty() || !d.root() || d.root()->sig) return;
  Finding& f = d.findings.front();
  std::string joined, as_is;
  bool wrapped = false;
  for (std::size_t i = 0; i < f.context.size(); ++i) {
    const auto& c = f.context[i];
    if (c.line < f.first_line()) continue;  // from the failure line on
    joined += c.text;
    as_is += c.text + '\n';
    bool next = i + 1 < f.context.size() && f.context[i + 1].line == c.line + 1;
    if (next && c.text.size() >= 80 && c.text.size() < kEvidenceCap) wrapped = true;
    else joined += '\n';
  }
  if (!wrapped) return;
  // Lines an entity rule reads as they are (a long `identifier "cusparseSgthr" is undefined` line that
  // was never wrapped) are not the wrap's: the entity rules after this name the cause without the note.
  Scanner plain(engine, false, 1);
  plain.set_rejoin(false);
  plain.feed(as_is);
  if (Diagnosis p = plain.finish(); p.known() && p.failed()) return;
  adopt_reading(engine, f, joined,
                "the failure's lines are cut at the terminal's width (a line of 80+ bytes continued "
                "mid-word on the next): read joined, they are ");
}

// A Python exception whose message begins on the next line ("RuntimeError: " alone, then the message
// indented under it: CPython prints str(exc) as it is, and a message written as a block starts with a
// newline). An unrecognised one is read again as one line: the exception, then each line under it indented
// deeper than it, joined by one space, up to the first blank or less indented line.
static void rejoin_exception_message(const Engine& engine, Diagnosis& d) {
  if (d.findings.empty() || !d.root() || d.root()->sig) return;
  Finding& f = d.findings.front();
  if (f.evidence.empty()) return;
  static const RE2 kAlone(R"(^\s*(?:[A-Za-z_][\w.]*\.)?[A-Z]\w*(?:Error|Exception):\s*$)");
  const std::string& head = f.evidence.back().text;
  if (!RE2::FullMatch(head, kAlone)) return;
  std::string joined = head.substr(0, head.find_last_not_of(" \t") + 1);
  const std::size_t margin = head.find_first_not_of(" \t");  // pip indents a whole box: the message is deeper
  std::uint64_t line = f.evidence.back().line;
  for (const auto& c : f.context) {
    if (c.line <= line) continue;
    std::size_t b = c.text.find_first_not_of(" \t");
    if (c.line != line + 1 || b == std::string::npos || b <= margin) break;
    joined += ' ';
    joined += c.text.substr(b);
    line = c.line;
  }
  if (line == f.evidence.back().line) return;
  adopt_reading(engine, f, joined + "\n", "the exception's message begins on the lines under it; read as one line, it is ");
}

// CMake prints a message under its "CMake Error at FILE:LINE (message):" / "CMake Error in FILE:" line,
// indented and wrapped at its own width, so the sentence that names the cause is not on the header's line
// ("CMake Error in tests/CMakeLists.txt:" / "  CUDA_ARCHITECTURES is empty for target \"t\"."). An
// unrecognised CMake Error block is read again as one line: the header, then each indented line of its
// message, blank-separated words joined by one space.
static void rejoin_cmake_message(const Engine& engine, Diagnosis& d) {
  if (d.findings.empty() || !d.root() || d.root()->sig) return;
  Finding& f = d.findings.front();
  if (f.evidence.size() < 2) return;
  auto trimmed = [](std::string_view t) {
    std::size_t b = t.find_first_not_of(" \t");
    return b == std::string_view::npos ? std::string_view{} : t.substr(b);
  };
  const std::string_view head = trimmed(f.evidence.front().text);
  if (head.substr(0, 11) != "CMake Error") return;
  const std::size_t margin = f.evidence.front().text.size() - head.size();
  std::string joined(head);
  std::uint64_t line = f.evidence.front().line;
  for (std::size_t i = 1; i < f.evidence.size(); ++i) {
    const auto& e = f.evidence[i];
    const std::string_view t = trimmed(e.text);
    // the message's own lines only: indented past the header, the next lines of the log (a blank line
    // between paragraphs was not kept, so a gap of one line is allowed)
    if (t.empty() || e.text.size() - t.size() <= margin || e.line > line + 2) break;
    joined += ' ';
    joined += t;
    line = e.line;
  }
  if (line == f.evidence.front().line) return;
  adopt_reading(engine, f, joined + "\n", "CMake's message under its \"CMake Error\" line, read as one line, is ");
}

// A log a console hard-wrapped at its width W: every longer line was cut into pieces of exactly W bytes,
// so W is the longest line's length and the cut lines are those of exactly that length. When the scan
// found no known failure, the log's tail is read again with each line of that length (80+) joined to the
// next: a known failure there is the root, its lines mapped back to the log's. `first_line` is the
// number of the tail's first whole line.
static void reread_hard_wrapped(const Engine& engine, std::string_view tail, bool cut, std::uint64_t total_lines,
                                Diagnosis& d) {
  std::vector<std::string_view> lines;
  for (std::size_t at = 0; at < tail.size();) {
    std::size_t nl = tail.find('\n', at);
    std::size_t end = nl == std::string_view::npos ? tail.size() : nl;
    std::string_view l = tail.substr(at, end - at);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    lines.push_back(l);
    at = end + 1;
  }
  if (cut && !lines.empty()) lines.erase(lines.begin());  // the tail starts mid-line
  std::size_t width = 0, at_width = 0;
  for (auto l : lines) width = std::max(width, l.size());
  for (auto l : lines) at_width += l.size() == width;
  if (width < 80 || width >= kEvidenceCap || at_width == 0 || lines.size() < 2) return;
  // A log the plain reading found findings in but no failure (a traceback logged at WARNING, warnings)
  // went on: one longest line is then no sign of a cut (it may be the record above the traceback).
  if (at_width < 2 && !d.findings.empty() && !d.failed()) return;
  const std::uint64_t first_line = total_lines >= lines.size() ? total_lines - lines.size() + 1 : 1;
  // A known failure is read again where its own line was cut (that line, or the one before it, is as long
  // as the width: the error's words may go on, or have begun, on the other piece), or where a line above it
  // was: an earlier error cut mid-word reads as none, and the later one stood in for it; then only an
  // earlier failure found joined replaces it.
  std::uint64_t earlier_than = 0;
  if (d.known() && d.failed()) {
    const std::uint64_t l = d.root()->first_line();
    if (l < first_line || l - first_line >= lines.size()) return;
    const std::size_t i = static_cast<std::size_t>(l - first_line);
    if (lines[i].size() != width && (i == 0 || lines[i - 1].size() != width)) {
      bool cut_above = false;
      for (std::size_t k = 0; k + 1 < i && !cut_above; ++k) cut_above = lines[k].size() == width;
      if (!cut_above) return;
      earlier_than = l;
    }
  }
  std::string joined, frame_buf;
  std::vector<std::uint64_t> origin;  // joined line (0-based) -> the log's line where it starts
  bool any = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (i == 0 || lines[i - 1].size() != width) origin.push_back(first_line + i);
    joined += lines[i];
    // A line that is the frame's own (a fence, a section marker: empty as patterns see it) continues no line.
    if (lines[i].size() == width && i + 1 < lines.size() && !sanitize_line(lines[i + 1], frame_buf).empty()) any = true;
    else joined += '\n';
  }
  if (!any) return;
  Scanner again(engine, false, 1);
  again.set_rejoin(false);
  again.feed(joined);
  Diagnosis j = again.finish();
  if (!j.known() || !j.failed()) return;
  Finding r = *j.root();
  auto map = [&](std::vector<Evidence>& v) {
    for (auto& e : v) e.line = e.line >= 1 && e.line <= origin.size() ? origin[e.line - 1] : e.line;
  };
  map(r.evidence);
  map(r.context);
  if (earlier_than && r.first_line() >= earlier_than) return;
  r.notes.insert(r.notes.begin(), "the log's lines are cut at a console's width (" + std::to_string(width) +
                                      " bytes, continued on the next line): read joined, the failure is " + r.id);
  if (d.root() && d.root()->id == r.id) return;  // the same reading: keep the log's own lines
  if (d.root()) d.findings.front() = std::move(r);
  else {
    d.findings.insert(d.findings.begin(), std::move(r));
    d.root_count = 1;
  }
}

Diagnosis Scanner::finish() {
  if (pending_open_) {
    ++line_no_;
    on_line(pending_, pending_.data());
    pending_.clear();
    pending_open_ = false;
  }
  after_.clear();
  Fallbacks fb{&error_after_failed_, &first_error_, &cmake_block_, &traceback_, &first_failure_, &first_failed_};
  Diagnosis d = rank(engine_.set(), per_sig_, fb, &facts_);
  d.lines = line_no_;
  d.bytes = bytes_;
  d.error_lines = error_lines_;
  d.log_facts = facts_;
  if (rejoin_) {
    rejoin_cmake_message(engine_, d);
    rejoin_exception_message(engine_, d);
    rejoin_wrapped(engine_, d);
  }
  reason_on_entities(engine_.set(), d);
  // after the entity rules: a cause they named is a known failure, and the joined reading is already reasoned
  if (rejoin_) reread_hard_wrapped(engine_, tail_, bytes_ > tail_.size(), line_no_, d);
  return d;
}

Diagnosis diagnose_text(const Engine& engine, std::string_view text) {
  Scanner s(engine);
  s.feed(text);
  return s.finish();
}

}  // namespace ts::triage
