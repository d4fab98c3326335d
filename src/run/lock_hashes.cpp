#include "run/lock_hashes.h"

#include "provision/provision.h"

namespace ts::run {

int record_provisioned_hashes(nlohmann::json& lock) {
  int filled = 0;
  if (!lock.contains("provisioned") || !lock["provisioned"].is_array()) return 0;
  for (auto& t : lock["provisioned"]) {
    if (!t.is_object() || !t.contains("wheels") || !t["wheels"].is_array()) continue;
    auto m = provision::read_manifest(t.value("dir", ""));
    if (!m) continue;
    for (auto& w : t["wheels"])
      for (const auto& have : m->wheels)
        // A redist component's version is known once its manifest was read: the plan leaves it "".
        if (w.is_object() && w.value("name", "") == have.name &&
            (w.value("version", "") == have.version || w.value("version", "").empty()) &&
            w.value("sha256", "").empty() && !have.sha256.empty()) {
          w["version"] = have.version;
          w["sha256"] = have.sha256;
          w["file"] = have.file;
          ++filled;
        }
  }
  return filled;
}

}  // namespace ts::run
