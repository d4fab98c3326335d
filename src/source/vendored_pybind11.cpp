// build.pybind11-torch's CMake half: an old vendored pybind11 that a CMake file adds gets torchsmith's
// stand-in as its CMakeLists.txt, in the build's copy, journaled with the fixes.
#include "source/vendored_pybind11.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <re2/re2.h>
#include <set>
#include <sstream>

#include "source/hash.h"
#include "source/journal.h"
#include "source/udiff.h"
#include "util/fs.h"

namespace ts::source {

namespace {

namespace fs = std::filesystem;

constexpr int kMaxFiles = 20000;
constexpr const char* kRule = "build.pybind11-torch";

std::pair<int, int> two_numbers(const std::string& v) {
  int a = 0, b = 0;
  char dot = 0;
  std::istringstream in(v);
  if (!(in >> a) || !(in >> dot) || dot != '.' || !(in >> b)) return {0, 0};
  return {a, b};
}

// PYBIND11_VERSION_MAJOR/MINOR of DIR/include/pybind11/detail/common.h; {0, 0} when unreadable.
std::pair<int, int> header_version(const fs::path& dir) {
  auto text = util::read_file_prefix((dir / "include/pybind11/detail/common.h").string(), 65536);
  if (!text) return {0, 0};
  int major = 0, minor = 0;
  static const RE2 kMajor(R"(#\s*define\s+PYBIND11_VERSION_MAJOR\s+(\d+))"), kMinor(R"(#\s*define\s+PYBIND11_VERSION_MINOR\s+(\d+))");
  if (!RE2::PartialMatch(*text, kMajor, &major) || !RE2::PartialMatch(*text, kMinor, &minor)) return {0, 0};
  return {major, minor};
}

bool cmake_file(const std::string& name) {
  return name == "CMakeLists.txt" || (name.size() > 6 && name.compare(name.size() - 6, 6, ".cmake") == 0);
}

std::vector<fs::path> cmake_files(const std::string& tree) {
  std::vector<fs::path> out;
  std::error_code ec;
  fs::recursive_directory_iterator it(tree, fs::directory_options::skip_permission_denied, ec), end;
  for (int seen = 0; !ec && it != end && seen < kMaxFiles; it.increment(ec), ++seen) {
    std::string n = it->path().filename().string();
    if (it->is_symlink(ec)) continue;  // a link may lead out of the tree
    if (it->is_directory(ec)) {
      if (n == ".git" || n == "build" || n == "dist" || n == ".torchsmith" || n == "node_modules") it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec) && cmake_file(n)) out.push_back(it->path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// add_subdirectory's first argument, resolved against the CMake file's directory: the source-dir
// variables a vendored path is written with are expanded (PROJECT_SOURCE_DIR and CMAKE_SOURCE_DIR as
// the file's own directory or the tree's top, whichever has it); any other variable is not followed.
std::vector<fs::path> subdirectories(const std::string& text, const fs::path& here, const fs::path& top) {
  static const RE2 kAdd(R"((?i)\badd_subdirectory\s*\(\s*"?([^\s")]+))");
  std::vector<fs::path> out;
  re2::StringPiece in(text);
  std::string arg;
  while (RE2::FindAndConsume(&in, kAdd, &arg)) {
    std::vector<fs::path> bases{here};
    for (const char* var : {"${CMAKE_CURRENT_SOURCE_DIR}/", "${CMAKE_CURRENT_LIST_DIR}/", "${PROJECT_SOURCE_DIR}/",
                            "${CMAKE_SOURCE_DIR}/"}) {
      if (arg.rfind(var, 0) != 0) continue;
      arg = arg.substr(std::string(var).size());
      if (std::string(var).find("CURRENT") == std::string::npos) bases.push_back(top);
      break;
    }
    if (arg.find("${") != std::string::npos || fs::path(arg).is_absolute()) continue;
    for (const auto& b : bases) out.push_back((b / arg).lexically_normal());
  }
  return out;
}

// The lines before the stand-in's text: what it needs to know, and why the file changed.
// A quoted CMake argument holding `text` as it is (paths with spaces, quotes or '$').
std::string cmake_quoted(const std::string& text) {
  std::string out = "\"";
  for (char ch : text) {
    if (ch == '\\' || ch == '"' || ch == '$') out += '\\';
    out += ch;
  }
  return out + "\"";
}

std::string preamble(const VendoredPybind11& v, std::pair<int, int> need, const std::string& python) {
  std::string need_s = std::to_string(need.first) + "." + std::to_string(need.second);
  return "# torchsmith [build.pybind11-torch]: this directory's pybind11 (" + std::to_string(v.major) + "." +
         std::to_string(v.minor) + ") is older than the target Python needs (" + need_s +
         "), so its CMakeLists.txt is replaced in the build's copy\n"
         "# of the source by the stand-in below, which takes the build's own pybind11; `torchsmith fix --revert` puts "
         "the original back.\n"
         "set(_torchsmith_pybind11_need " + need_s + ")\n"
         "set(_torchsmith_pybind11_vendored \"${CMAKE_CURRENT_LIST_DIR}/include\")\n" +
         (python.empty() ? "" : "set(_torchsmith_python " + cmake_quoted(python) + ")\n");
}

}  // namespace

std::pair<int, int> pybind11_needed(const std::string& table, const std::string& python_version) {
  std::pair<int, int> py = two_numbers(python_version), need{0, 0};
  std::istringstream in(table);
  std::string item;
  while (in >> item) {
    auto colon = item.find(':');
    if (colon == std::string::npos) continue;
    auto p = two_numbers(item.substr(0, colon)), pb = two_numbers(item.substr(colon + 1));
    if (p.first == 0 || pb.first == 0) continue;
    if (py >= p && pb > need) need = pb;
  }
  return need;
}

Pybind11StandIn stand_in_vendored_pybind11(const std::string& tree, std::pair<int, int> need, const std::string& stand_in,
                                           bool dry_run, const std::string& python) {
  Pybind11StandIn res;
  const fs::path top = fs::path(tree).lexically_normal();
  std::set<fs::path> seen;
  std::error_code ec;
  for (const auto& file : cmake_files(tree)) {
    auto text = util::read_file(file.string());
    if (!text) continue;
    for (const auto& dir : subdirectories(*text, file.parent_path(), top)) {
      auto rel = dir.lexically_relative(top);
      if (rel.empty() || *rel.begin() == ".." || seen.count(dir) || !fs::is_regular_file(dir / "CMakeLists.txt", ec)) continue;
      auto v = header_version(dir);
      if (v.first == 0) continue;  // not a pybind11 tree
      seen.insert(dir);
      res.found.push_back({rel.generic_string(), file.lexically_relative(top).generic_string(), v.first, v.second, v < need});
    }
  }
  Journal journal;
  std::string why;
  if (!read_journal(tree, journal, &why, kJournalRel)) return {false, {why}, res.found, ""};
  struct Change {
    std::string rel, abs, before, after;
    unsigned mode;
  };
  std::vector<Change> changes;
  for (const auto& v : res.found) {
    if (!v.old) continue;
    std::string rel = v.dir + "/CMakeLists.txt", abs = (top / rel).string();
    auto before = util::read_file(abs);
    if (!before) return {false, {"cannot read " + rel}, res.found, ""};
    std::string after = preamble(v, need, python) + stand_in;
    if (*before == after) continue;  // replaced already (a resumed build)
    struct stat st {};
    unsigned mode = ::stat(abs.c_str(), &st) == 0 ? (st.st_mode & 07777) : 0644;
    res.diff += unified_diff(rel, *before, after);
    changes.push_back({rel, abs, *before, after, mode});
  }
  if (dry_run || changes.empty()) return res;
  for (const auto& c : changes) {
    JournalFile* jf = journal.find(c.rel);
    if (!jf) {
      journal.files.push_back({c.rel, c.before, sha256_hex(c.before), "", c.mode, {}});
      jf = &journal.files.back();
    }
    jf->applied_sha256 = sha256_hex(c.after);
    if (std::find(jf->fixes.begin(), jf->fixes.end(), kRule) == jf->fixes.end()) jf->fixes.push_back(kRule);
  }
  if (std::none_of(journal.fixes.begin(), journal.fixes.end(), [](const JournalFix& f) { return f.id == kRule; }))
    journal.fixes.push_back({kRule, sha256_hex(stand_in).substr(0, 16)});
  if (std::string err = write_journal(tree, journal, kJournalRel); !err.empty())
    return {false, {"cannot write the fix journal, so no file was replaced: " + err}, res.found, ""};
  for (const auto& c : changes) {
    std::string err = util::write_file_atomic(c.abs, c.after);
    if (err.empty() && ::chmod(c.abs.c_str(), c.mode) != 0) err = c.abs + ": written, but its mode could not be restored";
    if (!err.empty()) {
      res.ok = false;
      res.errors.push_back(err + " (the fix journal holds the original; `torchsmith fix --revert` restores it)");
    }
  }
  return res;
}

}  // namespace ts::source
