// The planner core: Ctx's shared helpers and the one step runner every kind of plan goes through.
#include "plan/plan_core.h"

#include <algorithm>

#include "compat/facts_util.h"
#include "plan/build_kb.h"
#include "plan/provision_choice.h"

namespace ts::plan::core {

std::optional<Version> ver(std::string_view s) { return compat::ver(s); }
std::string cite(const std::string& source, const kb::Origin& o) { return compat::cite(source, o); }

std::string dir_of(const std::string& path) {
  auto s = path.rfind('/');
  if (s == std::string::npos) return "";
  return s == 0 ? "/" : path.substr(0, s);
}

std::string Ctx::cuda_mm() const {
  if (!toolkit) return "";
  auto v = ver(toolkit->version);
  return v ? v->major_minor() : toolkit->version;
}

void Ctx::set_env(const std::string& name, const std::string& value, const std::string& reason,
                  std::string source, std::string rule) {
  p.env[name] = value;
  if (source.empty() && in)
    if (const EnvVar* e = in->build.env_var(name, version())) source = cite(e->source, e->origin);
  decide("env", name + "=" + value, reason, source, std::move(rule));
}

std::string Ctx::recipe_source() const {
  if (recipe->origin.file.empty()) return recipe->source + " (no recipe for " + recipe->name + ")";
  return cite(recipe->source, recipe->origin);
}

JobsFit fit_jobs(const Ctx& c, std::uint64_t mem_budget_bytes, const compat::JobCost& cost) {
  JobsFit f;
  f.cores = std::max(compat::usable_cores(c.facts().cpu), 1);
  f.mem = compat::usable_memory(c.facts().memory, mem_budget_bytes);
  f.fit = compat::jobs_for_memory(f.mem.bytes, f.mem.what, f.cores, cost);
  return f;
}

void warn_jobs_over_memory(Ctx& c, int asked, const std::string& origin, const JobsFit& f, const std::string& why,
                           const std::string& src) {
  int allowed = std::max(f.fit.by_mem, 1);
  if (asked <= allowed) return;
  c.warn("jobs", std::to_string(asked), "asked for (" + origin + "), but the memory model allows " +
         std::to_string(allowed) + ": " + why, src, compat::kJobsRule);
}

std::vector<CudaArch> native_arches(const HostFacts& facts) {
  std::vector<CudaArch> out;
  for (const auto& g : facts.gpus)
    if (auto a = CudaArch::parse(g.compute_capability)) out.push_back(*a);
  return out;
}

std::vector<CudaArch> family_arches(const kb::ArchFamily& f) {
  std::vector<CudaArch> out;
  for (const auto& s : f.torch_arches.empty() ? f.arches : f.torch_arches)
    if (auto a = CudaArch::parse(s)) out.push_back(*a);
  return out;
}

void run(Ctx& c, std::span<const PlanStep> steps) {
  for (const PlanStep& s : steps) {
    if (s.when && !s.when(c)) continue;
    c.rule = s.rule;
    s.part(c);
    if (s.stop_after && s.stop_after(c)) break;
  }
  insert_provision_steps(c.p.steps, c.provision_steps);
  c.move_into(c.out);
}

}  // namespace ts::plan::core
