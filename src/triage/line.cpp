#include "triage/line.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace ts::triage {

namespace {

// Length of a launcher's per-process prefix: torchrun's "[rank3]: " and torch.distributed.elastic's
// "[default0]:". Without it a rank's "Traceback"/"RuntimeError:" line starts where a line starts.
std::size_t rank_prefix(std::string_view s) {
  if (s.size() < 4 || s[0] != '[') return 0;
  std::size_t i = 1;
  for (std::string_view word : {std::string_view("rank"), std::string_view("default")})
    if (s.substr(1, word.size()) == word) { i = 1 + word.size(); break; }
  if (i == 1) return 0;
  std::size_t digits = i;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
  if (i == digits || i + 1 >= s.size() || s[i] != ']' || s[i + 1] != ':') return 0;
  i += 2;
  if (i < s.size() && s[i] == ' ') ++i;
  return i;
}

bool digit(char c) { return c >= '0' && c <= '9'; }

// Length of a run of digits at s[i...].
std::size_t digits_at(std::string_view s, std::size_t i) {
  std::size_t n = 0;
  while (i + n < s.size() && digit(s[i + n])) ++n;
  return n;
}

// Length of a timestamp "YYYY-MM-DD?HH:MM:SS" at `i` (? is 'T' or a space), with a fraction (".123", ",123"),
// and, after a 'T', the zone ('Z' or "+01:00"); 0 when there is none.
std::size_t timestamp_at(std::string_view s, std::size_t i) {
  auto d = [&](std::size_t k, std::size_t n) { return digits_at(s, i + k) >= n; };
  auto at = [&](std::size_t k, char c) { return i + k < s.size() && s[i + k] == c; };
  if (!(d(0, 4) && at(4, '-') && d(5, 2) && at(7, '-') && d(8, 2) && (at(10, 'T') || at(10, ' ')) && d(11, 2) && at(13, ':') &&
        d(14, 2) && at(16, ':') && d(17, 2)))
    return 0;
  std::size_t k = 19;
  if (at(k, '.') || at(k, ',')) k += 1 + digits_at(s, i + k + 1);
  if (s[i + 10] == 'T') {
    if (at(k, 'Z')) ++k;
    else if ((at(k, '+') || at(k, '-')) && d(k + 1, 2) && at(k + 3, ':') && d(k + 4, 2)) k += 6;
  }
  return k;
}

// Length of GitLab Runner's stream tag after its timestamp (FF_TIMESTAMPS): two hex digits for the stream,
// 'O' or 'E' (stdout, stderr), '+' when the line continues the one before, and a space: "01E ", "00O+ ".
std::size_t gitlab_stream(std::string_view s) {
  auto hex = [](char c) { return digit(c) || (c >= 'a' && c <= 'f'); };
  if (s.size() < 4 || !hex(s[0]) || !hex(s[1]) || (s[2] != 'O' && s[2] != 'E')) return 0;
  std::size_t i = 3 + (s[3] == '+');
  return i < s.size() && s[i] == ' ' ? i + 1 : 0;
}

// Length of a log collector's prefix, which says where and when a line was printed, not what:
// docker BuildKit's step "#12 3.456 ", journald/syslog's "Oct 04 13:19:39 host unit[394]: ",
// glog's "E0205 09:51:38.047000 18628 file.py:810] " (torch's own logger, with its "[0/0] " frame), a CI
// runner's ISO time (GitHub Actions' "2024-03-12T10:11:12.3456789Z ", kubectl logs --timestamps, GitLab's with its
// stream tag "01E "), kubectl logs --prefix's "[pod/NAME/CONTAINER] ", and a
// bracketed time "[2024-03-12 10:11:12] ".
std::size_t collector_prefix(std::string_view s) {
  if (std::size_t t = timestamp_at(s, 0); t && s[10] == 'T' && t < s.size() && s[t] == ' ') return t + 1 + gitlab_stream(s.substr(t + 1));
  // kubectl logs --prefix: "[pod/NAME/CONTAINER] ", maybe before --timestamps' time.
  if (s.size() > 9 && s.substr(0, 5) == "[pod/") {
    std::size_t close = s.find("] ", 5);
    if (close == std::string_view::npos) return 0;
    std::string_view inner = s.substr(5, close - 5);
    if (inner.empty() || inner.find(' ') != std::string_view::npos || std::count(inner.begin(), inner.end(), '/') != 1) return 0;
    return close + 2 + collector_prefix(s.substr(close + 2));
  }
  if (s.size() > 21 && s[0] == '[')
    if (std::size_t t = timestamp_at(s, 1); t && 1 + t + 1 < s.size() && s[1 + t] == ']' && s[2 + t] == ' ') return t + 3;
  if (s.size() > 5 && s[0] == '#') {
    std::size_t i = 1 + digits_at(s, 1);
    if (i > 1 && i < s.size() && s[i] == ' ') {
      std::size_t a = digits_at(s, i + 1);
      std::size_t j = i + 1 + a;
      if (a && j < s.size() && s[j] == '.') {
        std::size_t b = digits_at(s, j + 1);
        if (b && j + 1 + b < s.size() && s[j + 1 + b] == ' ') return j + 2 + b;
      }
    }
    return 0;
  }
  if (s.size() > 20 && s[0] >= 'A' && s[0] <= 'Z' && s[3] == ' ' && s[6] == ' ' && s[9] == ':' && s[12] == ':' &&
      s[15] == ' ' && digit(s[5]) && digit(s[7]) && digit(s[8])) {
    std::size_t host_end = s.find(' ', 16);
    if (host_end == std::string_view::npos || host_end == 16) return 0;
    std::size_t colon = s.find(": ", host_end + 1);
    if (colon == std::string_view::npos || s.substr(host_end + 1, colon - host_end - 1).find(' ') != std::string_view::npos)
      return 0;
    return colon + 2;
  }
  if (s.size() > 24 && (s[0] == 'I' || s[0] == 'W' || s[0] == 'E' || s[0] == 'F') && digits_at(s, 1) == 4 && s[5] == ' ' &&
      digit(s[6]) && s[8] == ':') {
    std::size_t close = s.find("] ", 9);
    if (close == std::string_view::npos || s.substr(6, close - 6).find(':') == std::string_view::npos) return 0;
    std::size_t i = close + 2;
    // torch's compile-frame tag "[0/0] " that follows
    if (i < s.size() && s[i] == '[') {
      std::size_t k = s.find("] ", i);
      if (k != std::string_view::npos && k - i < 16 && s.substr(i + 1, k - i - 1).find_first_not_of("0123456789/_") == std::string_view::npos)
        i = k + 2;
    }
    return i;
  }
  return 0;
}

// Length of a Markdown block quote's markers, "> " once or nested ("> > "), as an issue thread quotes a log.
// One '>' and a space each: a Python prompt ">>> " and a merge conflict's ">>>>>>> " are the log's own.
std::size_t quote_prefix(std::string_view s) {
  std::size_t i = 0;
  while (i + 1 < s.size() && s[i] == '>' && s[i + 1] == ' ') i += 2;
  return i;
}

// Length of a line that is the frame's own and none of the log's: a Markdown code fence ("```",
// "```console", "~~~"), as the whole line, and GitLab's section marker "section_start:1714566896:step_script\r"
// (the terminal shows what follows the '\r': the section's header, or nothing after "section_end").
// Read as the log's, a fence after a cut "Traceback (most recent call last):" was taken for its exception.
std::size_t frame_line(std::string_view s) {
  if (s.size() >= 3 && (s.substr(0, 3) == "```" || s.substr(0, 3) == "~~~")) {
    std::size_t i = 3;
    while (i < s.size() && s[i] == s[0]) ++i;
    while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '-' || s[i] == '_' || s[i] == '+')) ++i;
    return i == s.size() ? i : 0;
  }
  if (s.size() > 14 && s[0] == 's' && (s.substr(0, 14) == "section_start:" || s.substr(0, 12) == "section_end:")) {
    std::size_t i = s[8] == 's' ? 14 : 12;
    std::size_t n = digits_at(s, i);
    if (!n || i + n >= s.size() || s[i + n] != ':') return 0;
    std::size_t cr = s.find('\r', i + n + 1);
    if (cr == std::string_view::npos || s.substr(i + n + 1, cr - i - n - 1).find(' ') != std::string_view::npos) return 0;
    return cr + 1;
  }
  return 0;
}

// The prefixes: a Markdown quote's, then a collector's, then a launcher's; or a frame's whole line.
std::size_t prefix(std::string_view s) {
  std::size_t q = quote_prefix(s);
  if (std::size_t f = frame_line(s.substr(q))) return q + f;
  std::size_t c = q + collector_prefix(s.substr(q));
  return c + rank_prefix(s.substr(c));
}

}  // namespace

std::string_view sanitize_line(std::string_view raw, std::string& out) {
  if (raw.size() > kLineCap) raw = raw.substr(0, kLineCap);
  if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
  if (!std::memchr(raw.data(), 0x1b, raw.size())) return raw.substr(prefix(raw));
  out.clear();
  for (std::size_t i = 0; i < raw.size();) {
    if (raw[i] != 0x1b) { out.push_back(raw[i++]); continue; }
    // ESC [ params final (CSI: colour, erase), ESC ] ... BEL/ST (OSC: titles, links), ESC x (two-byte).
    ++i;
    if (i < raw.size() && raw[i] == '[') {
      ++i;
      while (i < raw.size() && static_cast<unsigned char>(raw[i]) >= 0x20 && static_cast<unsigned char>(raw[i]) < 0x40) ++i;
      if (i < raw.size()) ++i;  // the final byte
    } else if (i < raw.size() && raw[i] == ']') {
      ++i;
      while (i < raw.size() && raw[i] != 0x07 && !(raw[i] == 0x1b && i + 1 < raw.size() && raw[i + 1] == '\\')) ++i;
      if (i < raw.size()) i += raw[i] == 0x07 ? 1 : 2;
    } else if (i < raw.size()) {
      ++i;
    }
  }
  return std::string_view(out).substr(prefix(out));
}

std::string printable_line(std::string_view raw) {
  std::string tmp;
  std::string_view s = sanitize_line(raw, tmp);
  if (s.size() > kEvidenceCap) s = s.substr(0, kEvidenceCap);
  std::string r(s);
  for (char& c : r) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 && c != '\t') c = '?';
  }
  return r;
}

}  // namespace ts::triage
