#pragma once
// Helpers for the fixture tests: probe a fake root under tests/fixtures/hosts and look things up.
#include <algorithm>
#include <string>

#include "probe/probe.h"

namespace ts::probe::testing {

inline std::string fixture_dir(const std::string& name) {
  return std::string(TS_SOURCE_DIR) + "/tests/fixtures/hosts/" + name;
}

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
