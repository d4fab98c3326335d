#include "scale/farm.h"

#include <cstdio>

#include <nlohmann/json.hpp>

namespace ts::scale {

FarmCheck check_farm(const std::string& cache, const std::string& hosts, const std::string& compiler,
                     const std::string& path_var, const std::string& work_dir) {
  FarmCheck f;
  f.cache = parse_cache(cache, &f.error);
  if (!f.error.empty()) return f;
  if (!hosts.empty()) {
    f.hosts_asked = true;
    auto h = parse_hosts(hosts, &f.error);
    if (!f.error.empty()) return f;
    f.hosts = check_hosts(h, compiler, path_var, work_dir);
  }
  if (!f.cache.empty()) f.store = check_store(f.cache);
  return f;
}

std::string farm_text(const FarmCheck& f) {
  std::string o = "Build farm\n";
  char b[64];
  if (!f.cache.empty()) {
    std::snprintf(b, sizeof b, "%.1f ms", f.store.ms);
    o += std::string("  ") + (f.store.ok ? "ok    " : "down  ") + "store " + f.cache.url + " (" + f.cache.engine + "): " +
         f.store.detail + " in " + b + (f.store.ok ? "" : "; a build would go on without it") + "\n";
  }
  if (f.hosts_asked) {
    if (!f.hosts.error.empty()) return o + "  error distcc: " + f.hosts.error + "\n";
    o += "  this machine: compiler " + f.hosts.local_compiler + ", distcc " + f.hosts.distcc + "\n";
    for (const auto& h : f.hosts.hosts) {
      std::snprintf(b, sizeof b, "%.0f ms", h.ms);
      o += std::string("  ") + (h.kept ? "ok    " : "skip  ") + h.host.spec + ": " +
           (h.kept ? std::to_string(h.host.slots) + " slots, compiler " + h.compiler + ", probe compile " + b : h.why) + "\n";
    }
    o += "  " + std::to_string(f.hosts.kept_slots()) + " remote slots on " + std::to_string(f.hosts.kept().size()) + " of " +
         std::to_string(f.hosts.hosts.size()) + " hosts\n";
  }
  return o;
}

nlohmann::json farm_json(const FarmCheck& f) {
  nlohmann::json j = nlohmann::json::object();
  if (!f.cache.empty())
    j["store"] = {{"engine", f.cache.engine}, {"url", f.cache.url}, {"ok", f.store.ok},
                  {"ms", f.store.ms},         {"detail", f.store.detail}};
  if (f.hosts_asked) {
    nlohmann::json hosts = nlohmann::json::array();
    for (const auto& h : f.hosts.hosts)
      hosts.push_back({{"host", h.host.spec}, {"slots", h.host.slots}, {"reachable", h.reachable},
                       {"compiler", h.compiler}, {"kept", h.kept}, {"why", h.why}, {"ms", h.ms}});
    j["distcc"] = {{"client", f.hosts.distcc}, {"local_compiler", f.hosts.local_compiler},
                   {"error", f.hosts.error},   {"hosts", hosts}, {"remote_slots", f.hosts.kept_slots()}};
  }
  return j;
}

}  // namespace ts::scale
