#include "run/clean_guard.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "run/mirror.h"
#include "run/stale.h"
#include "util/fs.h"

namespace ts::run {

namespace fs = std::filesystem;

namespace {

fs::path canon(const std::string& p) {
  std::error_code ec;
  fs::path c = fs::weakly_canonical(fs::absolute(p, ec), ec);  // links resolved as far as they exist
  return ec ? fs::path() : c;
}

// a == b, or b lies inside a.
bool contains(const fs::path& a, const fs::path& b) {
  if (a.empty() || b.empty()) return false;
  auto r = b.lexically_relative(a);
  return !r.empty() && *r.begin() != "..";
}

}  // namespace

std::string why_not_removable(const std::string& dir, const std::string& source_tree, bool require_build) {
  std::error_code ec;
  auto no = [&](const std::string& why) { return dir + ": " + why + "; nothing removed"; };
  if (fs::is_symlink(dir, ec)) return no("a symbolic link; give the build directory itself");
  if (!fs::is_directory(dir, ec)) return no("not a directory");
  fs::path c = canon(dir);
  if (c.empty()) return no("cannot be resolved");
  if (c == c.root_path()) return no("the root directory");
  // HOME, and the password database's home too: with HOME unset, root's home was removable.
  const char* env_home = std::getenv("HOME");
  for (const std::string& home : {std::string(env_home ? env_home : ""), util::passwd_home()})
    if (!home.empty() && contains(c, canon(home))) return no("your home directory, or a directory above it");
  char buf[4096];
  if (::getcwd(buf, sizeof buf) && contains(c, canon(buf)))
    return no("the current directory, or a directory above it");
  if (!source_tree.empty() && contains(c, canon(source_tree)))
    return no("the source tree (or a directory above it)");
  if (fs::exists(c / ".git", ec)) return no("a git checkout (it holds .git): a source tree, not a build directory");
  bool cmake = fs::is_regular_file(c / "CMakeCache.txt", ec);
  if (cmake) {
    auto text = util::read_file(c / "CMakeCache.txt");
    auto cache = parse_cmake_cache(text ? *text : "");
    if (auto h = cache.find("CMAKE_HOME_DIRECTORY"); h != cache.end() && canon(h->second) == c)
      return no("an in-source CMake build (CMAKE_HOME_DIRECTORY is the directory itself): removing it would remove the source");
  }
  if (require_build && !cmake && !fs::is_regular_file(c / "build.ninja", ec) && !has_out_marker(c.string()))
    return no(std::string("holds no build (no CMakeCache.txt, build.ninja or ") + kOutMarker +
              "): torchsmith cleans only build directories");
  return "";
}

}  // namespace ts::run
