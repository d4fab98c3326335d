#include "util/cache_dir.h"

#include <cstdlib>
#include <filesystem>

namespace ts::util {

std::string cache_dir(const std::string& asked) {
  if (!asked.empty()) {
    std::error_code ec;
    auto abs = std::filesystem::absolute(asked, ec);
    return (ec ? std::filesystem::path(asked) : abs).lexically_normal().string();
  }
  auto get = [](const char* k) -> std::string {
    const char* v = std::getenv(k);
    return v && *v == '/' ? v : "";
  };
  if (auto t = get("TORCHSMITH_CACHE"); !t.empty()) return t;
  if (auto x = get("XDG_CACHE_HOME"); !x.empty()) return x + "/torchsmith";
  if (auto h = get("HOME"); !h.empty()) return h + "/.cache/torchsmith";
  return "";
}

}  // namespace ts::util
