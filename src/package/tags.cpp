#include "package/tags.h"

#include <algorithm>
#include <cctype>

#include "core/version.h"
#include "formats/elf.h"
#include "formats/wheel.h"
#include "util/split.h"

namespace ts::package {
namespace {

void add_unique(std::vector<std::string>& v, const std::string& s) {
  if (std::find(v.begin(), v.end(), s) == v.end()) v.push_back(s);
}

bool alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

}  // namespace

std::string check_dist_name(std::string_view dist) {
  std::string d(dist);
  if (dist.empty()) return "an empty distribution name";
  if (!alnum(dist.front()) || !alnum(dist.back()))
    return "distribution name '" + d + "' must start and end with a letter or digit (PEP 427)";
  for (char c : dist)
    if (!alnum(c) && c != '_' && c != '.')
      return "distribution name '" + d + "' holds '" + std::string(1, c) +
             "' (only letters, digits, '_' and '.' in a wheel name, PEP 427)";
  return "";
}

std::string check_wheel_version(std::string_view version) {
  std::string v(version);
  if (version.empty()) return "an empty version";
  for (char c : version)
    if (!alnum(c) && c != '.' && c != '_' && c != '+' && c != '!')
      return "version '" + v + "' holds '" + std::string(1, c) + "' (not a PEP 440 version)";
  std::string why;
  if (!Version::parse(version, &why)) return "version '" + v + "' is not a PEP 440 version" + (why.empty() ? "" : ": " + why);
  return "";
}

// One grammar for tags, the one the shared wheel check (formats/wheel.h) asks.
std::string check_tag_part(std::string_view part) { return formats::check_tag_part(part); }

std::string check_wheel_tag(std::string_view tag) { return formats::check_wheel_tag(tag); }

std::optional<WheelName> WheelName::parse(std::string_view filename, std::string* error) {
  auto slash = filename.find_last_of('/');
  if (slash != std::string_view::npos) filename.remove_prefix(slash + 1);
  auto bad = [&](const std::string& why) -> std::optional<WheelName> {
    if (error)
      *error = "'" + std::string(filename) + "' is not a wheel file name (" + why +
               "; expected name-version-pytag-abitag-platform.whl, PEP 427)";
    return std::nullopt;
  };
  if (filename.size() < 4 || filename.substr(filename.size() - 4) != ".whl")
    return bad("no .whl suffix");
  auto parts = util::split(filename.substr(0, filename.size() - 4), '-');
  if (parts.size() != 5 && parts.size() != 6) return bad("wrong number of '-' separated parts");
  for (const auto& p : parts)
    if (p.empty()) return bad("an empty part");
  WheelName n;
  n.dist = parts[0];
  n.version = parts[1];
  if (parts.size() == 6) {
    n.build = parts[2];
    if (!std::isdigit(static_cast<unsigned char>(n.build[0]))) return bad("build tag must start with a digit");
  }
  n.python = parts[parts.size() - 3];
  n.abi = parts[parts.size() - 2];
  n.platform = parts[parts.size() - 1];
  // The parts become directory and file names (NAME-VERSION.dist-info/, the output wheel).
  for (const auto& why : {check_dist_name(n.dist), check_wheel_version(n.version), check_tag_part(n.python),
                          check_tag_part(n.abi), check_tag_part(n.platform)})
    if (!why.empty()) return bad(why);
  if (!n.build.empty())
    for (char c : n.build)
      if (!alnum(c) && c != '_') return bad("build tag '" + n.build + "' holds '" + std::string(1, c) + "'");
  return n;
}

std::string WheelName::filename() const {
  return dist + "-" + version + (build.empty() ? "" : "-" + build) + "-" + python + "-" + abi +
         "-" + platform + ".whl";
}

std::string wheel_arch(unsigned machine) {
  switch (machine) {
    case 62: return "x86_64";   // EM_X86_64
    case 183: return "aarch64"; // EM_AARCH64
    case 21: return "ppc64le";  // EM_PPC64 (little-endian is the one wheels exist for)
    case 22: return "s390x";    // EM_S390
    case 3: return "i686";      // EM_386
    default: return "";
  }
}

PlatformChoice choose_platform(const WheelPolicies& w, const std::string& arch,
                               const std::vector<ElfNeeds>& elfs) {
  PlatformChoice c;
  c.tag = "linux_" + arch;
  std::string worst;  // the version that ruled out the newest policy, for the message
  for (const auto& p : w.policies) {
    const PolicyArch* pa = p.for_arch(arch);
    if (!pa) continue;
    bool fits = true;
    for (const auto& e : elfs)
      for (const auto& v : e.versions)
        if (!version_fits(*pa, v)) {
          fits = false;
          worst = e.file + " needs " + v;
          break;
        }
    if (fits) {
      c.policy = &p;
      c.tag = p.name + "_" + arch;
      std::string glibc_max;
      for (const auto& e : elfs)
        for (const auto& v : e.versions)
          if (v.rfind("GLIBC_", 0) == 0 && v.size() > 6 && std::isdigit(static_cast<unsigned char>(v[6])) &&
              (glibc_max.empty() || dotted_less(glibc_max, v.substr(6))))
            glibc_max = v.substr(6);
      c.why = "symbol versions fit " + p.name + " (highest GLIBC needed: " +
              (glibc_max.empty() ? "none" : glibc_max) + ")";
      return c;
    }
  }
  c.why = worst.empty() ? "no manylinux policy for " + arch
                        : "no manylinux policy allows it: " + worst;
  return c;
}

std::string rewrite_wheel_file(std::string_view text, const std::string& platform,
                               std::vector<std::string>* tags) {
  std::string out;
  std::vector<std::string> seen;
  bool purelib = false;
  for (const auto& raw : util::split(text, '\n')) {
    std::string line = raw;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.rfind("Tag:", 0) == 0) {
      std::string tag = line.substr(4);
      tag.erase(0, tag.find_first_not_of(" \t"));
      auto parts = util::split(tag, '-');
      if (parts.size() == 3) tag = parts[0] + "-" + parts[1] + "-" + platform;
      if (std::find(seen.begin(), seen.end(), tag) != seen.end()) continue;
      seen.push_back(tag);
      out += "Tag: " + tag + "\n";
    } else if (line.rfind("Root-Is-Purelib:", 0) == 0) {
      out += "Root-Is-Purelib: false\n";  // it holds native code
      purelib = true;
    } else if (!line.empty()) {
      out += line + "\n";
    }
  }
  if (!purelib) out += "Root-Is-Purelib: false\n";
  if (tags) *tags = seen;
  return out;
}

void tags_to_name(const std::vector<std::string>& tags, WheelName& name) {
  std::vector<std::string> py, abi, plat;
  for (const auto& t : tags) {
    auto parts = util::split(t, '-');
    if (parts.size() != 3) continue;
    add_unique(py, parts[0]);
    add_unique(abi, parts[1]);
    add_unique(plat, parts[2]);
  }
  if (py.empty()) return;
  name.python = util::join(py, ".");
  name.abi = util::join(abi, ".");
  name.platform = util::join(plat, ".");
}

}  // namespace ts::package
