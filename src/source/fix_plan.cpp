#include "source/fix_plan.h"

#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace ts::source {

bool planned_fixes(const nlohmann::json& j, const FixSet& set, std::vector<const Fix*>& out,
                   std::string& error) {
  if (!j.is_object() || !j.contains("lock") || !j["lock"].is_object() || !j["lock"].contains("fix_hashes") ||
      !j["lock"]["fix_hashes"].is_object()) {
    error = "not a torchsmith lock file (no lock.fix_hashes); write one with `torchsmith plan SPEC -o LOCK`";
    return false;
  }
  const nlohmann::json& hashes = j["lock"]["fix_hashes"];
  // Hash tables, not a search per id: the plan's order, then ids only in fix_hashes.
  std::vector<std::string> ids;
  std::unordered_set<std::string> seen;
  if (j.contains("fixes") && j["fixes"].is_array())
    for (const auto& f : j["fixes"])
      if (f.is_object() && f.contains("id") && f["id"].is_string() && seen.insert(f["id"].get<std::string>()).second)
        ids.push_back(f["id"].get<std::string>());
  for (const auto& [id, h] : hashes.items())
    if (seen.insert(id).second) ids.push_back(id);
  std::unordered_map<std::string_view, const Fix*> by_id;
  by_id.reserve(set.fixes.size());
  for (const auto& f : set.fixes) by_id.emplace(f.id, &f);  // the first of an id, as FixSet::find
  for (const auto& id : ids) {
    auto h = hashes.find(id);
    if (h == hashes.end()) continue;
    auto it = by_id.find(id);
    if (it == by_id.end()) {
      error = "the plan names fix '" + id + "', which this knowledge base lacks (an overlay missing? --kb DIR)";
      return false;
    }
    std::string want = h->is_string() ? h->get<std::string>() : "";
    if (fix_hash(*it->second) != want) {
      error = "fix '" + id + "' changed since the plan was made; run `torchsmith plan` again";
      return false;
    }
    out.push_back(it->second);
  }
  return true;
}

}  // namespace ts::source
