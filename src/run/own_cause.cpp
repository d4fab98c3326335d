#include "run/own_cause.h"

#include <cctype>

#include <re2/re2.h>

#include "util/split.h"

namespace ts::run {

std::vector<std::string> own_failures(const std::string& log) {
  // repair's "%-5s %-9s %s" and verify's check_lines: FAIL, the check's name, the detail.
  static const RE2 fail_line(R"(^FAIL +(\S+) +(.*?)\s*$)");
  static const RE2 error_line(R"(^torchsmith (?:repair|verify|conda|fix): (.+?)\s*$)");
  std::vector<std::string> out;
  for (const auto& line : util::split(log, '\n')) {
    std::string check, detail;
    if (RE2::FullMatch(line, fail_line, &check, &detail)) {
      if (check == "output" && detail.rfind("not written: a check failed", 0) == 0) continue;
      out.push_back(check + ": " + detail);
    } else if (RE2::FullMatch(line, error_line, &detail)) {
      out.push_back(detail);
    }
  }
  return out;
}

nlohmann::json own_cause(const std::string& step, const std::string& what, const std::string& log_path) {
  std::string id;
  for (char ch : step) id += std::isalnum(static_cast<unsigned char>(ch)) ? static_cast<char>(std::toupper(ch)) : '_';
  return {{"schema", "torchsmith-diagnosis/1"},
          {"root_cause",
           {{"id", id + "_REFUSED"},
            {"cause", "torchsmith's " + step + " step refused: " + what},
            {"fix", "The step's own verdicts say what it found" +
                        (log_path.empty() ? std::string(".") : " (its log: " + log_path + ").")}}}};
}

}  // namespace ts::run
