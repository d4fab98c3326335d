#include "util/utc_time.h"

namespace ts::util {

std::string utc_time(const char* fmt, std::time_t when) {
  std::tm tm{};
  gmtime_r(&when, &tm);
  char b[64];
  size_t n = std::strftime(b, sizeof b, fmt, &tm);
  return std::string(b, n);
}

}  // namespace ts::util
