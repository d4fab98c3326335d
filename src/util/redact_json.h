#pragma once
// redact_text over every string of a JSON document (a lock, run.json) before it is stored.
#include <nlohmann/json.hpp>

#include "util/url.h"

namespace ts::util {

inline void redact_json(nlohmann::json& j) {
  if (j.is_string()) j = redact_text(j.get_ref<const std::string&>());
  else if (j.is_structured())
    for (auto& v : j) redact_json(v);
}

}  // namespace ts::util
