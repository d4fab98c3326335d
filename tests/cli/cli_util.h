#pragma once
// Running the real torchsmith binary from tests, in a clean environment (no user KB overlay).
#include <cstdlib>
#include <filesystem>
#include <utility>
#include <string>
#include <vector>

#include "util/fs.h"
#include "util/process.h"

namespace ts::testing {

inline util::RunResult run_torchsmith(const std::vector<std::string>& args,
                                      std::chrono::milliseconds timeout = std::chrono::seconds(120),
                                      const std::string& cwd = "") {
  std::vector<std::string> argv{TS_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  util::RunOptions o;
  o.timeout = timeout;
  // HOME without ~/.config/torchsmith/kb, so the built-in KB alone decides.
  o.env = std::map<std::string, std::string>{
      {"PATH", "/usr/local/bin:/usr/bin:/bin"}, {"HOME", TS_BINARY_DIR}, {"NO_COLOR", "1"},
      {"LC_ALL", "C"}};
  if (!cwd.empty()) o.cwd = cwd;
  return util::run(argv, o);
}

// Debian's python3-torch (CPU, 1.13), which tools/bootstrap.sh installs for the extension tests.
inline bool debian_torch() { return std::filesystem::exists("/usr/lib/python3/dist-packages/torch/__init__.py"); }

inline std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (std::size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size()))
    s.replace(p, from.size(), to);
  return s;
}

// Compares text with tests/golden/<name>; TS_UPDATE_GOLDEN=1 rewrites the file instead
// (then review the diff by hand before committing it).
inline ::testing::AssertionResult matches_golden(const std::string& name, const std::string& text) {
  std::string path = std::string(TS_SOURCE_DIR) + "/tests/golden/" + name;
  if (const char* u = std::getenv("TS_UPDATE_GOLDEN"); u && std::string(u) == "1") {
    auto err = util::write_file_atomic(path, text);
    if (!err.empty()) return ::testing::AssertionFailure() << err;
    return ::testing::AssertionSuccess();
  }
  auto want = util::read_file(path);
  if (!want) return ::testing::AssertionFailure() << "missing golden " << path;
  if (*want == text) return ::testing::AssertionSuccess();
  // Point at the first differing line, the rest is for `diff`.
  std::size_t line = 1, i = 0;
  for (; i < want->size() && i < text.size() && (*want)[i] == text[i]; ++i)
    if (text[i] == '\n') ++line;
  return ::testing::AssertionFailure()
         << "output differs from " << path << " at line " << line
         << " (TS_UPDATE_GOLDEN=1 rewrites it)\n--- got ---\n"
         << text;
}


// The fixture as a git repository with one commit on main (what `fetch` clones).
inline std::string make_git_fixture(const std::string& dir) {
  std::string repo = dir + "/minitorch";
  std::filesystem::copy(std::string(TS_SOURCE_DIR) + "/tests/fixtures/projects/minitorch", repo, std::filesystem::copy_options::recursive);
  util::RunOptions o;
  o.timeout = std::chrono::seconds(60);
  o.cwd = repo;
  for (std::vector<std::string> argv :
       {std::vector<std::string>{"git", "init", "-q", "-b", "main"}, {"git", "add", "-A"},
        {"git", "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "fixture"}}) {
    auto r = util::run(argv, o);
    if (!r.ok()) return "";
  }
  return repo;
}

// The wheel in OUT/dist and its RECORD (every file's sha256 and size), sorted.
inline std::pair<std::string, std::string> wheel_record(const std::string& out) {
  std::string wheel;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(out + "/dist", ec))
    if (e.path().extension() == ".whl") wheel = e.path().string();
  util::RunOptions o;
  o.timeout = std::chrono::seconds(60);
  auto r = util::run({"/usr/bin/python3", "-c",
                      "import sys, zipfile\n"
                      "z = zipfile.ZipFile(sys.argv[1])\n"
                      "n = [x for x in z.namelist() if x.endswith('.dist-info/RECORD')][0]\n"
                      "print(''.join(sorted(z.read(n).decode().splitlines(True))))\n",
                      wheel},
                     o);
  return {std::filesystem::path(wheel).filename().string(), r.ok() ? r.out : "unreadable: " + r.err};
}

}  // namespace ts::testing
