#include "plan/parallelism.h"
#include "plan/lock.h"

#include <nlohmann/json.hpp>

#include "plan/render.h"
#include "source/hash.h"
#include "util/fs.h"

namespace ts::plan {

std::string lock_digest(nlohmann::json lock) {
  if (lock.is_object()) lock.erase("digest");
  return "sha256:" + source::sha256_hex(lock.dump());
}

void seal_lock(nlohmann::json& lock) { lock["digest"] = lock_digest(lock); }

LockSeal lock_seal(const nlohmann::json& lock) {
  if (!lock.is_object() || !lock.contains("digest")) return LockSeal::unsealed;
  const auto& d = lock["digest"];
  return d.is_string() && d.get<std::string>() == lock_digest(lock) ? LockSeal::sealed : LockSeal::edited;
}

std::optional<Plan> parse_lock(const std::string& text, std::string* error, LockSeal* seal) {
  try {
    auto j = nlohmann::json::parse(text);
    if (j.is_object() && j.contains("plan") && j["plan"].is_object()) j = j["plan"];
    if (seal) *seal = lock_seal(j);
    return j.get<Plan>();
  } catch (const std::exception& e) {
    if (error)
      *error = std::string("not a torchsmith lock file (") + e.what() + "); write one with `torchsmith plan SPEC -o FILE`";
    return std::nullopt;
  }
}

std::optional<Plan> read_lock(const std::string& path, std::string* error, LockSeal* seal) {
  auto text = util::read_file(path);
  if (!text) {
    if (error) *error = path + ": cannot read it";
    return std::nullopt;
  }
  std::string e;
  auto p = parse_lock(*text, &e, seal);
  if (!p && error) *error = path + ": " + e;
  return p;
}

std::string build_identity_hash(const Plan& p) {
  nlohmann::json j = lock_json(p);
  j.erase("decisions");
  j.erase("jobs");
  j.erase("scale");  // where units compile and which cache serves them changes no output
  // The hashes a run recorded pin the same wheels (name==version stays): a build from the lock the
  // run filled is the same build.
  if (j.contains("provisioned"))
    for (auto& t : j["provisioned"])
      for (auto& w : t["wheels"]) w.erase("file"), w.erase("sha256");
  for (const char* k : kJobKnobs) j["env"].erase(k);
  return source::sha256_hex(j.dump());
}

}  // namespace ts::plan
