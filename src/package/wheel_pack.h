#pragma once
// Writing a wheel from a directory tree: members in sorted order with the .dist-info files last
// and RECORD the very last (as bdist_wheel does), RECORD hashed as written, ZIP64 when needed.
#include <map>
#include <string>
#include <vector>

namespace ts::package {

struct PackInput {
  std::string root;                // where the files are
  std::vector<std::string> files;  // relative paths to pack (RECORD itself excluded)
  std::string dist_info;           // "foo-1.0+cu128.dist-info": its RECORD is written
  std::map<std::string, std::string> replaced;  // relative path -> new content (METADATA, WHEEL)
  std::vector<std::string> executable;          // relative paths packed with mode 0755
};

// Writes `out` atomically; "" on success, else what failed.
std::string pack_wheel(const PackInput& in, const std::string& out);

}  // namespace ts::package
