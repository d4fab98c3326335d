// JSON both ways for the plan types: the lock file is read back by `torchsmith build --lock`.
#include <algorithm>
#include <cctype>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "plan/plan.h"

namespace ts::plan {

CudaChoice CudaChoice::chosen(Version v) {
  CudaChoice c;
  c.version_ = std::move(v);
  return c;
}

CudaChoice CudaChoice::conflict(std::string what) {
  CudaChoice c;
  c.conflict_ = what.empty() ? "CUDA toolkit" : std::move(what);  // a conflict is never mistaken for none
  return c;
}

CudaChoice CudaChoice::from_text(std::string_view text) {
  if (text.empty()) return {};
  std::string err;
  auto v = Version::parse(text, &err);
  if (!v) throw std::invalid_argument("cuda '" + std::string(text) + "': " + err);
  return chosen(std::move(*v));
}

std::string CudaChoice::cu_tag() const {
  return version_ ? "cu" + std::to_string(version_->major()) + std::to_string(version_->minor()) : "";
}

void to_json(nlohmann::json& j, const Decision& d) {
  j = {{"topic", d.topic}, {"value", d.value}, {"reason", d.reason}, {"source", d.source}, {"rule", d.rule}};
  if (d.warning) j["warning"] = true;
}
void from_json(const nlohmann::json& j, Decision& d) {
  d.topic = j.at("topic").get<std::string>();
  d.value = j.value("value", "");
  d.reason = j.value("reason", "");
  d.source = j.value("source", "");
  d.warning = j.value("warning", false);
  d.rule = j.value("rule", "");
}

void to_json(nlohmann::json& j, const Conflict& c) {
  j = {{"what", c.what}, {"why", c.why}, {"fixes", c.fixes}, {"source", c.source}, {"rule", c.rule}};
}
void from_json(const nlohmann::json& j, Conflict& c) {
  c.what = j.at("what").get<std::string>();
  c.why = j.value("why", "");
  c.fixes = j.value("fixes", std::vector<std::string>{});
  c.source = j.value("source", "");
  c.rule = j.value("rule", "");
}

void to_json(nlohmann::json& j, const Step& s) {
  j = {{"name", s.name}, {"argv", s.argv}, {"cwd", s.cwd}, {"note", s.note}};
}
void from_json(const nlohmann::json& j, Step& s) {
  s.name = j.at("name").get<std::string>();
  s.argv = j.value("argv", std::vector<std::string>{});
  s.cwd = j.value("cwd", "");
  s.note = j.value("note", "");
}

void to_json(nlohmann::json& j, const Artifact& a) {
  j = {{"kind", a.kind}, {"name", a.name}, {"pattern", a.pattern}, {"note", a.note}};
}
void from_json(const nlohmann::json& j, Artifact& a) {
  a.kind = j.at("kind").get<std::string>();
  a.name = j.value("name", "");
  a.pattern = j.value("pattern", "");
  a.note = j.value("note", "");
}

void to_json(nlohmann::json& j, const PlannedFix& f) {
  j = {{"id", f.id}, {"reason", f.reason}, {"source", f.source}, {"hash", f.hash}};
}
void from_json(const nlohmann::json& j, PlannedFix& f) {
  f.id = j.at("id").get<std::string>();
  f.reason = j.value("reason", "");
  f.source = j.value("source", "");
  f.hash = j.value("hash", "");
}

void to_json(nlohmann::json& j, const Plan& p) {
  j = {{"schema", p.schema},
       {"spec", p.spec},
       {"torch_version", p.torch_version},
       {"build_version", p.build_version},
       {"cuda", p.cuda.text()},
       {"cuda_home", p.cuda_home},
       {"python", p.python},
       {"python_version", p.python_version},
       {"arch_list", p.arch_list.torch_cuda_arch_list()},
       {"host_compiler", p.host_compiler},
       {"cmake_version", p.cmake_version},
       {"cmake_range", p.cmake_range},
       {"numpy_version", p.numpy_version},
       {"jobs", p.jobs},
       {"parallel", {{"nvcc_threads", p.nvcc_threads}, {"nvcc_split", p.nvcc_split}, {"side_by_side", p.side_by_side}}},
       {"env", p.env},
       {"cmake_options", p.cmake_options},
       {"features", p.features},
       {"fixes", p.fixes},
       {"steps", p.steps},
       {"artifacts", p.artifacts},
       {"decisions", p.decisions},
       {"source", {{"url", p.source_url}, {"ref", p.source_ref}, {"dir", p.source_dir},
                   {"revision", p.source_revision}}}};
  if (p.cuda.is_conflict()) j["cuda_conflict"] = p.cuda.conflict_what();  // "cuda" is "" then: no toolkit chosen
  // Written whenever the env could be read for it, so a lock reads back the value it was written with.
  if (p.cxx_std || p.env.count("TORCHSMITH_CXX_STD")) j["cxx_std"] = p.cxx_std;
  if (!p.torch_cuda.empty()) j["torch_cuda"] = p.torch_cuda;
  if (!p.torch_cmake_prefix.empty()) j["torch_cmake_prefix"] = p.torch_cmake_prefix;
  if (!p.import_name.empty()) j["import_name"] = p.import_name;
  if (!p.smoke.empty()) j["smoke"] = p.smoke;
  if (p.no_device_code) j["device_code"] = false;
  if (p.plain_version) j["local_version"] = "none";
  if (!p.runtime_requires.empty()) j["runtime_requires"] = p.runtime_requires;
  if (!p.provisioned.empty()) {
    auto& a = j["provisioned"] = nlohmann::json::array();
    for (const auto& t : p.provisioned) {
      nlohmann::json w = nlohmann::json::array();
      for (const auto& x : t.wheels)
        w.push_back({{"name", x.name}, {"version", x.version}, {"file", x.file}, {"sha256", x.sha256}});
      a.push_back({{"kind", t.kind}, {"version", t.version}, {"provider", t.provider}, {"from", t.from},
                   {"dir", t.dir}, {"wheels", w}});
    }
  }
  if (!p.scale.empty())
    j["scale"] = {{"cache_engine", p.scale.cache_engine}, {"cache_store", p.scale.cache_store},
                  {"distribute", p.scale.distribute},     {"hosts", p.scale.hosts},
                  {"left_out", p.scale.left_out},         {"remote_slots", p.scale.remote_slots},
                  {"local_jobs", p.scale.local_jobs},     {"nvcc", p.scale.nvcc}};
}

namespace {

// The number after `opt` in a flags value ("--threads 6"), 0 when absent.
int flag_number(const std::map<std::string, std::string>& env, const char* key, const std::string& opt) {
  auto it = env.find(key);
  if (it == env.end()) return 0;
  auto at = it->second.find(opt + " ");
  if (at == std::string::npos) return 0;
  int n = 0;
  for (std::size_t i = at + opt.size() + 1; i < it->second.size() && std::isdigit(static_cast<unsigned char>(it->second[i])) && n < 100000; ++i)
    n = n * 10 + (it->second[i] - '0');
  return n;
}

// The number a knob's value is ("17"), 0 when absent or not all digits.
int digits_of(const std::map<std::string, std::string>& env, const char* key) {
  auto it = env.find(key);
  if (it == env.end() || it->second.empty() || it->second.size() > 4) return 0;
  int n = 0;
  for (char ch : it->second) {
    if (!std::isdigit(static_cast<unsigned char>(ch))) return 0;
    n = n * 10 + (ch - '0');
  }
  return n;
}

// A lock written before the parallel counts were typed: read once here, at the edge, from the
// knobs the planner wrote then (TORCHSMITH_NVCC_THREADS, NVCC_APPEND_FLAGS, TORCHSMITH_EXT_JOBS).
void read_legacy_parallelism(Plan& p) {
  int threads = 0;
  if (auto it = p.env.find("TORCHSMITH_NVCC_THREADS"); it != p.env.end()) {
    for (char ch : it->second)
      if (std::isdigit(static_cast<unsigned char>(ch)) && threads < 100000) threads = threads * 10 + (ch - '0');
  }
  if (threads == 0) threads = flag_number(p.env, "NVCC_APPEND_FLAGS", "--threads");
  p.nvcc_threads = std::max(threads, 1);
  p.nvcc_split = flag_number(p.env, "NVCC_APPEND_FLAGS", "--split-compile");
  p.side_by_side = p.env.count("TORCHSMITH_EXT_JOBS") > 0;
}

// The lock's TORCH_CUDA_ARCH_LIST string, parsed once here ("" = a CPU build); numbers only, as
// the planner writes them.
ArchList read_arch_list(const std::string& text) {
  if (text.empty()) return {};
  std::string err;
  auto list = ArchList::parse(text, nullptr, &err);
  if (!list) throw std::invalid_argument("arch_list '" + text + "': " + err);
  return *list;
}

}  // namespace

void from_json(const nlohmann::json& j, Plan& p) {
  p.schema = j.at("schema").get<std::string>();
  p.spec = j.at("spec").get<spec::BuildSpec>();
  p.torch_version = j.value("torch_version", "");
  p.build_version = j.value("build_version", "");
  p.torch_cuda = j.value("torch_cuda", "");
  p.torch_cmake_prefix = j.value("torch_cmake_prefix", "");
  p.cuda = j.contains("cuda_conflict") ? CudaChoice::conflict(j.at("cuda_conflict").get<std::string>())
                                       : CudaChoice::from_text(j.value("cuda", ""));
  p.cuda_home = j.value("cuda_home", "");
  p.python = j.value("python", "");
  p.python_version = FactVersion(j.value("python_version", ""));
  p.arch_list = read_arch_list(j.value("arch_list", ""));
  p.host_compiler = j.value("host_compiler", "");
  p.cmake_version = j.value("cmake_version", "");
  p.cmake_range = j.value("cmake_range", "");
  p.numpy_version = j.value("numpy_version", "");
  p.jobs = j.value("jobs", 1);
  p.env = j.value("env", std::map<std::string, std::string>{});
  if (j.contains("parallel")) {
    const auto& par = j.at("parallel");
    p.nvcc_threads = par.value("nvcc_threads", 1);
    p.nvcc_split = par.value("nvcc_split", 0);
    p.side_by_side = par.value("side_by_side", false);
  } else {
    read_legacy_parallelism(p);  // a lock written before the counts were typed
  }
  // A lock written before the standard was typed carries it only as TORCHSMITH_CXX_STD: read once here.
  p.cxx_std = j.contains("cxx_std") ? j.at("cxx_std").get<int>() : digits_of(p.env, "TORCHSMITH_CXX_STD");
  p.cmake_options = j.value("cmake_options", std::map<std::string, std::string>{});
  p.features = j.value("features", std::map<std::string, bool>{});
  p.fixes = j.value("fixes", std::vector<PlannedFix>{});
  p.steps = j.value("steps", std::vector<Step>{});
  p.artifacts = j.value("artifacts", std::vector<Artifact>{});
  p.decisions = j.value("decisions", std::vector<Decision>{});
  p.import_name = j.value("import_name", "");
  p.smoke = j.value("smoke", "");
  p.no_device_code = !j.value("device_code", true);
  p.plain_version = j.value("local_version", "") == "none";
  p.runtime_requires = j.value("runtime_requires", std::vector<std::string>{});
  for (const auto& t : j.value("provisioned", nlohmann::json::array())) {
    ProvisionedTool x{t.at("kind").get<std::string>(), t.at("version").get<std::string>(), t.value("provider", ""),
                      t.value("from", ""), t.value("dir", ""), {}};
    for (const auto& w : t.value("wheels", nlohmann::json::array()))
      x.wheels.push_back({w.at("name").get<std::string>(), w.at("version").get<std::string>(), w.value("file", ""),
                          w.value("sha256", "")});
    p.provisioned.push_back(std::move(x));
  }
  if (j.contains("scale")) {
    const auto& s = j["scale"];
    p.scale.cache_engine = s.value("cache_engine", "");
    p.scale.cache_store = s.value("cache_store", "");
    p.scale.distribute = s.value("distribute", "");
    p.scale.hosts = s.value("hosts", "");
    p.scale.left_out = s.value("left_out", std::vector<std::string>{});
    p.scale.remote_slots = s.value("remote_slots", 0);
    p.scale.local_jobs = s.value("local_jobs", 0);
    p.scale.nvcc = s.value("nvcc", "");
  }
  if (j.contains("source")) {
    const auto& s = j["source"];
    p.source_url = s.value("url", "");
    p.source_ref = s.value("ref", "");
    p.source_dir = s.value("dir", "");
    p.source_revision = s.value("revision", "");
  }
}

void to_json(nlohmann::json& j, const PlanResult& r) {
  j = {{"ok", r.ok()}, {"conflicts", r.conflicts}};
  if (!r.bad_spec.empty()) j["bad_spec"] = r.bad_spec;
  if (r.bad_spec.empty()) j["plan"] = r.plan;
}

}  // namespace ts::plan
