#pragma once
// One file of a mirror brought into a private staging directory: from an http(s):// or file:// URL
// through curl (argv, bounded: a connection that stalls is cut), or copied from a local directory.
// What is hashed and unpacked afterwards is always that staged copy, never the mirror's file.
#include <chrono>
#include <string>

namespace ts::provision {

struct Mirror {
  std::string base;  // "https://host/compute/cuda/redist", "file:///srv/redist" or a directory
  // A transfer slower than 1 KiB/s for this long is cut (a mirror that stalls); connecting too.
  std::chrono::seconds stall{60};
  std::chrono::seconds max_time{3600};  // one file, whole (cuBLAS' archive is ~800 MB)

  bool is_url() const;
  // base + "/" + rel (rel must be a relative path without '..': checked by fetch).
  std::string where(const std::string& rel) const;
  // Copies `rel` into `dest` (a new file); "" or why not, naming the URL or file.
  std::string fetch(const std::string& rel, const std::string& dest) const;
};

// The mirror a user set: --toolkit-mirror, else $TORCHSMITH_TOOLKIT_MIRROR, else `fallback`.
std::string mirror_setting(const std::string& cli, const std::string& fallback);

}  // namespace ts::provision
