#pragma once
// Reading a conda package's info/index.json, for the channel index: .tar.bz2 is read to its end
// (so a truncated one is caught), .conda through its zip directory and info-*.tar.zst member.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace ts::package {

std::optional<nlohmann::json> read_conda_index_json(const std::string& path, std::string* error);

}  // namespace ts::package
