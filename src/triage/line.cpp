#include "triage/line.h"

#include <cstring>

namespace ts::triage {

std::string_view sanitize_line(std::string_view raw, std::string& out) {
  if (raw.size() > kLineCap) raw = raw.substr(0, kLineCap);
  if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
  if (!std::memchr(raw.data(), 0x1b, raw.size())) return raw;
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
  return out;
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
