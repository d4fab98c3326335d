#include "plan/planner.h"

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "compat/assess.h"
#include "plan/fix_bridge.h"
#include "plan/resolve.h"

namespace ts::plan {

Knowledge load_knowledge(const std::vector<std::string>& overlay_dirs) {
  Knowledge k;
  std::vector<kb::KbError> kerr;
  k.kb = kb::load(overlay_dirs, kerr);
  for (const auto& e : kerr) k.errors.push_back(e.str());
  k.build = load_build_kb(overlay_dirs, k.errors);
  k.fixes = source::load_fixes(overlay_dirs, k.errors);
  return k;
}

std::optional<HostFacts> read_facts_file(const std::string& path, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "--facts " + path + ": cannot be read";
    return std::nullopt;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  try {
    auto j = nlohmann::json::parse(ss.str());
    if (j.contains("facts")) j = j["facts"];  // a whole doctor --json report
    if (!j.is_object() || !j.contains("schema")) {
      error = "--facts " + path + ": not a doctor --json report (no facts.schema)";
      return std::nullopt;
    }
    return j.get<HostFacts>();
  } catch (const std::exception& e) {
    error = "--facts " + path + ": " + e.what();
    return std::nullopt;
  }
}

PlanResult make_plan(const spec::BuildSpec& spec, HostFacts facts, const Knowledge& k,
                     const ProvisionContext* provision, const ScaleProbe& scale) {
  compat::identify_gpus(facts, k.kb);
  Inputs in{spec, facts, k.kb, k.build, chooser_for(k.fixes), provision, scale ? &scale : nullptr};
  return resolve(in);
}

}  // namespace ts::plan
