#pragma once
// Helpers for the verify tests: a temporary directory, files, and running tools by argv.
#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "testkit/temp_dir.h"
#include "util/process.h"
#include "formats/byte_reader.h"

namespace ts::verify::test {

using TempDir = ::ts::testkit::TempDir;

inline void write(const std::string& path, const std::string& bytes) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << bytes;
}

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Runs argv with a generous timeout (nvcc takes seconds); the result for the test to judge.
inline util::RunResult run(const std::vector<std::string>& argv, std::map<std::string, std::string> env = {}) {
  util::RunOptions o;
  o.timeout = std::chrono::milliseconds(120000);
  o.max_output = 64 << 20;
  o.extra_env = std::move(env);
  return util::run(argv, o);
}

// A tool on PATH or in the CUDA toolkit's bin; "" when absent.
inline std::string tool(const std::string& name) {
  const char* p = ::getenv("PATH");
  auto dirs = util::split_path(p ? p : "");
  dirs.push_back("/usr/local/cuda/bin");
  return util::find_program(name, dirs);
}

inline formats::Bytes bytes_of(const std::string& s) {
  return {reinterpret_cast<const unsigned char*>(s.data()), s.size()};
}

}  // namespace ts::verify::test
