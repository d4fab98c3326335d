#pragma once
// Which KB files this loader reads, in what order, and how overlay directories are listed.
#include <string>
#include <string_view>
#include <vector>

namespace ts::kb::detail {

// Load order of a file by its base name: cuda.toml first (every arch is checked against it), then
// families.toml (gpus name a family), tegra, torch, gpus, resources. -1: not a file this loader reads.
int load_order(std::string_view file_name);

struct KbFile {
  std::string relative;  // "gpus.toml", "packages/apex.toml"
  std::string path;      // full path
};

// Every *.toml under dir (recursively), sorted by load_order then name. False + error if dir is unreadable.
bool list_toml_files(const std::string& dir, std::vector<KbFile>& out, std::string& error);
bool read_text_file(const std::string& path, std::string& out);

}  // namespace ts::kb::detail
