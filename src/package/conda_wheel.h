#pragma once
// What a wheel says about itself, as the conda and index stages need it: the file name's parts
// (PEP 427), METADATA's fields (core metadata, RFC 822 style) and entry_points.txt's scripts.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/package_name.h"  // normalize_name

namespace ts::package {

struct WheelName {
  std::string name, version, build, python_tag, abi_tag, platform_tag;
  std::string dist() const { return name + "-" + version; }  // the .dist-info/.data prefix
};

// "torch-2.4.1-cp38-cp38-linux_x86_64.whl" → parts; nullopt and *error when it is not a wheel name.
std::optional<WheelName> parse_wheel_name(std::string_view file_name, std::string* error);

struct WheelMetadata {
  std::string name, version, summary, license, home_page, requires_python;
  std::vector<std::string> requires_dist;
};
WheelMetadata parse_metadata(std::string_view text);

struct EntryPoint {
  std::string name, module, attr;  // "torchrun" = "torch.distributed.run:main"
  bool gui = false;
};
// [console_scripts] and [gui_scripts] of entry_points.txt.
std::vector<EntryPoint> parse_entry_points(std::string_view text);

}  // namespace ts::package
