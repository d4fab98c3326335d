#include "package/wheel_policy.h"

#include <fnmatch.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "kb/tomlpp.h"

#include "kb/check.h"
#include "kb/embedded.h"
#include "kb/layers.h"
#include "kb/toml_parse.h"
#include "kb/toml_reader.h"
#include "formats/elf.h"

namespace ts::package {

using kb::detail::EntryReader;
using kb::detail::read_tables;

namespace {

constexpr const char* kNamespaces[] = {"GLIBC", "GLIBCXX", "CXXABI", "GCC"};

bool dotted(std::string_view v) {
  if (v.empty() || v.front() == '.' || v.back() == '.') return false;
  return v.find_first_not_of("0123456789.") == std::string_view::npos &&
         v.find("..") == std::string_view::npos;
}

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

const PolicyArch* Policy::for_arch(std::string_view arch) const {
  for (const auto& a : arches)
    if (a.arch == arch) return &a;
  return nullptr;
}

const External* WheelPolicies::external(std::string_view needed) const {
  const std::string n(needed);
  for (const auto& e : externals)
    if (::fnmatch(e.pattern.c_str(), n.c_str(), 0) == 0) return &e;
  return nullptr;
}

bool dotted_less(std::string_view a, std::string_view b) {
  // verify's comparison is numeric within one "NAME_" namespace.
  return formats::version_less("V_" + std::string(a), "V_" + std::string(b));
}

bool version_fits(const PolicyArch& p, std::string_view required) {
  const auto us = required.find('_');
  if (us == std::string_view::npos) return true;
  const std::string ns(required.substr(0, us));
  const std::string v(required.substr(us + 1));
  auto m = p.max.find(ns);
  if (m == p.max.end()) return true;
  if (auto x = p.extra.find(ns); x != p.extra.end())
    if (std::find(x->second.begin(), x->second.end(), v) != x->second.end()) return true;
  if (!dotted(v)) return false;  // a tag the policy does not list (FLOAT128 on aarch64)
  return !dotted_less(m->second, v);
}

namespace {

// A later file's entry replaces the one with the same key (a policy's name, an external's pattern).
template <class T>
void replace_or_add(std::vector<T>& entries, T e, std::string T::*key) {
  auto it = std::find_if(entries.begin(), entries.end(), [&](const T& x) { return x.*key == e.*key; });
  if (it != entries.end()) *it = std::move(e);
  else entries.push_back(std::move(e));
}

void read_into(WheelPolicies& into, std::string_view file, std::string_view text,
               std::vector<kb::KbError>& errs) {
  const std::string f(file);
  toml::table root;
  try {
    root = kb::parse_toml(text, file);
  } catch (const toml::parse_error& e) {
    errs.push_back({{f, int(e.source().begin.line)}, std::string(e.description())});
    return;
  }
  read_tables(root["policy"].as_array(), f, "policy", errs, [&](EntryReader& r) {
    Policy p;
    r.common(p);
    p.name = r.text("name", true, "\"manylinux_2_28\"");
    p.glibc = r.text("glibc", true, "\"2.28\"");
    p.aliases = r.texts("aliases", false, "[\"manylinux2014\"]");
    p.libs = r.texts("libs", true, "[\"libc.so.6\", \"libm.so.6\"]");
    if (!p.glibc.empty() && !dotted(p.glibc)) r.error(r.line(), "glibc: '" + p.glibc + "' is not a version; write \"2.28\"");
    std::string expected = "manylinux_" + p.glibc;
    std::replace(expected.begin(), expected.end(), '.', '_');
    if (!p.name.empty() && p.name != expected)
      r.error(r.line(), "name: '" + p.name + "' does not match glibc '" + p.glibc + "'; write \"" + expected + "\"");
    if (const toml::array* arches = r.tables("arch")) {
      read_tables(arches, f, "policy arch", errs, [&](EntryReader& ar) {
        PolicyArch pa;
        pa.arch = ar.text("arch", true, "\"x86_64\"");
        for (const char* ns : kNamespaces) {
          std::string key = lower(ns);
          std::string v = ar.text(key, true, "\"2.28\"");
          if (!v.empty() && !dotted(v)) ar.error(ar.line(), key + ": '" + v + "' is not a version");
          pa.max[ns] = v;
          auto extra = ar.texts(key + "_extra", false, "[\"TM_1\"]");
          if (!extra.empty()) pa.extra[ns] = extra;
        }
        p.arches.push_back(std::move(pa));
      });
    } else {
      r.error(r.line(), "policy '" + p.name + "' has no [[policy.arch]] tables");
    }
    replace_or_add(into.policies, std::move(p), &Policy::name);
  });
  read_tables(root["external"].as_array(), f, "external", errs, [&](EntryReader& r) {
    External e;
    r.common(e);
    e.pattern = r.text("pattern", true, "\"libtorch*.so*\"");
    e.provider = r.text("provider", true, "\"torch\"");
    replace_or_add(into.externals, std::move(e), &External::pattern);
  });
  for (const auto& [k, v] : root)
    if (k.str() != "policy" && k.str() != "external")
      errs.push_back({{f, kb::detail::line_of(v)},
                      "unknown table '" + std::string(k.str()) + "'; write [[policy]] or [[external]]"});
  std::sort(into.policies.begin(), into.policies.end(), [](const Policy& a, const Policy& b) {
    return dotted_less(a.glibc, b.glibc);
  });
}

}  // namespace

bool read_wheel_policies(WheelPolicies& into, std::string_view file, std::string_view text,
                         std::vector<std::string>& errors) {
  std::vector<kb::KbError> errs;
  read_into(into, file, text, errs);
  for (const auto& e : errs) errors.push_back(e.str());
  return errs.empty();
}

WheelPolicies load_wheel_policies(const std::vector<std::string>& overlay_dirs,
                                  std::vector<std::string>& errors) {
  return kb::read_layers<WheelPolicies>("manylinux.toml", overlay_dirs, errors, read_wheel_policies);
}

void validate_wheel_policy_file(std::string_view file, std::string_view text, std::vector<kb::KbError>& errors) {
  WheelPolicies w;
  read_into(w, file, text, errors);
}

}  // namespace ts::package
