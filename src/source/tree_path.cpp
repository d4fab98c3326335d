#include "source/tree_path.h"

#include <filesystem>

#include "util/safe_path.h"

namespace ts::source {

namespace fs = std::filesystem;

std::string relative_path_problem(std::string_view rel) {
  if (rel.empty()) return "empty path";
  if (rel.find('\0') != std::string_view::npos) return "path contains a NUL byte";
  if (rel.front() == '/') return "absolute path; give the path relative to the source tree";
  if (rel.find('\\') != std::string_view::npos) return "use '/' as the separator";
  std::size_t start = 0;
  while (start <= rel.size()) {
    auto end = rel.find('/', start);
    if (end == std::string_view::npos) end = rel.size();
    std::string_view part = rel.substr(start, end - start);
    if (part.empty()) return "empty path component ('//' or a trailing '/')";
    if (part == "..") return "'..' would leave the source tree";
    if (part == ".") return "'.' component; write the path plainly";
    // The one component rule for names from input (control characters, length): util/safe_path.h.
    if (auto why = util::check_path_component(part); !why.empty()) return why;
    start = end + 1;
  }
  return "";
}

std::string resolve_in_tree(const std::string& tree, std::string_view rel, bool must_exist, std::string* error) {
  auto fail = [&](const std::string& why) {
    if (error) *error = why;
    return std::string();
  };
  if (std::string why = relative_path_problem(rel); !why.empty()) return fail(std::string(rel) + ": " + why);
  std::error_code ec;
  fs::path root = fs::canonical(tree, ec);
  if (ec) return fail(tree + ": not a directory (" + ec.message() + ")");
  fs::path target = fs::weakly_canonical(root / fs::path(std::string(rel)), ec);
  if (ec) return fail(std::string(rel) + ": cannot resolve (" + ec.message() + ")");
  std::string r = root.string(), t = target.string();
  if (t.size() <= r.size() || t.compare(0, r.size(), r) != 0 || (r != "/" && t[r.size()] != '/'))
    return fail(std::string(rel) + ": resolves to " + t + ", outside the source tree (a symlink?); refusing to touch it");
  if (must_exist) {
    if (!fs::exists(target, ec)) return fail(std::string(rel) + ": no such file in the tree");
    if (!fs::is_regular_file(target, ec)) return fail(std::string(rel) + ": not a regular file");
  }
  return t;
}

}  // namespace ts::source
