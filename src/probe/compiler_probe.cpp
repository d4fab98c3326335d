// Host compilers: gcc, g++, gcc-N, clang, clang-N, cc/c++ in every bin dir. One entry per real
// binary (gcc -> gcc-12 -> x86_64-linux-gnu-gcc-12 is one compiler), each probed in parallel.
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

CompilerFacts inspect(const Host& h, CompilerFacts c, const ProbeOptions& o, Notes& notes) {
  if (c.family == "clang") {
    auto r = h.run({c.cc, "--version"}, o.command_timeout);  // "... clang version 14.0.6\nTarget: x86_64-pc-linux-gnu"
    c.version = find_version(r.out, "version");
    c.target = field(r.out, "Target", ':');
    if (!r.ok()) notes.push_back(c.cc + " --version: " + r.describe(o.command_timeout));
    return c;
  }
  auto target = std::async(std::launch::async, [&] { return h.run({c.cc, "-dumpmachine"}, o.command_timeout); });
  auto r = h.run({c.cc, "-dumpfullversion", "-dumpversion"}, o.command_timeout);
  c.version = find_version(r.out, {}, 1);
  if (!r.ok()) notes.push_back(c.cc + " -dumpfullversion: " + r.describe(o.command_timeout));
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
  return inspect_each(found, [&](const CompilerFacts& c, Notes& n) { return inspect(h, c, o, n); }, notes);
}

}  // namespace ts::probe
