#include "source/outside_reach.h"

#include <algorithm>
#include <deque>
#include <filesystem>
#include <fstream>
#include <set>

#include <re2/re2.h>

namespace ts::source {

namespace {

namespace fs = std::filesystem;

bool is_c_source(const fs::path& p) {
  static const std::set<std::string> exts{".c", ".cc", ".cpp", ".cxx", ".cu", ".cuh", ".h", ".hh", ".hpp", ".hxx", ".inl"};
  return exts.count(p.extension().string()) > 0;
}

// Levels above `root` that `p` lies (0 when inside it); both lexically normal and absolute.
int levels_above(const fs::path& p, const fs::path& root) {
  int up = 0;
  for (const auto& part : p.lexically_relative(root)) {
    if (part != "..") break;
    ++up;
  }
  return up;
}

std::string read_prefix(const fs::path& p, std::size_t cap = 512 * 1024) {
  std::ifstream in(p, std::ios::binary);
  std::string s(cap, '\0');
  in.read(s.data(), static_cast<std::streamsize>(cap));
  s.resize(static_cast<std::size_t>(in.gcount()));
  return s;
}

}  // namespace

std::string tail_components(const std::string& dir, int depth) {
  std::vector<std::string> parts;
  for (const auto& part : fs::path(dir).lexically_normal()) {
    std::string s = part.string();
    if (!s.empty() && s != "/") parts.push_back(s);
  }
  fs::path out;
  for (std::size_t i = parts.size() > static_cast<std::size_t>(depth) ? parts.size() - depth : 0; i < parts.size(); ++i)
    out /= parts[i];
  return out.string();
}

OutsideReach find_outside_reach(const std::string& dir, int max_depth) {
  OutsideReach r;
  std::error_code ec;
  const fs::path root = fs::weakly_canonical(fs::absolute(dir, ec), ec).lexically_normal();
  if (ec || !fs::is_directory(root, ec)) return r;
  std::deque<fs::path> queue;  // files whose includes are read
  int seen = 0;
  for (fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end && seen < 20000; it.increment(ec), ++seen) {
    std::error_code fec;
    if (it->is_directory(fec) && (it->path().filename() == ".git" || it.depth() >= 8)) it.disable_recursion_pending();
    else if (it->is_regular_file(fec) && is_c_source(it->path())) queue.push_back(it->path());
  }
  static const RE2 include(R"re(^\s*#\s*include\s*"([^"]+)")re");
  std::set<fs::path> outside;
  for (int read = 0; !queue.empty() && read < 5000; ++read) {
    fs::path file = queue.front();
    queue.pop_front();
    std::string text = read_prefix(file), name;
    const bool from_outside = levels_above(file, root) > 0;  // its plain "x.h" lies outside too
    std::size_t at = 0;
    for (int line = 1; at < text.size(); ++line) {
      auto nl = text.find('\n', at);
      std::string l = text.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
      at = nl == std::string::npos ? text.size() : nl + 1;
      if ((!from_outside && l.find("..") == std::string::npos) || !RE2::PartialMatch(l, include, &name)) continue;
      fs::path target = (file.parent_path() / name).lexically_normal();
      int up = levels_above(target, root);
      std::error_code tec;
      if (up == 0 || up > max_depth || !fs::is_regular_file(target, tec) || !outside.insert(target).second) continue;
      r.depth = std::max(r.depth, up);
      r.files.push_back(target.lexically_relative(root).generic_string());
      r.why.push_back(file.lexically_relative(root).generic_string() + ":" + std::to_string(line) + ": " +
                      l.substr(l.find('#'), 160));
      queue.push_back(target);  // what it includes in turn
    }
  }
  return r;
}

}  // namespace ts::source
