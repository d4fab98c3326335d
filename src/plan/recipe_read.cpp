// Reads data/kb/packages/*.toml into Recipes; every problem is "file:line: what; how to fix".
#include <algorithm>
#include <cctype>
#include <set>

#include "kb/tomlpp.h"

#include "core/version.h"
#include "kb/toml_parse.h"
#include "kb/toml_reader.h"
#include "plan/recipe.h"
#include "plan/recipe_detail.h"
#include "spec/raw_spec.h"

namespace ts::plan {

using kb::detail::EntryReader;
using kb::detail::line_of;

namespace detail {

namespace {

const char* kBuildSystems[] = {"setuptools", "pep517", "cmake"};
const char* kArchFormats[] = {"torch", "cmake", "semicolon-sm"};
const char* kMapKeys[] = {"env", "cuda_env", "cpu_env"};
const char* kPackageKeys[] = {"name", "aliases", "import", "git", "tag", "build_system", "cuda_only", "arch_env", "arch_env_since",
                              "arch_format", "jobs_env", "nvcc_threads_env", "mem_per_job", "serial_build", "parallel_extensions", "torch",
                              "smoke", "runtime_requires", "source", "recalled", "status", "note", "compat"};

bool env_name_ok(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_';
  });
}

template <std::size_t N>
bool one_of(const std::string& v, const char* (&list)[N]) {
  return std::any_of(std::begin(list), std::end(list), [&](const char* s) { return v == s; });
}

template <std::size_t N>
std::string joined(const char* (&list)[N]) {
  std::string out;
  for (const char* s : list) out += (out.empty() ? "" : ", ") + std::string(s);
  return out;
}

// [package.env]-style tables: NAME = "value" pairs.
void read_env(const toml::node& n, const std::string& key, EntryReader& r, std::map<std::string, std::string>& out) {
  const toml::table* t = n.as_table();
  if (!t) {
    r.error(line_of(n), key + ": expected a table of NAME = \"value\"; write [package." + key + "] with FORCE_CUDA = \"1\"");
    return;
  }
  for (const auto& [k, v] : *t) {
    std::string name(k.str());
    int line = static_cast<int>(k.source().begin.line);
    if (!env_name_ok(name)) {
      bool is_key = std::any_of(std::begin(kPackageKeys), std::end(kPackageKeys), [&](const char* k) { return name == k; });
      r.error(line, key + ": '" + name + "' is not an environment variable name; " +
                        (is_key ? "it is a package key: move it above [package." + key + "] (TOML puts every key after "
                                  "a table header into that table)"
                                : std::string("write upper case, digits and '_'")));
      continue;
    }
    if (!v.is_string()) {
      r.error(line, key + "." + name + ": expected a string in quotes; write " + name + " = \"1\"");
      continue;
    }
    out[name] = v.value<std::string>().value_or("");
  }
}

void read_compat(const toml::array& a, const std::string& file, std::vector<kb::KbError>& errors,
                 std::vector<RecipeCompat>& out) {
  for (const auto& el : a) {
    const toml::table* t = el.as_table();
    if (!t) continue;
    EntryReader c(*t, file, "compat", errors);
    RecipeCompat rc;
    rc.version = c.parsed_range("version", true, "\">=2.1,<2.2\"");
    rc.torch = c.parsed_range("torch", true, "\">=2.1,<2.2\"");
    rc.source = c.text("source", true, "\"<README table or setup.py this pairing comes from>\"");
    (void)c.text("note", false, "\"...\"");
    c.finish();
    out.push_back(std::move(rc));
  }
}

void check_env_knob(EntryReader& r, const toml::table& t, const std::string& key, const std::string& value) {
  if (!value.empty() && !env_name_ok(value))
    r.error(t.get(key) ? line_of(*t.get(key)) : 0,
            key + ": '" + value + "' is not an environment variable name; write e.g. \"MAX_JOBS\"");
}

Recipe read_one(toml::table& t, const std::string& file, std::vector<kb::KbError>& errors, bool& ok) {
  Recipe p;
  // The env tables are read here, not by EntryReader (which knows only scalars and arrays).
  std::vector<std::pair<std::string, toml::table>> maps;
  std::vector<std::pair<std::string, int>> bad_maps;
  for (const char* k : kMapKeys) {
    toml::node* n = t.get(k);
    if (!n) continue;
    if (auto* tt = n->as_table()) maps.emplace_back(k, std::move(*tt));
    else bad_maps.emplace_back(k, line_of(*n));
    t.erase(k);
  }
  std::size_t before = errors.size();
  EntryReader r(t, file, "package", errors);
  std::string raw_name = r.text("name", true, "\"torch-scatter\"");
  p.name = normalize_name(raw_name);
  if (!raw_name.empty() && raw_name != p.name)
    r.error(line_of(*t.get("name")), "name: write the PEP 503 normalized form \"" + p.name +
                                         "\" and list \"" + raw_name + "\" in aliases");
  p.aliases = r.texts("aliases", false, "[\"torch_scatter\"]");
  p.import_name = r.text("import", true, "\"torch_scatter\"");
  p.git_url = r.text("git", true, "\"https://github.com/rusty1s/pytorch_scatter\"");
  if (!p.git_url.empty() && p.git_url.rfind("https://", 0) != 0)
    r.error(line_of(*t.get("git")), "git: '" + p.git_url + "' is not an https URL; write \"https://github.com/OWNER/REPO\"");
  p.tag = r.text("tag", false, "\"v{version}\"");
  if (!p.tag.empty() && p.tag.find("{version}") == std::string::npos)
    r.error(line_of(*t.get("tag")), "tag: '" + p.tag + "' does not contain {version}; write e.g. \"v{version}\"");
  p.build_system = r.text("build_system", true, "\"setuptools\"");
  if (!p.build_system.empty() && !one_of(p.build_system, kBuildSystems))
    r.error(line_of(*t.get("build_system")), "build_system: '" + p.build_system + "' is unknown; write one of " +
                                                 joined(kBuildSystems));
  p.cuda_only = r.flag("cuda_only", false);
  if (t.contains("arch_env")) p.arch_env = r.text("arch_env", false, "\"TORCH_CUDA_ARCH_LIST\"");
  else (void)r.text("arch_env", false, "");
  check_env_knob(r, t, "arch_env", p.arch_env);
  std::string since = r.text("arch_env_since", false, "\"2.7.3\"");
  p.arch_env_since = since.empty() ? std::nullopt : Version::parse(since);
  if (!since.empty() && !p.arch_env_since)
    r.error(line_of(*t.get("arch_env_since")), "arch_env_since: '" + since +
            "' is not a version; write the first version that reads arch_env, e.g. \"2.7.3\"");
  if (t.contains("arch_format")) p.arch_format = r.text("arch_format", true, "\"torch\"");
  else (void)r.text("arch_format", false, "");
  if (!p.arch_format.empty() && !one_of(p.arch_format, kArchFormats))
    r.error(line_of(*t.get("arch_format")), "arch_format: '" + p.arch_format + "' is unknown; write one of " +
                                                joined(kArchFormats));
  if (t.contains("jobs_env")) p.jobs_env = r.texts("jobs_env", false, "[\"MAX_JOBS\"]");
  else (void)r.texts("jobs_env", false, "");
  for (const auto& j : p.jobs_env)
    if (!env_name_ok(j))
      r.error(line_of(*t.get("jobs_env")), "jobs_env: '" + j + "' is not an environment variable name");
  p.nvcc_threads_env = r.text("nvcc_threads_env", false, "\"NVCC_THREADS\"");
  check_env_knob(r, t, "nvcc_threads_env", p.nvcc_threads_env);
  std::string mem = r.text("mem_per_job", false, "\"4G\"");
  if (!mem.empty()) {
    auto b = spec::parse_size(mem);
    constexpr std::uint64_t kMiB = 1024ull * 1024;
    if (!b || *b < 64 * kMiB || *b > 1024 * 1024 * kMiB)
      r.error(line_of(*t.get("mem_per_job")), "mem_per_job: '" + mem +
                                                  "' is not a size between 64M and 1T; write e.g. \"4G\" or \"512M\"");
    else p.mem_per_job = *b;
  }
  p.serial_build = r.flag("serial_build", false);
  p.parallel_extensions = r.flag("parallel_extensions", true);
  p.torch = r.parsed_range("torch", false, "\">=1.13\"");
  if (const toml::array* a = r.tables("compat")) read_compat(*a, file, errors, p.compat);
  p.smoke = r.text("smoke", true, "\"import torch_scatter; ...(device=device)\"");
  if (!p.smoke.empty() && (p.smoke.find("import") == std::string::npos || p.smoke.find("device") == std::string::npos))
    r.error(line_of(*t.get("smoke")), "smoke: must import the package and run one op on `device` "
                                      "(the planner sets device = \"cuda\" or \"cpu\")");
  p.runtime_requires = r.texts("runtime_requires", false, "[\"torchvision\"]");
  for (const auto& req : p.runtime_requires)
    if (std::string why = requirement_name_problem(req); !why.empty())
      r.error(line_of(*t.get("runtime_requires")), "runtime_requires: '" + req + "' " + why +
                                                       "; write a requirement as Requires-Dist does, e.g. \"torchvision\" or \"scipy>=1.4\"");
  r.common(p);
  for (const auto& [k, m] : maps) {
    std::map<std::string, std::string>& into = k == "env" ? p.env : k == "cuda_env" ? p.cuda_env : p.cpu_env;
    read_env(m, k, r, into);
    (void)r.texts(k, false, "");  // records the key as known; it was erased above
  }
  for (const auto& [k, line] : bad_maps)
    r.error(line, k + ": expected a table; write [package." + k + "] with NAME = \"value\" lines");
  r.finish();
  ok = errors.size() == before;
  return p;
}

}  // namespace

std::vector<kb::KbError> read_recipes(std::string_view file_name, std::string_view text, std::vector<Recipe>& out) {
  std::vector<kb::KbError> errors;
  std::string file(file_name);
  toml::table root;
  try {
    root = kb::parse_toml(text, file);
  } catch (const toml::parse_error& e) {
    errors.push_back({{file, static_cast<int>(e.source().begin.line)}, "TOML syntax error: " + std::string(e.description())});
    return errors;
  }
  std::vector<Recipe> mine;
  for (auto&& [k, v] : root) {
    std::string key(k.str());
    int line = static_cast<int>(k.source().begin.line);
    if (key != "package") {
      errors.push_back({{file, line}, "unknown top-level key '" + key + "'; a recipe file holds [[package]] entries"});
      continue;
    }
    toml::array* a = v.as_array();
    if (!a || !a->is_array_of_tables()) {
      errors.push_back({{file, line}, "'package' must be an array of tables; write [[package]] blocks"});
      continue;
    }
    for (auto& el : *a) {
      bool ok = false;
      Recipe p = read_one(*el.as_table(), file, errors, ok);
      if (ok) mine.push_back(std::move(p));
    }
  }
  if (mine.empty() && errors.empty()) errors.push_back({{file, 0}, "no [[package]] entry; a recipe file holds one or more"});
  check_unique(mine, out, errors);
  if (errors.empty()) out.insert(out.end(), mine.begin(), mine.end());
  return errors;
}

void check_unique(const std::vector<Recipe>& fresh, const std::vector<Recipe>& existing, std::vector<kb::KbError>& errors) {
  struct Seen {
    const Recipe* r;
    std::string spelled;
  };
  std::map<std::string, Seen> seen;  // normalized name or alias -> who claims it
  auto claim = [&](const Recipe& r, const std::string& spelled, bool report) {
    std::string key = normalize_name(spelled);
    auto [it, fresh_key] = seen.emplace(key, Seen{&r, spelled});
    if (fresh_key || it->second.r == &r || it->second.r->name == r.name) return;
    if (!report) return;
    const Recipe& o = *it->second.r;
    errors.push_back({r.origin, "package " + r.name + ": name or alias '" + spelled + "' is also '" +
                                    it->second.spelled + "' of package " + o.name + " (" + o.origin.file + ":" +
                                    std::to_string(o.origin.line) + "); a name must mean one package"});
  };
  for (const auto& r : existing) {
    claim(r, r.name, false);
    for (const auto& a : r.aliases) claim(r, a, false);
  }
  std::set<std::string> names;
  for (const auto& r : existing) names.insert(r.name);
  for (const auto& r : fresh) {
    if (names.count(r.name)) {
      errors.push_back({r.origin, "package " + r.name + ": defined twice; keep one entry (an overlay "
                                                        "replaces a built-in recipe, but one directory defines each name once)"});
      continue;
    }
    names.insert(r.name);
    claim(r, r.name, true);
    for (const auto& a : r.aliases) claim(r, a, true);
  }
}

}  // namespace detail

std::vector<std::string> parse_recipes_text(std::string_view file_name, std::string_view text, std::vector<Recipe>& out) {
  std::vector<std::string> msgs;
  for (const auto& e : detail::read_recipes(file_name, text, out)) msgs.push_back(e.str());
  return msgs;
}

}  // namespace ts::plan
