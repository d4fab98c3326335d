// The planner core: Ctx's shared helpers and the one step runner every kind of plan goes through.
#include "plan/plan_core.h"

#include <algorithm>

#include "compat/facts_util.h"
#include "compat/host_compiler_rule.h"
#include "plan/build_kb.h"
#include "plan/provision_choice.h"
#include "util/split.h"

namespace ts::plan::core {

std::string cite(const std::string& source, const kb::Origin& o) { return compat::cite(source, o); }

std::string dir_of(const std::string& path) {
  auto s = path.rfind('/');
  if (s == std::string::npos) return "";
  return s == 0 ? "/" : path.substr(0, s);
}

std::vector<BuildTool> find_build_tools(const Ctx& c, const std::string& name) {
  std::vector<BuildTool> out;
  if (c.python) {
    auto it = c.python->packages.find(name);
    if (it != c.python->packages.end())
      out.push_back({dir_of(c.python->path) + "/" + name, it->second, "the build Python's " + name + " package"});
  }
  for (const auto& t : c.facts().tools)
    if ((t.name == name || (name == "cmake" && t.name == "cmake3")) && t.version.parsed())
      out.push_back({t.path, t.version, "found on the machine"});
  return out;
}

std::string Ctx::cuda_mm() const {
  if (!toolkit) return "";
  auto v = toolkit->version.parsed();
  return v ? v->major_minor() : toolkit->version;
}

const Version& Ctx::torch_version() const {
  static const Version unknown;
  const auto& v = in->spec.version.parsed();
  return v ? *v : unknown;
}

FactVersion Ctx::cuda_mm_version() const {
  auto v = toolkit ? toolkit->version.parsed() : std::nullopt;
  return v ? FactVersion(v->truncated(2)) : FactVersion();
}

void scale_step(Ctx& c) {
  if (!c.scale || !*c.scale || !c.conflicts.empty()) return;
  std::size_t before = c.p.decisions.size();
  (*c.scale)(c.p);
  // The probe's decisions become this step's, in the log's order.
  std::vector<Decision> made(c.p.decisions.begin() + static_cast<std::ptrdiff_t>(before), c.p.decisions.end());
  c.p.decisions.resize(before);
  for (auto& d : made) c.record(std::move(d.topic), std::move(d.value), std::move(d.reason), std::move(d.source), d.warning);
}

int with_remote_slots(Ctx& c, int local_jobs) {
  if (c.p.scale.distribute.empty()) return local_jobs;
  c.p.scale.local_jobs = local_jobs;
  int remote = c.p.scale.remote_slots;
  if (remote <= 0) return local_jobs;
  int total = local_jobs + remote;
  c.decide("jobs", std::to_string(total),
           std::to_string(remote) + " remote slots (" + c.p.scale.hosts + ") + " + std::to_string(local_jobs) +
               " local jobs: remote compiles cost this machine only their preprocessing, and links and fallbacks "
               "run here within the memory model; the governor watches the local processes only",
           "https://www.distcc.org/man/distcc_1.html");
  return total;
}

bool Ctx::skipped_for_cuda(const std::string& topic, const std::string& what) {
  if (!p.cuda.is_conflict()) return false;
  warn(topic, "skipped", what + " depends on the CUDA toolkit, which is a conflict (" + p.cuda.conflict_what() +
                            "): nothing is chosen until it is resolved", "plan.toolkit");
  return true;
}

void Ctx::set_env(const std::string& name, const std::string& value, const std::string& reason,
                  std::string source, std::string rule) {
  p.env[name] = value;
  if (source.empty() && in)
    if (const EnvVar* e = in->build.env_var(name, torch_version())) source = cite(e->source, e->origin);
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

void set_path(Ctx& c, const std::vector<std::string>& tool_dirs, const std::string& why) {
  std::vector<std::string> dirs;
  auto add = [&](const std::string& d) {
    if (!d.empty() && std::find(dirs.begin(), dirs.end(), d) == dirs.end()) dirs.push_back(d);
  };
  for (const auto& d : tool_dirs) add(d);
  if (c.cuda_on && !c.p.cuda_home.empty()) add(c.p.cuda_home + "/bin");
  // A compiler in a system dir comes with the system dirs, in their order: put first, /usr/bin would
  // shadow /usr/local/bin, and a build script's bare `pip` would find the OS's (PEP 668) pip.
  if (c.compiler) {
    std::string d = dir_of(c.compiler->cxx);
    if (std::find(std::begin(kSystemBinDirs), std::end(kSystemBinDirs), d) == std::end(kSystemBinDirs)) add(d);
  }
  for (const char* d : kSystemBinDirs) add(d);
  c.set_env("PATH", util::join(dirs, ":"), why, "torchsmith");
}

void keep_search_paths(Ctx& c) {
  for (const auto& [k, v] : c.facts().search_paths) {
    if (c.p.env.count(k)) continue;
    c.set_env(k, v, "exported in your environment: the compilers search it (headers or libraries installed outside "
              "the system's directories); the build gets the plan's environment, so it is kept here (--env " + k +
              "=DIR gives another)", "your environment", "plan.search_paths");
  }
}

void set_compiler_env(Ctx& c, const CompilerFacts& cc, const std::string& why, const std::string& source) {
  c.set_env("CC", cc.cc.empty() ? cc.cxx : cc.cc, why, source);
  c.set_env("CXX", cc.cxx, why, source);
}

void use_provisioned_toolkit(Ctx& c, const ProvisionContext& pc, const ToolRelease& t) {
  c.provisioned = provisioned_toolkit(pc, t);
  c.toolkit = &c.provisioned;
  add_provision(pc, t, c.provision_steps, c.p.provisioned);
}

bool usable_toolkit(const CudaToolkitFacts& t) { return !t.nvcc.empty() && t.version.parsed().has_value(); }

const CudaToolkitFacts* toolkit_at(const Ctx& c, const std::string& dir) {
  const CudaToolkitFacts* found = nullptr;
  for (const auto& t : c.facts().cuda_toolkits)
    if (t.path == dir && usable_toolkit(t)) found = &t;  // the probe's last word on that directory
  return found;
}

int nvcc_gcc_max(const Ctx& c) {
  if (!c.cuda_on) return 0;
  if (c.cuda_rel) return c.cuda_rel->gcc_max.major();
  return c.toolkit ? compat::gcc_max_major(c.kb(), c.toolkit->version) : 0;
}

std::vector<CudaArch> native_arches(const HostFacts& facts) { return native_gpu_arches(facts); }

std::vector<CudaArch> family_arches(const kb::ArchFamily& f) {
  return f.torch_arches.empty() ? f.arches : f.torch_arches;
}

WheelTags wheel_tags(const Ctx& c) {
  const PythonFacts* py = c.python;
  return {py && !py->abi_tag.empty() ? py->abi_tag : "cp3XX",
          py && !py->platform_tag.empty() ? py->platform_tag : "linux_" + c.facts().cpu.arch};
}

Step package_step(const std::string& note) {
  return {"package", {"torchsmith", "repair", "{built_wheel}", "-o", "{dist}", "--plan", "{lock}"}, "", note};
}

std::vector<std::string> no_gpu_ways_out(const HostFacts& facts) {
  // nvidia-smi comes with the driver: named as here only when a driver and a GPU are.
  std::string where = !facts.gpus.empty() && facts.driver.present
                          ? "nvidia-smi --query-gpu=compute_cap --format=csv prints it"
                          : "on the machine with the GPU, nvidia-smi --query-gpu=compute_cap --format=csv prints it; "
                            "developer.nvidia.com/cuda-gpus lists every GPU's";
  return {"a CPU-only build: --without cuda",
          "or build for the GPU it will run on: --arch X.Y, that GPU's compute capability (" + where + ")"};
}

std::optional<ArchList> parse_arches(const Ctx& c, const std::string& text, ArchNames& names, std::string* err) {
  auto resolve = [&](std::string_view name, std::string* why) -> std::optional<std::vector<CudaArch>> {
    std::string n(name);
    if (n == "native") {
      std::vector<CudaArch> out = native_arches(c.facts());
      if (out.empty()) {
        names.no_gpu = true;
        *why = "no GPU";
        return std::nullopt;
      }
      names.native = true;
      return out;
    }
    if (names.own)
      if (auto out = names.own(n, why)) {
        if (!out->empty()) return out;
        if (why->empty()) *why = "no GPU";
        return std::nullopt;
      }
    if (const auto* f = c.kb().find_family(n)) return family_arches(*f);
    names.unknown = n;
    *why = names.unknown_error ? names.unknown_error(n) : "unknown name";
    return std::nullopt;
  };
  return ArchList::parse(text, resolve, err);
}

void run(Ctx& c, std::span<const PlanStep> steps) {
  for (const PlanStep& s : steps) {
    if (!(s.kinds & c.kind) || (s.when && !s.when(c))) continue;
    c.rule = s.rule;
    s.part(c);
    if (s.stop_after && s.stop_after(c)) break;
  }
  insert_provision_steps(c.p.steps, c.provision_steps);
  c.move_into(c.out);
}

}  // namespace ts::plan::core
