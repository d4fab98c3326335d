#include "triage/line.h"

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

}  // namespace

std::string_view sanitize_line(std::string_view raw, std::string& out) {
  if (raw.size() > kLineCap) raw = raw.substr(0, kLineCap);
  if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
  if (!std::memchr(raw.data(), 0x1b, raw.size())) return raw.substr(rank_prefix(raw));
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
  return std::string_view(out).substr(rank_prefix(out));
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
