// The CMake side of an extension tree, read before planning so the CMake remedies
// (cmake_remedies.cpp) can be decided: who drives CMake (scikit-build-core, scikit-build, a
// setup.py that runs cmake itself, or the plan's own cmake steps for a tree with no Python build), and what the CMake files or cmake arguments hard-code: CUDA
// arches (CMAKE_CUDA_ARCHITECTURES, CUDA_ARCHITECTURES, -gencode) and C++/CUDA standards.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <re2/re2.h>

#include "plan/extension.h"
#include "util/fs.h"

namespace ts::plan {

namespace {

namespace fs = std::filesystem;

std::string read_capped(const fs::path& p, std::size_t cap = 512 * 1024) {
  return util::read_file_prefix(p.string(), cap).value_or("");
}

// A CMake line without its comment ('#' outside a quoted string starts one).
std::string cmake_code(const std::string& line) {
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '"' && (i == 0 || line[i - 1] != '\\')) quoted = !quoted;
    if (line[i] == '#' && !quoted) return line.substr(0, i);
  }
  return line;
}

std::string trimmed(std::string s) {
  auto b = s.find_first_not_of(" \t\r");
  auto e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

void add_once(std::vector<std::string>& v, const std::string& s) {
  if (std::find(v.begin(), v.end(), s) == v.end()) v.push_back(s);
}

// if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES) / if(NOT CMAKE_CUDA_ARCHITECTURES): a default that a
// -DCMAKE_CUDA_ARCHITECTURES from the command line already replaces.
bool default_guard(const std::string& line) {
  static const RE2 guard(R"((?i)^\s*if\s*\(\s*NOT\s+(?:DEFINED\s+)?(?:\$\{)?CMAKE_CUDA_ARCHITECTURES\b)");
  return RE2::PartialMatch(line, guard);
}

// The variables that choose a compiler or the CUDA toolkit (names are case-sensitive, commands not); a
// literal value (no ${...}) is the author's machine: CUDACXX, CC/CXX and CUDA_HOME reach CMake only
// while these are unset.
const char* const kToolchainVars =
    R"((CMAKE_CUDA_COMPILER|CMAKE_CUDA_HOST_COMPILER|CMAKE_CXX_COMPILER|CMAKE_C_COMPILER|CUDA_TOOLKIT_ROOT_DIR|)"
    R"(CUDAToolkit_ROOT|CUDA_NVCC_EXECUTABLE|CUDA_HOST_COMPILER))";

void add_toolchain(SourceScan& s, const std::string& var, const std::string& where) {
  for (const auto& [v, w] : s.cmake_own_toolchain)
    if (v == var) return;
  s.cmake_own_toolchain.emplace_back(var, where);
}

// set(CMAKE_CUDA_COMPILER /usr/local/cuda-10.2/bin/nvcc) / set(CMAKE_CXX_COMPILER "g++-7" CACHE ...):
// the variable when its value is a literal, "" otherwise.
std::string toolchain_set(const std::string& line) {
  static const RE2 set(std::string(R"(^\s*(?i:set)\s*\(\s*)") + kToolchainVars + R"(\s+["']?([^\s"')]+))");
  std::string var, value;
  if (!RE2::PartialMatch(line, set, &var, &value) || value.find('$') != std::string::npos) return "";
  return var;
}

// One CMake file: the lines that fix arches or a standard of their own.
void scan_cmake_file(const std::string& rel, const std::string& text, SourceScan& s) {
  static const RE2 arch_set(R"((?i)^\s*set\s*\(\s*CMAKE_CUDA_ARCHITECTURES\s+\S)");
  static const RE2 arch_prop(R"(\bCUDA_ARCHITECTURES\s+["']?[0-9n])");  // set_target_properties / set_property
  static const RE2 arch_flag(R"((?:-gencode|--generate-code|arch=compute_|-arch=sm_|--gpu-architecture))");
  static const RE2 std_set(R"((?i)^\s*set\s*\(\s*CMAKE_(?:CXX|CUDA)_STANDARD\s+["']?([0-9]+))");
  static const RE2 std_prop(R"(\b(?:CXX|CUDA)_STANDARD\s+["']?([0-9]+))");
  static const RE2 std_flag(R"(-std=(?:c|gnu)\+\+([0-9][0-9a-z]))");
  std::size_t at = 0;
  int n = 0;
  std::string prev;  // the previous line with code: a guard names what follows
  while (at < text.size()) {
    auto nl = text.find('\n', at);
    std::string raw = text.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
    at = nl == std::string::npos ? text.size() : nl + 1;
    ++n;
    std::string line = trimmed(cmake_code(raw));
    if (line.empty()) continue;
    std::string where = rel + ":" + std::to_string(n) + ": " + line.substr(0, 160);
    static const RE2 finds_torch(R"((?i)\bfind_package\s*\(\s*Torch\b)");
    if (RE2::PartialMatch(line, finds_torch) && !s.cmake_finds_torch) {
      s.cmake_finds_torch = true;
      s.cmake_finds_torch_at = where;
    }
    if (std::string var = toolchain_set(line); !var.empty()) add_toolchain(s, var, where);
    bool guarded = default_guard(prev);
    prev = line;
    if ((RE2::PartialMatch(line, arch_set) && !guarded) || RE2::PartialMatch(line, arch_prop) ||
        RE2::PartialMatch(line, arch_flag))
      add_once(s.cmake_own_arches, where);
    // FetchContent_Declare(pybind11 URL https://github.com/...): a download at configure time.
    static const RE2 fetch(R"((?i)\bFetchContent_Declare\s*\(\s*([A-Za-z0-9_.+-]+))");
    if (std::string dep; RE2::PartialMatch(line, fetch, &dep)) {
      for (auto& ch : dep) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      if (std::none_of(s.cmake_fetches.begin(), s.cmake_fetches.end(), [&](const auto& f) { return f.first == dep; }))
        s.cmake_fetches.emplace_back(dep, where);
    }
    std::string year;
    if (RE2::PartialMatch(line, std_set, &year) || RE2::PartialMatch(line, std_prop, &year)) {
      if (!guarded) s.cmake_stds.emplace_back(std::atoi(year.c_str()), where);
    } else if (RE2::PartialMatch(line, std_flag, &year)) {
      if (int y = cxx_std_year(year)) s.cmake_stds.emplace_back(y, where);
    }
  }
}

// The driver: the pyproject's backend, skbuild's setup(), or a setup.py that runs cmake itself
// (a CMakeExtension/build_ext class calling subprocess with "cmake").
std::string driver(const std::string& setup_py, const std::string& backend, const std::string& pyproject) {
  if (backend.rfind("scikit_build_core", 0) == 0) return "scikit-build-core";
  static const RE2 skbuild(R"((?m)^\s*from\s+skbuild\s+import|^\s*import\s+skbuild\b)");
  if (RE2::PartialMatch(setup_py, skbuild)) return "scikit-build";
  static const RE2 runs_cmake(R"((?:\[\s*["']cmake["']|CMakeExtension|cmake_args|["']cmake["']\s*,))");
  if (!setup_py.empty() && RE2::PartialMatch(setup_py, runs_cmake)) return "setup.py";
  if (backend.empty() && pyproject.find("scikit-build-core") != std::string::npos) return "scikit-build-core";
  return "";
}

}  // namespace

void scan_cmake_build(const std::string& dir, const std::string& setup_py, const std::string& build_backend,
                      const std::string& pyproject, SourceScan& s) {
  std::error_code ec;
  fs::path root(dir);
  s.cmake_driver = driver(setup_py, build_backend, pyproject);
  // No Python build at all: the plan runs cmake itself (extension_steps.cpp's cmake-only build).
  if (s.cmake_driver.empty() && !s.setup_py && !s.pyproject && s.cmake_lists) s.cmake_driver = "cmake";
  if (s.cmake_driver.empty()) return;
  // Arches the driver is told by the package itself: setup.py's cmake args, scikit-build's
  // cmake.define / cmake.args in pyproject.toml.
  static const RE2 d_arch(R"(-DCMAKE_CUDA_ARCHITECTURES[:=]|CMAKE_CUDA_ARCHITECTURES\s*=)");
  // -DCMAKE_CUDA_COMPILER=/usr/local/cuda-10.1/bin/nvcc in its cmake args (an f-string's {...} is no literal).
  static const RE2 d_toolchain(std::string("-D") + kToolchainVars + R"((?::[A-Z]+)?=([^\s"',\]]+))");
  auto lines_with = [&](const std::string& file, const std::string& text) {
    int n = 0;
    std::size_t at = 0;
    while (at < text.size()) {
      auto nl = text.find('\n', at);
      std::string line = trimmed(text.substr(at, nl == std::string::npos ? std::string::npos : nl - at));
      at = nl == std::string::npos ? text.size() : nl + 1;
      ++n;
      if (line.empty() || line[0] == '#') continue;
      std::string where = file + ":" + std::to_string(n) + ": " + line.substr(0, 160);
      if (RE2::PartialMatch(line, d_arch)) add_once(s.cmake_own_arches, where);
      std::string var, value;
      if (RE2::PartialMatch(line, d_toolchain, &var, &value) && value.find('{') == std::string::npos)
        add_toolchain(s, var, where);
    }
  };
  lines_with("setup.py", setup_py);
  lines_with("pyproject.toml", pyproject);
  // CMakeLists.txt and *.cmake a few levels down (what add_subdirectory/include reach), not
  // vendored trees or build output.
  fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
  int seen = 0, files = 0;
  for (; !ec && it != end && seen < 20000 && files < 200; it.increment(ec), ++seen) {
    const auto& p = it->path();
    std::string n = p.filename().string();
    if (it->is_directory(ec)) {
      if (it.depth() >= 4 || n == ".git" || n == "build" || n == "dist" || n == "third_party" || n == "3rdparty" ||
          n == "external" || n == "node_modules")
        it.disable_recursion_pending();
      continue;
    }
    if (n != "CMakeLists.txt" && p.extension() != ".cmake") continue;
    ++files;
    scan_cmake_file(fs::relative(p, root, ec).generic_string(), read_capped(p), s);
  }
}

}  // namespace ts::plan
