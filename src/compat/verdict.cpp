#include "compat/verdict.h"

#include <nlohmann/json.hpp>

namespace ts::compat {

const char* level_name(Level l) {
  switch (l) {
    case Level::ok:
      return "ok";
    case Level::info:
      return "info";
    case Level::warn:
      return "warn";
    case Level::fail:
      return "fail";
  }
  return "?";
}

void to_json(nlohmann::json& j, const Verdict& v) {
  j = nlohmann::json{{"topic", v.topic},   {"subject", v.subject}, {"level", level_name(v.level)},
                     {"reason", v.reason}, {"fix", v.fix},         {"source", v.source},
                     {"where", v.where}, {"rule", v.rule}};
}

Summary summarize(const std::vector<Verdict>& vs) {
  Summary s;
  for (const auto& v : vs) {
    switch (v.level) {
      case Level::ok:
        ++s.ok;
        break;
      case Level::info:
        ++s.info;
        break;
      case Level::warn:
        ++s.warn;
        break;
      case Level::fail:
        ++s.fail;
        break;
    }
  }
  return s;
}

}  // namespace ts::compat
