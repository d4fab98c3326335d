#pragma once
// Value types that travel in JSON as their text ("12.0+PTX", ">=2.4,<2.6"): written with str(), read
// back with T::parse, whose error is thrown (nlohmann reports it with the file being read).
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace ts {

template <class T>
void write_text(nlohmann::json& j, const T& v) {
  j = v.str();
}

template <class T>
void read_text(const nlohmann::json& j, T& v) {
  std::string error;
  auto parsed = T::parse(j.get<std::string>(), &error);
  if (!parsed) throw std::invalid_argument(error);
  v = *parsed;
}

}  // namespace ts
