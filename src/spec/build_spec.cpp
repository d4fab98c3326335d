#include "spec/build_spec.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "core/arch_list.h"

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

// Written with its CMake spelling; an unknown spelling reads as Release.
void to_json(nlohmann::json& j, BuildType t) { j = build_type_name(t); }
void from_json(const nlohmann::json& j, BuildType& t) { t = type_from(j.get<std::string>()); }

// The macro's pair is inline, so it lives in its own namespace behind the two functions the header exports.
namespace io {
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(BuildSpec, package, version, arch, with, without,
                                                build_type, jobs, mem_budget_bytes, packages, source, facts_file,
                                                root, origin)
}  // namespace io

// The typed fields travel as the text they were given ("" = not asked), so a lock reads the same.
void to_json(nlohmann::json& j, const BuildSpec& s) {
  io::to_json(j, s);
  j["cuda"] = s.cuda ? s.cuda->str() : "";
  j["python"] = s.python.text();
}

void from_json(const nlohmann::json& j, BuildSpec& s) {
  io::from_json(j, s);
  std::string cuda = j.value("cuda", ""), python = j.value("python", "");
  s.cuda = cuda.empty() ? std::nullopt : Version::parse(cuda);
  s.python = PythonAsk::of(python);
  s.arch_numbers = arch_numbers(s.arch);
}

PythonAsk PythonAsk::of(const std::string& text) {
  PythonAsk a;
  if (text.find('/') == std::string::npos) a.version = Version::parse(text);
  if (!a.version) a.path = text;
  return a;
}

std::vector<CudaArch> arch_numbers(std::string_view text) {
  // Every name passes, adding nothing: only the numbers are read here.
  auto any_name = [](std::string_view, std::string*) -> std::optional<std::vector<CudaArch>> {
    return std::vector<CudaArch>{};
  };
  auto l = ArchList::parse(text, any_name);
  return l ? l->arches() : std::vector<CudaArch>{};
}

}  // namespace ts::spec
