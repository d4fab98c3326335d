#include "spec/build_spec.h"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace ts::spec {

const char* build_type_name(BuildType t) {
  switch (t) {
    case BuildType::debug: return "Debug";
    case BuildType::relwithdebinfo: return "RelWithDebInfo";
    default: return "Release";
  }
}

std::string BuildSpec::origin_of(const std::string& field) const {
  auto it = origin.find(field);
  return it == origin.end() ? "default" : it->second;
}

bool BuildSpec::wants(const std::string& kind) const {
  return std::find(packages.begin(), packages.end(), kind) != packages.end();
}

SourceRef parse_source(const std::string& text) {
  SourceRef r;
  bool url = text.find("://") != std::string::npos || text.rfind("git@", 0) == 0;
  if (!url) {
    r.dir = text;
    return r;
  }
  // The revision follows the last '@' after the host part ("git@host:x@ref" keeps its user).
  auto scheme = text.find("://");
  auto from = scheme == std::string::npos ? text.find(':') : scheme + 3;
  auto at = text.rfind('@');
  if (at != std::string::npos && at > from) {
    r.url = text.substr(0, at);
    r.ref = text.substr(at + 1);
  } else {
    r.url = text;
  }
  return r;
}

namespace {
BuildType type_from(const std::string& s) {
  if (s == "Debug") return BuildType::debug;
  if (s == "RelWithDebInfo") return BuildType::relwithdebinfo;
  return BuildType::release;
}
}  // namespace

void to_json(nlohmann::json& j, const BuildSpec& s) {
  j = {{"package", s.package},        {"version", s.version},   {"cuda", s.cuda},
       {"arch", s.arch},              {"python", s.python},     {"with", s.with},
       {"without", s.without},        {"build_type", build_type_name(s.build_type)},
       {"jobs", s.jobs},              {"mem_budget_bytes", s.mem_budget_bytes},
       {"packages", s.packages},      {"source", s.source},     {"facts_file", s.facts_file},
       {"root", s.root},              {"origin", s.origin}};
}

void from_json(const nlohmann::json& j, BuildSpec& s) {
  BuildSpec d;
  s.package = j.value("package", d.package);
  s.version = j.value("version", d.version);
  s.cuda = j.value("cuda", d.cuda);
  s.arch = j.value("arch", d.arch);
  s.python = j.value("python", d.python);
  s.with = j.value("with", d.with);
  s.without = j.value("without", d.without);
  s.build_type = type_from(j.value("build_type", std::string("Release")));
  s.jobs = j.value("jobs", 0);
  s.mem_budget_bytes = j.value("mem_budget_bytes", std::uint64_t{0});
  s.packages = j.value("packages", d.packages);
  s.source = j.value("source", d.source);
  s.facts_file = j.value("facts_file", d.facts_file);
  s.root = j.value("root", d.root);
  s.origin = j.value("origin", d.origin);
}

}  // namespace ts::spec
