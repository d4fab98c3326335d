#pragma once
// Reading a conda package's info/index.json, for the channel index: .tar.bz2 is read to its end
// (so a truncated one is caught), .conda through its zip directory and info-*.tar.zst member.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "formats/byte_reader.h"

namespace ts::package {

std::optional<nlohmann::json> read_conda_index_json(const std::string& path, std::string* error);
// The same over a package already in memory (`conda`: a .conda archive, else a .tar.bz2 stream);
// nothing is written, not even a temporary file.
std::optional<nlohmann::json> read_conda_index_bytes(formats::Bytes data, bool conda, std::string* error);

}  // namespace ts::package
