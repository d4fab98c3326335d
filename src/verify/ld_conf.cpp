#include "verify/ld_conf.h"

#include <glob.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>

#include "util/fs.h"

namespace ts::verify {
namespace {

namespace fs = std::filesystem;

// Paths inside the fake root: "/etc/x" under root "/tmp/r" is "/tmp/r/etc/x".
std::string under(const std::string& root, const std::string& path) {
  if (root.empty() || root == "/") return path;
  return (fs::path(root) / fs::path(path).relative_path()).string();
}

void add(std::vector<std::string>& dirs, std::string d) {
  while (d.size() > 1 && d.back() == '/') d.pop_back();
  if (!d.empty() && std::find(dirs.begin(), dirs.end(), d) == dirs.end()) dirs.push_back(std::move(d));
}

// `file` is a path as the loader sees it (no root); depth guards against include cycles.
void read_conf(const std::string& root, const std::string& file, std::vector<std::string>& dirs, int depth) {
  if (depth > 8) return;
  auto text = util::read_file_prefix(under(root, file), 1 << 20);
  if (!text) return;
  std::istringstream in(*text);
  std::string line;
  while (std::getline(in, line)) {
    if (auto h = line.find('#'); h != std::string::npos) line.erase(h);
    std::string t = util::trim(line);
    if (t.empty() || t.starts_with("hwcap ")) continue;
    if (t.starts_with("include") && t.size() > 7 && (t[7] == ' ' || t[7] == '\t')) {
      std::string pattern = util::trim(t.substr(8));
      if (!pattern.starts_with("/")) pattern = (fs::path(file).parent_path() / pattern).string();
      glob_t g{};
      if (::glob(under(root, pattern).c_str(), 0, nullptr, &g) == 0) {
        std::vector<std::string> found(g.gl_pathv, g.gl_pathv + g.gl_pathc);
        std::sort(found.begin(), found.end());
        for (const auto& f : found) {
          // Back to a loader path: strip the root prefix glob returned.
          std::string p = (root.empty() || root == "/") ? f : "/" + fs::relative(f, root).string();
          read_conf(root, p, dirs, depth + 1);
        }
      }
      ::globfree(&g);
      continue;
    }
    // Old syntax allowed "dir=TYPE"; and several dirs on a line separated by blanks, ':' or ','.
    std::replace_if(t.begin(), t.end(), [](char c) { return c == ':' || c == ',' || c == '\t'; }, ' ');
    std::istringstream words(t);
    std::string w;
    while (words >> w) {
      if (auto eq = w.find('='); eq != std::string::npos) w.erase(eq);
      if (w.starts_with("/")) add(dirs, w);
    }
  }
}

}  // namespace

std::vector<std::string> ld_so_conf_dirs(const std::string& root) {
  std::vector<std::string> dirs;
  read_conf(root, "/etc/ld.so.conf", dirs, 0);
  return dirs;
}

std::vector<std::string> system_library_dirs(const std::string& root) {
  std::vector<std::string> dirs = ld_so_conf_dirs(root);
  for (const char* d : {"/lib64", "/usr/lib64", "/lib", "/usr/lib"}) add(dirs, d);
  return dirs;
}

}  // namespace ts::verify
