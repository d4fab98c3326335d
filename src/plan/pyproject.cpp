#include "plan/pyproject.h"

#include <cctype>
#include <sstream>

#include "kb/toml_parse.h"

namespace ts::plan {

namespace {

std::string trim(std::string s) {
  auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

std::optional<PackageMetadata> read_pyproject(const std::string& text, std::string* error) {
  PackageMetadata m;
  try {
    toml::table t = kb::parse_toml(text, "pyproject.toml");
    if (auto n = t["project"]["name"].value<std::string>()) m.name = *n;
    if (auto v = t["project"]["version"].value<std::string>()) m.version = *v;
    if (auto b = t["build-system"]["build-backend"].value<std::string>()) m.build_backend = *b;
    if (auto* rq = t["build-system"]["requires"].as_array())
      for (const auto& e : *rq)
        if (auto s = e.value<std::string>()) m.build_requires.push_back(*s);
  } catch (const toml::parse_error& e) {
    if (error) {
      std::ostringstream o;
      o << "pyproject.toml:" << e.source().begin.line << ": " << e.description();
      *error = o.str();
    }
    return std::nullopt;
  }
  return m;
}

PackageMetadata read_setup_cfg(const std::string& text) {
  PackageMetadata m;
  std::istringstream in(text);
  std::string line, section, key;
  bool in_list = false;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::string t = trim(line);
    if (t.empty() || t[0] == '#' || t[0] == ';') continue;
    bool indented = std::isspace(static_cast<unsigned char>(line[0])) != 0;
    if (indented && in_list) {  // a continuation line of setup_requires
      m.build_requires.push_back(t);
      continue;
    }
    in_list = false;
    if (t.front() == '[' && t.back() == ']') {
      section = lower(trim(t.substr(1, t.size() - 2)));
      continue;
    }
    auto eq = t.find_first_of("=:");
    if (eq == std::string::npos) continue;
    key = lower(trim(t.substr(0, eq)));
    std::string value = trim(t.substr(eq + 1));
    if (section == "metadata" && key == "name") m.name = value;
    else if (section == "metadata" && key == "version" && value.rfind("attr:", 0) != 0 && value.rfind("file:", 0) != 0)
      m.version = value;
    else if (section == "options" && key == "setup_requires") {
      in_list = true;
      std::istringstream items(value);
      for (std::string item; std::getline(items, item, ';');)
        if (auto s = trim(item); !s.empty()) m.build_requires.push_back(s);
    }
  }
  return m;
}

}  // namespace ts::plan
