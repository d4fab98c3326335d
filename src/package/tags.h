#pragma once
// Wheel file names and tags (PEP 427/425): name-version(-build)?-python-abi-platform.whl, the
// WHEEL file's Tag lines, and the platform tag a set of ELF files allows (PEP 600 manylinux_2_X).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "package/wheel_policy.h"

namespace ts::package {

struct WheelName {
  std::string dist, version, build, python, abi, platform;
  // nullopt and *error when the name is not name-version-py-abi-plat.whl.
  static std::optional<WheelName> parse(std::string_view filename, std::string* error);
  std::string filename() const;
  std::string dist_info() const { return dist + "-" + version + ".dist-info"; }
};

// The grammar of each part (PEP 427 file names, PEP 440 versions, PEP 425 tags): "" when it fits,
// else why not. Names and tags become file and directory names, so nothing outside
// [A-Za-z0-9._] (and '+' '!' in versions) ever reaches a path: no '/', '..', ';' or spaces.
std::string check_dist_name(std::string_view dist);  // "torch", "flash_attn"
std::string check_wheel_version(std::string_view version);  // "2.4.1+cu124"
std::string check_tag_part(std::string_view part);  // "cp311", "none", "manylinux_2_28_x86_64", "py2.py3"
std::string check_wheel_tag(std::string_view tag);  // "cp311-cp311-linux_x86_64"

// Machine name of the wheel platform tag for an ELF e_machine ("" when no wheel tag exists).
std::string wheel_arch(unsigned machine);

// What one ELF needs of the system: the versions from DT_VERNEED ("GLIBC_2.17", "GLIBCXX_3.4.30").
struct ElfNeeds {
  std::string file;
  std::vector<std::string> versions;
};

struct PlatformChoice {
  std::string tag;             // "manylinux_2_28_x86_64" or "linux_x86_64"
  const Policy* policy = nullptr;  // the policy chosen, nullptr for linux_<arch>
  std::string why;             // for the verdict: what decided it
};

// The oldest policy every file fits (symbol versions; system libraries are checked by the caller
// through allowed_system_lib), else linux_<arch>.
PlatformChoice choose_platform(const WheelPolicies& w, const std::string& arch,
                               const std::vector<ElfNeeds>& elfs);

// WHEEL text with every Tag's platform replaced and Root-Is-Purelib false; the tags it ends with.
std::string rewrite_wheel_file(std::string_view text, const std::string& platform,
                               std::vector<std::string>* tags);
// The python/abi/platform parts of a file name for these tags ("cp311", "cp311", "linux_x86_64";
// several values joined with '.', PEP 425's compressed tag sets).
void tags_to_name(const std::vector<std::string>& tags, WheelName& name);

}  // namespace ts::package
