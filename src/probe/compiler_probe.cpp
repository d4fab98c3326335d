// Host compilers: gcc, g++, gcc-N, clang, clang-N, cc/c++ in every bin dir. One entry per real
// binary (gcc -> gcc-12 -> x86_64-linux-gnu-gcc-12 is one compiler), each probed in parallel.
// The user's $CC/$CXX join them (marked from_env): setuptools and cpp_extension compile with those.
#include <algorithm>
#include <future>

#include "probe/parallel.h"
#include "probe/sections.h"
#include "probe/text.h"
#include "util/fs.h"

namespace ts::probe {
namespace {

struct Name {
  std::string family;  // "gcc", "clang", "" (cc: decided by what it is)
  std::string cxx;     // matching C++ driver name
};

// "gcc-12" -> {gcc, g++-12}; "clang-14" -> {clang, clang++-14}; "cc" -> {"", c++}; else nullopt.
std::optional<Name> c_driver(const std::string& n) {
  auto suffix_ok = [](std::string_view s) { return s.empty() || (s[0] == '-' && all_digits(s.substr(1))); };
  if (n.starts_with("gcc") && suffix_ok(std::string_view(n).substr(3))) return Name{"gcc", "g++" + n.substr(3)};
  if (n.starts_with("clang") && !n.starts_with("clang++") && suffix_ok(std::string_view(n).substr(5)))
    return Name{"clang", "clang++" + n.substr(5)};
  if (n == "cc") return Name{"", "c++"};
  return std::nullopt;
}

std::string base_name(const std::string& p) {
  auto s = p.rfind('/');
  return s == std::string::npos ? p : p.substr(s + 1);
}

// The C++ driver beside a C driver, by GCC's and Clang's naming: ".../x86_64-linux-gnu-gcc-12" ->
// ".../x86_64-linux-gnu-g++-12", ".../clang-14" -> ".../clang++-14", ".../cc" -> ".../c++"; "" when none.
std::string cxx_sibling(const std::string& cc) {
  std::string dir = cc.substr(0, cc.size() - base_name(cc).size()), n = base_name(cc);
  if (n == "cc") return dir + "c++";
  if (auto i = n.rfind("clang"); i != std::string::npos && n.find("clang++") == std::string::npos)
    return dir + n.substr(0, i) + "clang++" + n.substr(i + 5);
  if (auto i = n.rfind("gcc"); i != std::string::npos) return dir + n.substr(0, i) + "g++" + n.substr(i + 3);
  return "";
}

// $VAR as a host path: an absolute path that exists, or a name found on PATH; "" (with a note) else.
std::string user_compiler_path(const Host& h, const std::string& var, Notes& notes) {
  std::string v = util::trim(h.getenv(var));
  if (v.empty()) return "";
  auto skip = [&](const std::string& why) {
    notes.push_back(var + "=" + v + ": " + why + "; the plan chooses from the compilers on PATH");
    return std::string();
  };
  if (v.find_first_of(" \t") != std::string::npos) return skip("a command line, not one compiler (give its path)");
  if (v.front() == '/') return h.exists(v) ? v : skip("no such file");
  if (v.find('/') != std::string::npos) return skip("a relative path (give an absolute one or a name on PATH)");
  std::string found = h.find_command(v);
  return found.empty() ? skip("not found on PATH") : found;
}

// The user's $CC/$CXX (CXX unset: CC's C++ sibling) marked on the PATH compiler they name, or added.
void add_user_compilers(const Host& h, std::vector<CompilerFacts>& found, Notes& notes) {
  std::string cc = user_compiler_path(h, "CC", notes), cxx = user_compiler_path(h, "CXX", notes);
  if (cc.empty() && cxx.empty()) return;
  std::string mark = cc.empty() ? "CXX" : cxx.empty() ? "CC" : "CC CXX";
  if (cxx.empty() && h.exists(cxx_sibling(cc))) cxx = cxx_sibling(cc);
  auto same = [&](const std::string& a, const std::string& b) {
    return a.empty() ? b.empty() : !b.empty() && h.canonical(a) == h.canonical(b);
  };
  for (auto& c : found)
    if ((cc.empty() || same(c.cc, cc)) && same(c.cxx, cxx)) {
      c.from_env = mark;
      return;
    }
  CompilerFacts c;
  std::string driver = cc.empty() ? cxx : cc;
  auto name = c_driver(base_name(driver));
  c.family = name && !name->family.empty() ? name->family
             : h.canonical(driver).find("clang") != std::string::npos ? "clang" : "gcc";
  c.cc = cc;
  c.cxx = cxx;
  c.from_env = mark;
  found.push_back(c);
}

CompilerFacts inspect(const Host& h, CompilerFacts c, const ProbeOptions& o, Notes& notes) {
  const std::string& drv = c.cc.empty() ? c.cxx : c.cc;  // a $CXX alone is probed through itself
  if (c.family == "clang") {
    auto r = h.run({drv, "--version"}, o.command_timeout);  // "... clang version 14.0.6\nTarget: x86_64-pc-linux-gnu"
    c.version = FactVersion(find_version(r.out, "version"));
    c.target = field(r.out, "Target", ':');
    if (!r.ok()) notes.push_back(drv + " --version: " + r.describe(o.command_timeout));
    return c;
  }
  auto target = std::async(std::launch::async, [&] { return h.run({drv, "-dumpmachine"}, o.command_timeout); });
  auto r = h.run({drv, "-dumpfullversion", "-dumpversion"}, o.command_timeout);
  c.version = FactVersion(find_version(r.out, {}, 1));
  if (!r.ok()) notes.push_back(drv + " -dumpfullversion: " + r.describe(o.command_timeout));
  c.target = util::trim(target.get().out);
  return c;
}

}  // namespace

std::vector<CompilerFacts> probe_compilers(const Host& h, const ProbeOptions& o, Notes& notes) {
  std::vector<CompilerFacts> found;
  std::vector<std::string> seen;  // canonical C drivers
  for (auto& dir : h.bin_dirs()) {
    // gcc/clang before gcc-N/clang-N before cc: the first name of a binary is the one reported,
    // and the plain name is what a build runs by default.
    auto names = h.list(dir);
    auto rank = [](const std::string& n) { return n == "gcc" || n == "clang" ? 0 : n == "cc" ? 2 : 1; };
    std::stable_sort(names.begin(), names.end(), [&](auto& a, auto& b) { return rank(a) < rank(b); });
    for (auto& n : names) {
      auto name = c_driver(n);
      if (!name) continue;
      std::string cc = dir + "/" + n;
      auto canon = h.canonical(cc);
      if (canon.empty() || std::find(seen.begin(), seen.end(), canon) != seen.end()) continue;
      seen.push_back(canon);
      CompilerFacts c;
      c.family = name->family;
      if (c.family.empty())  // cc that is not a link to a gcc/clang we already have
        c.family = canon.find("clang") != std::string::npos ? "clang" : "gcc";
      c.cc = cc;
      if (h.exists(dir + "/" + name->cxx)) c.cxx = dir + "/" + name->cxx;
      found.push_back(c);
    }
  }
  add_user_compilers(h, found, notes);
  return inspect_each(found, [&](const CompilerFacts& c, Notes& n) { return inspect(h, c, o, n); }, notes);
}

}  // namespace ts::probe
