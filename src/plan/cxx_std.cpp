#include "plan/cxx_std.h"

#include <cctype>
#include <utility>

namespace ts::plan {

int cxx_std_year(std::string_view v) {
  static const std::pair<std::string_view, int> drafts[] = {{"0x", 11}, {"1y", 14}, {"1z", 17},
                                                            {"2a", 20}, {"2b", 23}, {"2c", 26}};
  for (const auto& [name, year] : drafts)
    if (v == name) return year;
  auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  if (v.size() == 2 && digit(v[0]) && digit(v[1])) return (v[0] - '0') * 10 + (v[1] - '0');
  return 0;
}

bool cxx_std_older(int year, int need) {
  if (!year || !need) return false;
  auto order = [](int y) { return y >= 98 ? y - 100 : y; };  // 98 -> -2: before 03
  return order(year) < order(need);
}

}  // namespace ts::plan
