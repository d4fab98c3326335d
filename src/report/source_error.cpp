#include "report/source_error.h"

#include <filesystem>
#include <fstream>
#include <regex>

namespace ts::report {
namespace fs = std::filesystem;

std::string SourceError::where() const {
  return (relative.empty() ? file : relative) + ":" + std::to_string(line);
}

namespace {

std::optional<SourceError> parse_line(const std::string& text) {
  // GCC/clang: path:12:5: error: msg / fatal error: msg; nvcc (EDG): path(12): error: msg.
  static const std::regex gcc(R"(^\s*([^\s:][^:]*):(\d+):(?:(\d+):)?\s+(?:fatal )?error:\s*(.*)$)");
  static const std::regex edg(R"(^\s*([^\s(][^(]*)\((\d+)\):\s+(?:catastrophic )?error:?\s*(.*)$)");
  std::smatch m;
  SourceError e;
  if (std::regex_match(text, m, gcc)) {
    e.file = m[1], e.line = std::stoi(m[2]), e.column = m[3].matched ? std::stoi(m[3]) : 0, e.message = m[4];
  } else if (std::regex_match(text, m, edg)) {
    e.file = m[1], e.line = std::stoi(m[2]), e.message = m[3];
  } else {
    return std::nullopt;
  }
  if (e.line <= 0) return std::nullopt;
  return e;
}

void map_to_user(SourceError& e, const std::string& dir, const std::string& copy) {
  e.compiled = e.file;
  if (copy.empty() || dir.empty()) return;
  std::string path = e.file;
  if (!fs::path(path).is_absolute()) {  // relative to the copy, where the build ran
    std::error_code ec;
    if (!fs::exists(fs::path(copy) / path, ec)) return;
    path = (fs::path(copy) / path).lexically_normal().string();
    e.compiled = path;
  }
  std::string root = copy + "/";
  if (path.rfind(root, 0) != 0) return;
  e.relative = path.substr(root.size());
  e.file = (fs::path(dir) / e.relative).string();
}

}  // namespace

std::optional<SourceError> source_error(const nlohmann::json& diagnosis, const std::string& source_dir,
                                        const std::string& source_copy) {
  if (!diagnosis.is_object() || !diagnosis.contains("root_cause") || !diagnosis["root_cause"].is_object())
    return std::nullopt;
  const auto& root = diagnosis["root_cause"];
  for (const char* key : {"evidence", "context"}) {
    if (!root.contains(key) || !root[key].is_array()) continue;
    for (const auto& l : root[key]) {
      if (!l.is_object() || !l.contains("text") || !l["text"].is_string()) continue;
      if (auto e = parse_line(l["text"].get<std::string>())) {
        map_to_user(*e, source_dir, source_copy);
        return e;
      }
    }
  }
  return std::nullopt;
}

std::vector<std::pair<int, std::string>> source_lines(const std::string& path, int line, int around) {
  std::vector<std::pair<int, std::string>> out;
  std::ifstream in(path);
  if (!in) return out;
  std::string text;
  for (int n = 1; std::getline(in, text) && n <= line + around; ++n)
    if (n >= line - around) out.emplace_back(n, text.size() > 400 ? text.substr(0, 400) : text);
  return out;
}

}  // namespace ts::report
