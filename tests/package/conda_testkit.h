#pragma once
// Test artifacts for the conda/index tests, made in the test: a tiny project built with
// `python3 setup.py bdist_wheel`, a hand-written "torch" wheel with real ELF libraries (gcc), and
// digests computed by Python's hashlib (independent of the code under test).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "util/fs.h"
#include "util/process.h"

namespace ts::testing {

inline const char* kPython = "/usr/bin/python3";

// A fresh directory under the build tree, removed by the destructor.
struct TempDir {
  std::string path;
  explicit TempDir(const std::string& tag) {
    path = std::string(TS_BINARY_DIR) + "/tmp-" + tag + "-" + std::to_string(getpid());
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

inline util::RunResult py(const std::vector<std::string>& args, const std::string& cwd = "",
                          std::chrono::milliseconds timeout = std::chrono::seconds(120)) {
  std::vector<std::string> argv{kPython};
  argv.insert(argv.end(), args.begin(), args.end());
  util::RunOptions o;
  o.timeout = timeout;
  o.cwd = cwd;
  o.extra_env = {{"PYTHONDONTWRITEBYTECODE", "1"}, {"PIP_NO_INDEX", ""}};
  return util::run(argv, o);
}

// tiny_pkg 0.1.0 (pure Python, a console script, Requires-Dist numpy>=1.20) built with setup.py
// bdist_wheel in dir/proj; returns the wheel's path ("" with a test failure).
inline std::string build_tiny_wheel(const std::string& dir) {
  std::string proj = dir + "/proj";
  std::filesystem::create_directories(proj + "/tinypkg");
  util::write_file_atomic(proj + "/tinypkg/__init__.py", "def hello():\n    return 'hi'\n");
  util::write_file_atomic(
      proj + "/setup.py",
      "from setuptools import setup\n"
      "setup(name='tiny_pkg', version='0.1.0', packages=['tinypkg'], license='MIT',\n"
      "      description='a tiny test package',\n"
      "      entry_points={'console_scripts': ['tiny-hello=tinypkg:hello']},\n"
      "      install_requires=['numpy>=1.20'])\n");
  auto r = py({"setup.py", "-q", "bdist_wheel", "-d", dir}, proj);
  EXPECT_TRUE(r.ok()) << r.err;
  std::string wheel = dir + "/tiny_pkg-0.1.0-py3-none-any.whl";
  EXPECT_TRUE(std::filesystem::exists(wheel)) << r.out << r.err;
  return wheel;
}

// A wheel named like torch's (cp38, linux_x86_64) with two real ELF libraries where torch keeps
// them (torch/_C*.so, torch/lib/libc10.so), written with Python's zipfile. Returns its path.
inline std::string build_fake_torch_wheel(const std::string& dir,
                                          const std::string& version = "1.8.0") {
  std::string script = R"PY(
import base64, hashlib, os, subprocess, sys, zipfile
d, ver = sys.argv[1], sys.argv[2]
open(os.path.join(d, 'c.c'), 'w').write('int f(void) { return 1; }\n')
so = os.path.join(d, 'lib.so')
subprocess.check_call(['gcc', '-shared', '-fPIC', '-o', so, os.path.join(d, 'c.c')])
lib = open(so, 'rb').read()
di = 'torch-%s.dist-info' % ver
files = {
  'torch/__init__.py': b'__version__ = "%s"\n' % ver.encode(),
  'torch/version.py': b"__version__ = '%s'\ncuda = '11.0'\n" % ver.encode(),
  'torch/_C.cpython-38-x86_64-linux-gnu.so': lib,
  'torch/lib/libc10.so': lib,
  di + '/METADATA': ('Metadata-Version: 2.1\nName: torch\nVersion: %s\nSummary: Tensors and Dynamic '
                     'neural networks\nHome-page: https://pytorch.org/\nLicense: BSD-3\n'
                     'Requires-Dist: typing-extensions\n'
                     'Requires-Dist: nvidia-cudnn-cu12==9.1.0.70; platform_system == "Linux"\n\n' % ver).encode(),
  di + '/WHEEL': b'Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: false\nTag: cp38-cp38-linux_x86_64\n',
  di + '/entry_points.txt': b'[console_scripts]\ntorchrun = torch.distributed.run:main\n',
}
name = os.path.join(d, 'torch-%s-cp38-cp38-linux_x86_64.whl' % ver)
rec = []
with zipfile.ZipFile(name, 'w', zipfile.ZIP_DEFLATED) as z:
  for n, data in files.items():
    z.writestr(n, data)
    h = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()
    rec.append('%s,sha256=%s,%d' % (n, h, len(data)))
  rec.append(di + '/RECORD,,')
  z.writestr(di + '/RECORD', '\n'.join(rec) + '\n')
print(name)
)PY";
  util::write_file_atomic(dir + "/mkwheel.py", script);
  auto r = py({dir + "/mkwheel.py", dir, version});
  EXPECT_TRUE(r.ok()) << r.err;
  return util::trim(r.out);
}

// {"sha256", "md5", "size"} of a file, by hashlib.
inline std::vector<std::string> hashlib_digest(const std::string& path) {
  auto r = py({"-c",
               "import hashlib,sys; b=open(sys.argv[1],'rb').read(); "
               "print(hashlib.sha256(b).hexdigest(), hashlib.md5(b).hexdigest(), len(b))",
               path});
  EXPECT_TRUE(r.ok()) << r.err;
  std::vector<std::string> out;
  std::string cur;
  for (char c : util::trim(r.out)) {
    if (c == ' ') {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

// Extracts a .tar.bz2 or .conda with conda-package-handling (`cph x`), as conda itself would.
inline util::RunResult cph_extract(const std::string& pkg, const std::string& dest) {
  util::RunOptions o;
  o.timeout = std::chrono::seconds(120);
  return util::run({"cph", "x", pkg, "--dest", dest}, o);
}

}  // namespace ts::testing
