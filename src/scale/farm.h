#pragma once
// `doctor --hosts ... --cache ...`: the build farm as this machine sees it now: each distcc host's
// reachability, compiler and slots, and the shared store's health.
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "scale/health.h"
#include "scale/hosts.h"
#include "scale/request.h"

namespace ts::scale {

struct FarmCheck {
  CacheRequest cache;
  Health store;
  bool hosts_asked = false;
  HostsCheck hosts;
  std::string error;  // bad input (exit 2)
};

FarmCheck check_farm(const std::string& cache, const std::string& hosts, const std::string& compiler,
                     const std::string& path_var, const std::string& work_dir);
std::string farm_text(const FarmCheck& f);
nlohmann::json farm_json(const FarmCheck& f);

}  // namespace ts::scale
