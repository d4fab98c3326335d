#include "kb/table.h"

#include <cctype>

namespace ts::kb {

bool table_holds(std::string_view where, std::string_view relative) {
  if (where.empty()) return false;
  if (where.back() == '/') return relative.size() > where.size() && relative.substr(0, where.size()) == where;
  return relative == where;
}

void add_line_errors(std::string_view file, const std::vector<std::string>& lines, std::vector<KbError>& errors) {
  for (const auto& e : lines) {
    std::string_view rest = e;
    if (rest.substr(0, file.size()) == file) rest.remove_prefix(file.size());
    int line = 0;
    if (!rest.empty() && rest[0] == ':') {  // "file:12: message", or "file: message" for the whole file
      std::size_t i = 1;
      int n = 0;
      while (i < rest.size() && std::isdigit(static_cast<unsigned char>(rest[i]))) n = n * 10 + (rest[i++] - '0');
      bool numbered = i > 1 && i < rest.size() && rest[i] == ':';
      if (numbered) line = n;
      rest.remove_prefix(numbered ? i + 1 : 1);
      if (!rest.empty() && rest[0] == ' ') rest.remove_prefix(1);
    }
    errors.push_back({{std::string(file), line}, std::string(rest)});
  }
}

Kb read_core(const std::vector<std::string>& overlay_dirs, std::vector<std::string>& errors) {
  std::vector<KbError> kerr;
  Kb k = load(overlay_dirs, kerr);
  for (const auto& e : kerr) errors.push_back(e.str());
  return k;
}

}  // namespace ts::kb
