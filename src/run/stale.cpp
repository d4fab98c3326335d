#include "run/stale.h"

#include "run/clean_guard.h"

#include <filesystem>
#include <sstream>

#include "util/fs.h"

namespace ts::run {

namespace fs = std::filesystem;

TreeExpectation expectation_from_plan(const plan::Plan& p, const std::string& src_dir) {
  TreeExpectation t;
  t.home_directory = src_dir;
  auto env = [&](const char* k) { auto it = p.env.find(k); return it == p.env.end() ? std::string() : it->second; };
  t.cxx_compiler = !env("CXX").empty() ? env("CXX") : p.host_compiler;
  if (p.cuda.is_chosen() && !p.cuda_home.empty()) t.cuda_compiler = p.cuda_home + "/bin/nvcc";
  t.python = p.python;
  if (env("USE_NINJA") == "1") t.generator = "Ninja";
  return t;
}

std::map<std::string, std::string> parse_cmake_cache(const std::string& text) {
  std::map<std::string, std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line.rfind("//", 0) == 0) continue;
    auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    std::string key = line.substr(0, eq);
    if (auto colon = key.find(':'); colon != std::string::npos) key.resize(colon);
    std::string value = line.substr(eq + 1);
    if (!value.empty() && value.back() == '\r') value.pop_back();
    out[key] = value;
  }
  return out;
}

namespace {

// Same file after symlinks (/usr/bin/g++ -> g++-12), or the same text when either is missing.
bool same_path(const std::string& a, const std::string& b) {
  std::error_code ec1, ec2;
  auto ca = fs::weakly_canonical(a, ec1), cb = fs::weakly_canonical(b, ec2);
  if (!ec1 && !ec2) return ca == cb;
  return a == b;
}

std::string first_of(const std::map<std::string, std::string>& c, std::initializer_list<const char*> keys) {
  for (const char* k : keys)
    if (auto it = c.find(k); it != c.end() && !it->second.empty() && it->second.find("NOTFOUND") == std::string::npos)
      return it->second;
  return "";
}

}  // namespace

StaleCheck check_stale(const std::string& build_dir, const TreeExpectation& want) {
  StaleCheck r;
  auto text = util::read_file(build_dir + "/CMakeCache.txt");
  if (!text) return r;
  r.exists = true;
  auto c = parse_cmake_cache(*text);
  auto compare = [&](const char* what, const std::string& have, const std::string& expect, const char* why) {
    if (have.empty() || expect.empty() || same_path(have, expect)) return;
    r.reasons.push_back(std::string(what) + " " + have + " (in the cache) vs " + expect + " (the plan): " + why);
  };
  compare("source tree", first_of(c, {"CMAKE_HOME_DIRECTORY"}), want.home_directory,
          "CMake refuses a cache made for another directory");
  compare("C++ compiler", first_of(c, {"CMAKE_CXX_COMPILER"}), want.cxx_compiler,
          "CMake keeps the compiler it found first");
  compare("nvcc", first_of(c, {"CMAKE_CUDA_COMPILER", "CUDA_NVCC_EXECUTABLE"}), want.cuda_compiler,
          "objects for another CUDA would be linked together");
  compare("Python", first_of(c, {"Python_EXECUTABLE", "PYTHON_EXECUTABLE"}), want.python,
          "the extension would be built for another interpreter");
  std::string gen = first_of(c, {"CMAKE_GENERATOR"});
  if (!want.generator.empty() && !gen.empty() && gen != want.generator)
    r.reasons.push_back("generator " + gen + " (in the cache) vs " + want.generator +
                        " (the plan): CMake stops with 'Does not match the generator used previously'");
  r.stale = !r.reasons.empty();
  return r;
}

std::string clean_build_dir(const std::string& build_dir, const std::string& keep_dir,
                            std::vector<std::string>* kept) {
  std::error_code ec;
  if (!fs::exists(build_dir, ec)) return "";
  if (auto why = why_not_removable(build_dir); !why.empty()) return why;
  if (!keep_dir.empty()) {
    fs::create_directories(keep_dir, ec);
    for (const char* f : {"CMakeCache.txt", "CMakeFiles/CMakeOutput.log", "CMakeFiles/CMakeError.log",
                          "CMakeFiles/CMakeConfigureLog.yaml", ".ninja_log"}) {
      fs::path from = fs::path(build_dir) / f;
      if (!fs::is_regular_file(from, ec)) continue;
      fs::path to = fs::path(keep_dir) / fs::path(f).filename();
      fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec);
      if (ec) return "could not keep " + from.string() + ": " + ec.message() + " (nothing removed)";
      if (kept) kept->push_back(to.string());
    }
  }
  fs::remove_all(build_dir, ec);
  if (ec) return "could not remove " + build_dir + ": " + ec.message();
  return "";
}

}  // namespace ts::run
