#pragma once
// Helpers for the fixture tests: probe a fake root under tests/fixtures/hosts and look things up.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "probe/probe.h"
#include "testkit/temp_dir.h"

namespace ts::probe::testing {

inline std::string fixture_dir(const std::string& name) {
  return std::string(TS_SOURCE_DIR) + "/tests/fixtures/hosts/" + name;
}

// A fake root written by the test: files (stubs executable) and relative symlinks under a temp dir.
struct TempRoot {
  ::ts::testkit::TempDir tmp{"ts-host"};
  std::filesystem::path dir = tmp.path();
  void write(const std::string& p, const std::string& text, bool exec = false) {
    std::filesystem::path full = dir / p.substr(1);
    std::filesystem::create_directories(full.parent_path());
    std::ofstream(full) << text;
    if (exec) std::filesystem::permissions(full, std::filesystem::perms::owner_all);
  }
  void link(const std::string& p, const std::string& target) {
    std::filesystem::path full = dir / p.substr(1);
    std::filesystem::create_directories(full.parent_path());
    std::filesystem::create_symlink(target, full);
  }
};

inline HostFacts probe_fixture(const std::string& name, ProbeOptions o = {}) {
  std::string err;
  auto host = Host::at(fixture_dir(name), &err);
  if (!host) return HostFacts{};
  return ts::probe::probe(*host, o);
}

template <class V, class P>
auto find_if(const V& v, P pred) -> const typename V::value_type* {
  auto it = std::find_if(v.begin(), v.end(), pred);
  return it == v.end() ? nullptr : &*it;
}

inline const CudaToolkitFacts* toolkit(const HostFacts& f, const std::string& path) {
  return find_if(f.cuda_toolkits, [&](auto& t) { return t.path == path; });
}
inline const ToolFacts* tool(const HostFacts& f, const std::string& name) {
  return find_if(f.tools, [&](auto& t) { return t.name == name; });
}
inline const PythonFacts* python(const HostFacts& f, const std::string& path) {
  return find_if(f.pythons, [&](auto& p) { return p.path == path; });
}
inline const LibraryFacts* library(const HostFacts& f, const std::string& name) {
  return find_if(f.libraries, [&](auto& l) { return l.name == name; });
}
inline const CompilerFacts* compiler(const HostFacts& f, const std::string& cc) {
  return find_if(f.compilers, [&](auto& c) { return c.cc == cc; });
}

}  // namespace ts::probe::testing
