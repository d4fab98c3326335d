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

// Python: writes a wheel at argv[1] (argv[2]: "deflate" or "store") from pairs (member name, source
// file), then the .dist-info a wheel needs (METADATA, WHEEL, RECORD with every hash), as pip's
// tools do; the distribution is the file name's first '-' part.
constexpr const char* kMakeWheel = R"(
import sys, zipfile, hashlib, base64, os
out, method = sys.argv[1], (zipfile.ZIP_DEFLATED if sys.argv[2] == "deflate" else zipfile.ZIP_STORED)
dist = os.path.basename(out).split("-")[0].removesuffix(".whl")
di = dist + "-1.0.dist-info"
rec = []
with zipfile.ZipFile(out, "w", method) as z:
    def put(name, data):
        z.writestr(name, data)
        h = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        rec.append("%s,sha256=%s,%d" % (name, h, len(data)))
    for i in range(3, len(sys.argv), 2):
        put(sys.argv[i], open(sys.argv[i + 1], "rb").read())
    put(di + "/METADATA", b"Metadata-Version: 2.1\nName: " + dist.encode() + b"\nVersion: 1.0\n")
    put(di + "/WHEEL", b"Wheel-Version: 1.0\nTag: py3-none-any\n")
    z.writestr(di + "/RECORD", "\n".join(rec + [di + "/RECORD,,"]) + "\n")
)";

}  // namespace ts::verify::test
