#include "build/ninja_status.h"

#include <charconv>

namespace ts::build {

std::optional<double> NinjaProgress::eta() const {
  if (done <= 0 || total <= 0) return std::nullopt;
  if (done >= total) return 0.0;
  // The overall rate from ninja is done/elapsed; recompute it when ninja said "?".
  double r = rate > 0 ? rate : (elapsed > 0 ? double(done) / elapsed : 0);
  if (r <= 0) return std::nullopt;
  return double(total - done) / r;
}

namespace {

// Skips ESC [ ... final-byte sequences (ninja's "\x1b[K" erase-line on a terminal).
std::string_view skip_ansi(std::string_view s) {
  while (s.size() >= 2 && s[0] == '\x1b' && s[1] == '[') {
    std::size_t i = 2;
    while (i < s.size() && !(s[i] >= '@' && s[i] <= '~')) ++i;
    s.remove_prefix(i < s.size() ? i + 1 : s.size());
  }
  while (!s.empty() && s[0] == '\r') s.remove_prefix(1);
  // pip -v indents the build's output by two spaces per level.
  while (!s.empty() && s[0] == ' ') s.remove_prefix(1);
  return s;
}

bool take(std::string_view& s, std::string_view lit) {
  if (s.substr(0, lit.size()) != lit) return false;
  s.remove_prefix(lit.size());
  return true;
}

bool take_long(std::string_view& s, long& v) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p == s.data()) return false;
  s.remove_prefix(static_cast<std::size_t>(p - s.data()));
  return true;
}

// A decimal ("12.3") or ninja's "?" for an unknown rate (read as 0).
bool take_double(std::string_view& s, double& v) {
  if (take(s, "?")) { v = 0; return true; }
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, std::chars_format::fixed);
  if (ec != std::errc() || p == s.data()) return false;
  s.remove_prefix(static_cast<std::size_t>(p - s.data()));
  return true;
}

}  // namespace

std::optional<NinjaProgress> parse_ninja_status(std::string_view line) {
  std::string_view s = skip_ansi(line);
  NinjaProgress p;
  if (!take(s, "[ts ") || !take_long(s, p.done) || !take(s, "/") || !take_long(s, p.total) ||
      !take(s, " ") || !take_double(s, p.rate) || !take(s, "/s ") || !take_double(s, p.elapsed) ||
      !take(s, "s] "))
    return std::nullopt;
  if (p.done < 0 || p.total < 0 || p.done > p.total) return std::nullopt;
  return p;
}

}  // namespace ts::build
