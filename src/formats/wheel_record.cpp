#include "formats/wheel_record.h"

#include <cstring>

namespace ts::formats {

std::string record_hash(const std::array<unsigned char, 32>& d) {
  static constexpr char kB64[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string out = "sha256=";
  std::size_t i = 0;
  for (; i + 3 <= d.size(); i += 3) {
    std::uint32_t v = std::uint32_t(d[i]) << 16 | std::uint32_t(d[i + 1]) << 8 | d[i + 2];
    out += kB64[v >> 18];
    out += kB64[(v >> 12) & 63];
    out += kB64[(v >> 6) & 63];
    out += kB64[v & 63];
  }
  // 32 bytes: two left over, three characters and no padding.
  std::uint32_t v = std::uint32_t(d[i]) << 16 | std::uint32_t(d[i + 1]) << 8;
  out += kB64[v >> 18];
  out += kB64[(v >> 12) & 63];
  out += kB64[(v >> 6) & 63];
  return out;
}

namespace {

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::string render_record(const std::vector<RecordLine>& lines) {
  std::string out;
  for (const auto& l : lines) {
    out += csv_field(l.path) + "," + l.hash + ",";
    if (l.size) out += std::to_string(*l.size);
    out += "\n";
  }
  return out;
}

std::optional<std::vector<RecordLine>> parse_record(std::string_view text, std::string* error) {
  std::vector<RecordLine> out;
  std::size_t p = 0, line_no = 0;
  while (p < text.size()) {
    ++line_no;
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (; p < text.size(); ++p) {
      char c = text[p];
      if (quoted) {
        if (c == '"' && p + 1 < text.size() && text[p + 1] == '"') {
          fields.back() += '"';
          ++p;
        } else if (c == '"') {
          quoted = false;
        } else {
          fields.back() += c;
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',') {
        fields.emplace_back();
      } else if (c == '\n') {
        ++p;
        break;
      } else if (c != '\r') {
        fields.back() += c;
      }
    }
    if (fields.size() == 1 && fields[0].empty()) continue;
    if (fields.size() != 3 || quoted) {
      if (error) *error = "RECORD line " + std::to_string(line_no) + ": expected path,hash,size";
      return std::nullopt;
    }
    RecordLine l{fields[0], fields[1], std::nullopt};
    if (!fields[2].empty()) {
      if (fields[2].find_first_not_of("0123456789") != std::string::npos || fields[2].size() > 19) {
        if (error) *error = "RECORD line " + std::to_string(line_no) + ": bad size '" + fields[2] + "'";
        return std::nullopt;
      }
      l.size = std::stoull(fields[2]);
    }
    out.push_back(std::move(l));
  }
  return out;
}

}  // namespace ts::formats
