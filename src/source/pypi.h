#pragma once
// A package's source distribution by name: NAME==VER looked up in the package index (PyPI's JSON
// API, https://pypi.org/pypi/NAME/VER/json, or any PEP 691 simple index's JSON), downloaded into
// the cache with an argv-spawned curl, and its sha256 checked against what the index says.
#include <chrono>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace ts::source {

struct Sdist {
  std::string name, version;
  std::string filename;  // torch_scatter-2.1.2.tar.gz
  std::string url;
  std::string sha256;    // lower-case hex, from the index
  long long size = -1;
};

// From the JSON API's document for one release: its urls[] entry of packagetype "sdist".
// nullopt with *error ("torch-scatter 2.1.2 has no sdist on the index (wheels only)") otherwise.
std::optional<Sdist> sdist_from_release_json(const nlohmann::json& doc, std::string* error);

// From a PEP 691 project page (files[]): NAME-VER.tar.gz (or .zip), not yanked.
std::optional<Sdist> sdist_from_simple_json(const nlohmann::json& doc, const std::string& name,
                                            const std::string& version, std::string* error);

struct IndexOptions {
  std::string json_api = "https://pypi.org/pypi";    // NAME/VER/json below it
  std::string simple = "https://pypi.org/simple";    // NAME/ below it (PEP 691)
  std::chrono::milliseconds timeout{std::chrono::seconds(30)};
};

// Asks the JSON API, then the simple index (mirrors often serve only that). nullopt and *error
// when neither answers or the release has no sdist; *unreachable says whether the index could
// not be reached at all (tests skip on that).
std::optional<Sdist> find_sdist(const std::string& name, const std::string& version, const IndexOptions& o,
                                std::string* error, bool* unreachable = nullptr);

// The sdist in CACHE/sdists/SHA256/FILENAME: downloaded when absent (to a .part file, renamed only
// after its sha256 matched), checked when present. "" and *error on any problem.
std::string fetch_sdist(const Sdist& s, const std::string& cache_dir, std::chrono::milliseconds timeout,
                        std::string* error);

// The sdist unpacked so that dir is its tree (the archive's one top folder renamed to dir): unpacked
// beside dir first, so a failed unpack leaves nothing at dir. false and *error when dir is not empty
// or the archive does not unpack.
bool unpack_sdist(const std::string& archive, const std::string& dir, std::string* error);

// Lower-case hex sha256 of a file ("" and *error when it cannot be read).
std::string file_sha256(const std::string& path, std::string* error);

}  // namespace ts::source
