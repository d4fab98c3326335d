#include "source/pypi.h"

#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "core/package_name.h"
#include "source/fetch.h"
#include "util/partial_files.h"
#include "util/process.h"
#include "util/sha256.h"

namespace ts::source {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string s_of(const json& j, const char* k) { return j.is_object() && j.contains(k) && j[k].is_string() ? j[k].get<std::string>() : ""; }

bool hex64(const std::string& h) {
  return h.size() == 64 && std::all_of(h.begin(), h.end(), [](char c) { return std::isdigit((unsigned char)c) || (c >= 'a' && c <= 'f'); });
}

bool sdist_name(const std::string& f) {
  auto ends = [&](const char* e) { std::string s(e); return f.size() > s.size() && f.compare(f.size() - s.size(), s.size(), s) == 0; };
  return ends(".tar.gz") || ends(".zip");
}

// The sdist's URL, sha256 (under `hashes_key`: the JSON API says "digests", PEP 691 "hashes") and
// size from the index's entry for the file; none when the index gives no URL or no sha256.
std::optional<Sdist> with_file(Sdist s, const json& file, const char* hashes_key, std::string* error) {
  s.url = s_of(file, "url");
  s.sha256 = file.contains(hashes_key) ? s_of(file[hashes_key], "sha256") : "";
  if (file.contains("size") && file["size"].is_number_integer()) s.size = file["size"].get<long long>();
  if (s.url.empty() || !hex64(s.sha256)) {
    *error = s.filename + ": the index gives no URL or no sha256 for it";
    return std::nullopt;
  }
  return s;
}

util::RunResult curl(const std::vector<std::string>& extra, const std::string& url, std::chrono::milliseconds t) {
  std::vector<std::string> argv{"curl", "--silent", "--show-error", "--location", "--fail", "--proto", "=https,file",
                                "--max-time", std::to_string(std::max<long long>(1, t.count() / 1000))};
  argv.insert(argv.end(), extra.begin(), extra.end());
  argv.push_back("--");
  argv.push_back(url);
  util::RunOptions o;
  o.timeout = t + std::chrono::seconds(5);
  o.max_output = 64 << 20;
  return util::run(argv, o);
}

}  // namespace

std::optional<Sdist> sdist_from_release_json(const json& doc, std::string* error) {
  const json& info = doc.is_object() && doc.contains("info") ? doc["info"] : json();
  Sdist s;
  s.name = s_of(info, "name"), s.version = s_of(info, "version");
  if (!doc.is_object() || !doc.contains("urls") || !doc["urls"].is_array()) {
    *error = "the index's answer has no urls[] (not a release document)";
    return std::nullopt;
  }
  for (const auto& u : doc["urls"]) {
    if (s_of(u, "packagetype") != "sdist" || (u.contains("yanked") && u["yanked"].is_boolean() && u["yanked"].get<bool>())) continue;
    s.filename = s_of(u, "filename");
    return with_file(s, u, "digests", error);
  }
  *error = s.name + " " + s.version + " has no sdist on the index (wheels only): give its git URL@TAG or a directory";
  return std::nullopt;
}

std::optional<Sdist> sdist_from_simple_json(const json& doc, const std::string& name, const std::string& version,
                                            std::string* error) {
  if (!doc.is_object() || !doc.contains("files") || !doc["files"].is_array()) {
    *error = "the index's answer has no files[] (not a PEP 691 project page)";
    return std::nullopt;
  }
  const std::string want = normalize_name(name) + "-" + version;
  for (const auto& f : doc["files"]) {
    std::string fn = s_of(f, "filename");
    if (!sdist_name(fn)) continue;
    std::string stem = fn.substr(0, fn.size() - (fn.back() == 'z' ? 7 : 4));
    auto dash = stem.rfind('-');
    if (dash == std::string::npos || normalize_name(stem.substr(0, dash)) + "-" + stem.substr(dash + 1) != want) continue;
    if (f.contains("yanked") && !(f["yanked"].is_boolean() && !f["yanked"].get<bool>())) continue;
    Sdist s;
    s.name = name, s.version = version, s.filename = fn;
    return with_file(s, f, "hashes", error);
  }
  *error = name + " " + version + " has no sdist on the index (wheels only, or no such release)";
  return std::nullopt;
}

std::optional<Sdist> find_sdist(const std::string& name, const std::string& version, const IndexOptions& o,
                                std::string* error, bool* unreachable) {
  if (unreachable) *unreachable = false;
  std::string n = normalize_name(name);
  auto api = curl({}, o.json_api + "/" + n + "/" + version + "/json", o.timeout);
  std::string api_error;
  if (api.ok()) {
    json doc = json::parse(api.out, nullptr, false);
    if (auto s = sdist_from_release_json(doc, &api_error)) return s;
    if (doc.is_object() && doc.contains("urls")) { *error = api_error; return std::nullopt; }
  }
  auto simple = curl({"--header", "Accept: application/vnd.pypi.simple.v1+json"}, o.simple + "/" + n + "/", o.timeout);
  if (!simple.ok()) {
    if (unreachable) *unreachable = api.exit_code != 22 && simple.exit_code != 22;  // 22: an HTTP error answered
    std::string why = simple.err.empty() ? simple.describe(o.timeout) : simple.err;
    while (!why.empty() && (why.back() == '\n' || why.back() == '\r')) why.pop_back();
    *error = "cannot read " + name + " " + version + " from the package index (" + o.json_api + ", " + o.simple + "): " + why;
    return std::nullopt;
  }
  json doc = json::parse(simple.out, nullptr, false);
  return sdist_from_simple_json(doc, name, version, error);
}

std::string file_sha256(const std::string& path, std::string* error) {
  auto digest = util::sha256_file(path);
  if (!digest) *error = "cannot read " + path;
  return digest.value_or("");
}

std::string fetch_sdist(const Sdist& s, const std::string& cache_dir, std::chrono::milliseconds timeout,
                        std::string* error) {
  if (!hex64(s.sha256) || s.filename.empty() || s.filename.find('/') != std::string::npos || s.filename[0] == '.') {
    *error = "'" + s.filename + "': not a file name with a sha256 to check it by";
    return "";
  }
  const std::string dir = cache_dir + "/sdists/" + s.sha256, path = dir + "/" + s.filename;
  std::error_code ec;
  std::string err;
  if (fs::exists(path, ec)) {
    if (file_sha256(path, &err) == s.sha256) return path;
    fs::remove(path, ec);  // a damaged cache entry is fetched again
  }
  fs::create_directories(dir, ec);
  if (ec) { *error = "cannot create " + dir + ": " + ec.message(); return ""; }
  // The writer's pid in the name: a later fetch removes what a killed one left (util/partial_files.h).
  const std::string marker = s.filename + ".part-";
  util::remove_stale(dir, marker);
  const std::string part = dir + "/" + marker + std::to_string(::getpid());
  auto r = curl({"--output", part}, s.url, timeout);
  if (!r.ok()) {
    fs::remove(part, ec);
    std::string why = r.err;
    while (!why.empty() && (why.back() == '\n' || why.back() == '\r')) why.pop_back();
    *error = "downloading " + s.url + " failed: " + (why.empty() ? r.describe(timeout) : why);
    return "";
  }
  std::string got = file_sha256(part, &err);
  if (got != s.sha256) {
    fs::remove(part, ec);
    *error = s.filename + ": sha256 " + (got.empty() ? err : got) + " is not the index's " + s.sha256 +
             " (a damaged or altered download; nothing was kept)";
    return "";
  }
  fs::rename(part, path, ec);
  if (ec) { *error = "cannot move " + part + " to " + path + ": " + ec.message(); return ""; }
  return path;
}

bool unpack_sdist(const std::string& archive, const std::string& dir, std::string* error) {
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_empty(dir, ec)) {
    *error = dir + " exists and is not empty; choose an empty or new directory";
    return false;
  }
  const std::string part = dir + ".unpacking";
  fs::remove_all(part, ec);  // only ours: a name no one else writes
  std::string tree = extract_archive(archive, part, error);
  if (tree.empty()) { fs::remove_all(part, ec); return false; }
  fs::remove(dir, ec);  // an empty directory made for it
  fs::rename(tree, dir, ec);
  if (ec) {
    *error = "cannot move " + tree + " to " + dir + ": " + ec.message();
    fs::remove_all(part, ec);
    return false;
  }
  fs::remove_all(part, ec);
  return true;
}

}  // namespace ts::source
