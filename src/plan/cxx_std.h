#pragma once
// A C++ language standard as a package's build files name it ("-std=gnu++1z", CMAKE_CXX_STANDARD 14),
// read once where the source scan meets it; the remedies compare numbers, never flag text.
#include <string>
#include <string_view>

namespace ts::plan {

// "17", or a draft name ("0x" "1y" "1z" "2a" "2b" "2c") -> its year (17); 0 when no standard is named.
int cxx_std_year(std::string_view suffix);
// True when `year` names an older standard than `need` (98 comes before 03 and 11); 0 is unknown: false.
bool cxx_std_older(int year, int need);

// One -std= flag of a setup.py: as written (messages quote it) and the standard it names (0: none known).
struct StdFlag {
  std::string text;  // "-std=c++14"
  int year = 0;      // 14
  friend bool operator==(const StdFlag&, const StdFlag&) = default;
};

}  // namespace ts::plan
