#pragma once
// A compatibility verdict: one thing checked on this host, how it came out, why, and what to do.
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace ts::compat {

enum class Level { ok, info, warn, fail };
const char* level_name(Level l);  // "ok", "info", "warn", "fail"

struct Verdict {
  std::string
      topic;  // "driver", "gpu", "compiler", "cmake", "python", "numpy", "torch", "memory", "disk"
  std::string subject;  // what was checked: "driver 535.98 with CUDA 11.8"
  Level level = Level::ok;
  std::string reason;  // why: "CUDA 11.8 needs driver >= 520.61.05"
  std::string fix;     // what to do, "" when nothing is needed
  std::string source;  // the upstream source of the KB entry the rule rests on
  std::string where;   // that entry in the KB: "cuda.toml:124"
  std::string rule;    // stable id of the rule that judged it: "gpu.toolkit", "cmake.releases"
};

void to_json(nlohmann::json& j, const Verdict& v);

struct Summary {
  int ok = 0, info = 0, warn = 0, fail = 0;
};
Summary summarize(const std::vector<Verdict>& vs);

}  // namespace ts::compat
