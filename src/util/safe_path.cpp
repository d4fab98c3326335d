#include "util/safe_path.h"

namespace ts::util {

std::string check_path_component(std::string_view name) {
  std::string n(name);
  if (name.empty()) return "an empty path component";
  if (name == "." || name == "..") return "'" + n + "' as a path component (it would leave its directory)";
  for (char ch : name) {
    auto c = static_cast<unsigned char>(ch);
    if (ch == '/') return "'" + n + "' holds '/' where one path component belongs";
    if (c < 0x20 || c == 0x7f) return "a control character in the name '" + n + "'";
  }
  if (name.size() > 255) return "a path component longer than 255 bytes";
  return "";
}

std::optional<std::string> join_inside(const std::string& base, std::string_view rel, std::string* error) {
  auto fail = [&](const std::string& why) -> std::optional<std::string> {
    if (error) *error = "'" + std::string(rel) + "' cannot be a path inside " + base + ": " + why;
    return std::nullopt;
  };
  if (rel.empty()) return fail("it is empty");
  if (rel.front() == '/') return fail("it is absolute");
  std::string out = base;
  std::size_t start = 0;
  while (true) {
    auto slash = rel.find('/', start);
    std::string_view part = rel.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    if (auto why = check_path_component(part); !why.empty()) return fail(why);
    if (!out.empty() && out.back() != '/') out += '/';
    out += part;
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return out;
}

std::optional<std::string> join_components(const std::string& base, const std::vector<std::string>& components,
                                           std::string* error) {
  std::string out = base;
  for (const auto& c : components) {
    if (auto why = check_path_component(c); !why.empty()) {
      if (error) *error = "'" + c + "' cannot be a path component under " + base + ": " + why;
      return std::nullopt;
    }
    if (!out.empty() && out.back() != '/') out += '/';
    out += c;
  }
  return out;
}

std::string build_path_problem(std::string_view path) {
  static constexpr std::string_view kBad = "$|:;\"'`\\()&<>*?";
  for (char ch : path) {
    auto c = static_cast<unsigned char>(ch);
    bool control = c < 0x20 || c == 0x7f;
    if (!control && kBad.find(ch) == std::string_view::npos) continue;
    std::string named = control ? "a control character" : std::string("the character '") + ch + "'";
    return named + " in its path breaks the build files made from it (torch's build.ninja reads '$' as a variable and "
           "'|' ':' as separators and runs its commands through sh; CMake splits lists at ';'; PATH at ':'): choose a "
           "directory whose path has none of $ | : ; \" ' ` \\ ( ) & < > * ? or control characters";
  }
  return "";
}

std::string as_operand(const std::string& path) {
  return !path.empty() && path.front() == '-' ? "./" + path : path;
}

}  // namespace ts::util
