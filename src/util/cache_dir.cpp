#include "util/cache_dir.h"

#include <cstdlib>

namespace ts::util {

std::string cache_dir() {
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
