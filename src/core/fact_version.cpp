#include "core/fact_version.h"

#include <nlohmann/json.hpp>

namespace ts {

FactVersion::FactVersion(std::string text) : text_(std::move(text)) {
  if (!text_.empty()) parsed_ = Version::parse(text_);
}

void to_json(nlohmann::json& j, const FactVersion& v) { j = v.text(); }
void from_json(const nlohmann::json& j, FactVersion& v) { v = FactVersion(j.get<std::string>()); }

}  // namespace ts
