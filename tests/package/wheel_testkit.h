#pragma once
// Helpers for the package tests: a temporary directory, file I/O, running a tool.
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "testkit/temp_dir.h"
#include "util/process.h"

namespace ts::package::testkit {

using TempDir = ::ts::testkit::TempDir;

inline std::string slurp(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

inline void spit(const std::string& p, const std::string& data) {
  std::filesystem::create_directories(std::filesystem::path(p).parent_path());
  std::ofstream(p, std::ios::binary) << data;
}

inline util::RunResult run(const std::vector<std::string>& argv, int timeout_s = 120) {
  util::RunOptions o;
  o.timeout = std::chrono::seconds(timeout_s);
  return util::run(argv, o);
}

inline bool have(const std::string& prog) {
  return !util::find_program(prog, util::split_path(getenv("PATH") ? getenv("PATH") : "")).empty();
}

}  // namespace ts::package::testkit
