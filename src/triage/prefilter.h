#pragma once
// Literal prefilter: before any regex runs, a line must contain one of a small set of literals,
// each necessary for some pattern. The literals come from RE2's own prefilter analysis
// (FilteredRE2 atoms): for each pattern we keep a subset S of its atoms such that, with every
// atom outside S present, the pattern's prefilter still fails. Since the prefilter is monotone,
// "the pattern matches a line" implies "some atom of S occurs in the lowercased line". Atoms are
// found case-insensitively (a superset), so skipping lines without any literal never loses a match.
//
// The scan probes one 4-byte window every `stride` bytes (stride = shortest literal - 3) and looks
// the folded window up in a 256 Kbit (32 KiB) bitmap; each literal inserts `stride` consecutive
// windows, so every occurrence contains exactly one probed window. A bitmap hit is verified by
// comparing the whole literal, its first 8 bytes at once ("-Werror=" hits the windows of every
// literal with "error" in it). On CPUs with AVX2 eight probes are hashed and looked up at once (a
// gather from the bitmap), sixteen with AVX-512 VBMI: the same probes and the same answer, in
// fewer instructions. The loops prefetch a few KiB ahead.
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ts::triage {

class Prefilter {
 public:
  // patterns: RE2 syntax, Latin-1. Throws std::runtime_error when a pattern does not compile.
  void build(const std::vector<std::string>& patterns);

  // Start of the first literal occurrence in [from, end) (it begins at or after `from`), or end.
  const char* find(const char* from, const char* end) const;
  // The same without SIMD beyond SSE2 (what CPUs without AVX2 run; tests compare them all).
  const char* find_portable(const char* from, const char* end) const;
  // Re-places the probed windows to be the rarest in `text` (bytes of the log about to be scanned;
  // a longer text than kAdaptPieces x kAdaptPiece is read at that many places spread over it): the
  // same literals, the same answers, fewer probes that verify in vain.
  void adapt(std::string_view text);
  static constexpr std::size_t kAdaptPieces = 16, kAdaptPiece = 16 << 10;
  // How many probes over [p, end) hit the bitmap (each costs a verify): for tests and bench/triage.
  std::uint64_t probe_hits(const char* p, const char* end) const;

  // Whether a (sanitised) line contains any literal, or every line must be checked.
  bool may_match(std::string_view line) const { return match_all() || find(line.data(), line.data() + line.size()) != line.data() + line.size(); }

  // Some pattern has no necessary literal (or the prefilter is switched off): every line is checked.
  bool match_all() const { return match_all_ || forced_path() == Path::every_line; }

  // Which loop find() runs, process-wide, for tests and bench/triage to compare them on the same
  // input: the fastest this CPU has, the AVX2 one (where the CPU has it), the portable one, or none
  // (every line goes to the regexes). The findings never depend on it.
  enum class Path { fastest, avx2, portable, every_line };
  static void force_path(Path p);
  static Path forced_path();
  const char* path_name() const;  // "avx512vbmi", "avx2", "portable" or "every line (no prefilter)"
  std::size_t stride() const { return stride_; }
  const std::vector<std::string>& literals() const { return literals_; }  // lowercase
  std::size_t longest() const { return longest_; }  // the longest literal's length

 private:
  struct Window {
    std::uint32_t hash, literal, offset;
    std::uint64_t head, head_mask;  // the folded literal's first 8 bytes (fewer: mask): most candidates fail on these at once
  };
  void place_windows(const std::unordered_map<std::uint32_t, std::uint32_t>& seen);
  const char* verify(const char* probe, std::uint32_t h, const char* from, const char* end) const;
  template <std::size_t S>
  const char* find_stride(const char* from, const char* end) const;
#if defined(__x86_64__)
  // The same probes, eight per round with AVX2 (used when the CPU has it; S <= 4).
  template <std::size_t S>
  // (Probes from p; occurrences may start from `from` on.)
  __attribute__((target("avx2"))) const char* find_stride_avx2(const char* from, const char* p, const char* end) const;
  template <std::size_t S>
  __attribute__((target("avx512f,avx512bw,avx512vbmi"))) const char* find_stride_avx512(const char* from, const char* end) const;
#endif

  bool match_all_ = false;
  std::size_t stride_ = 1;
  std::size_t longest_ = 0;
  std::vector<std::string> literals_;       // lowercase
  std::vector<std::string> folded_;         // each byte | 0x20
  std::vector<std::uint64_t> bits_;         // one bit per window hash
  std::vector<std::uint32_t> bucket_start_; // windows_ index per low 12 bits of the hash (one more than slots)
  std::vector<Window> windows_;             // sorted by those bits
};

}  // namespace ts::triage
