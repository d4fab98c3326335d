#include "run/compile_cache.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include <filesystem>
#include <sstream>

#include <nlohmann/json.hpp>

#include "util/process.h"
#include "util/safe_path.h"
#include "util/sha256.h"
#include "util/cache_dir.h"

namespace ts::run {

namespace fs = std::filesystem;

CompileCache find_compile_cache(const std::string& want, const std::string& path_var, std::string* error) {
  CompileCache c;
  if (want == "none") return c;
  auto dirs = util::split_path(path_var);
  for (const char* t : {"ccache", "sccache"}) {
    if (want != "auto" && want != t) continue;
    std::string p = util::find_program(t, dirs);
    if (!p.empty()) return {t, p};
  }
  if (want != "auto" && error) *error = "--compile-cache " + want + ": not found on the build's PATH (install it, or pass --compile-cache none)";
  return c;
}

namespace {

bool has_space(const std::string& s) { return s.find_first_of(" \t\n") != std::string::npos; }

void add_to_path(std::map<std::string, std::string>& env, const std::string& dir) {
  std::string& path = env["PATH"];
  if (dir.empty() || (":" + path + ":").find(":" + dir + ":") != std::string::npos) return;
  path += path.empty() ? dir : ":" + dir;
}

}  // namespace

std::string masquerade_dir(const std::string& wanted) {
  if (!has_space(wanted)) return wanted;
  std::string base = util::cache_dir();
  if (base.empty() || has_space(base)) return "";
  util::Sha256 h;
  h.update(wanted.data(), wanted.size());
  return base + "/cache-bin/" + util::hex(h.digest()).substr(0, 16);
}

void pass_cache_settings(const CompileCache& c, const std::map<std::string, std::string>& outer,
                         std::map<std::string, std::string>& env) {
  if (c.tool != "ccache" && c.tool != "sccache") return;
  std::string prefix = c.tool == "ccache" ? "CCACHE_" : "SCCACHE_";
  for (const auto& [k, v] : outer)
    if (k.rfind(prefix, 0) == 0 && !env.count(k)) env[k] = v;
}

std::string nvcc_through_cache(const CompileCache& c, const std::string& cuda_home) {
  if (c.tool.empty() || cuda_home.empty()) return "";
  std::string nvcc = (fs::path(cuda_home) / "bin" / "nvcc").string();
  // cpp_extension writes PYTORCH_NVCC into build.ninja as is, and ninja runs it through sh.
  if (has_space(c.path) || has_space(nvcc) || !util::build_path_problem(c.path).empty() ||
      !util::build_path_problem(nvcc).empty())
    return "";
  return c.path + " " + nvcc;
}

void wrap_nvcc(const CompileCache& c, std::map<std::string, std::string>& env) {
  auto home = env.find("CUDA_HOME");
  if (home == env.end()) return;
  std::string cmd = nvcc_through_cache(c, home->second);
  if (cmd.empty() || env.count("PYTORCH_NVCC")) return;  // a PYTORCH_NVCC the plan set stays
  env["PYTORCH_NVCC"] = cmd;
  // Extensions whose setup.py drives CMake (no masquerade for CUDA there): the launcher.
  if (!env.count("CMAKE_CUDA_COMPILER_LAUNCHER")) env["CMAKE_CUDA_COMPILER_LAUNCHER"] = c.path;
}

std::string apply_compile_cache(const CompileCache& c, bool cmake_build, const std::string& masq_dir,
                                std::map<std::string, std::string>& env) {
  if (c.tool.empty()) return "";
  std::map<std::string, std::string> outer;
  for (char** e = environ; e && *e; ++e)
    if (const char* eq = std::strchr(*e, '=')) outer[std::string(*e, static_cast<std::size_t>(eq - *e))] = eq + 1;
  pass_cache_settings(c, outer, env);
  if (cmake_build) {
    // CMake >= 3.17 reads these from the environment; PyTorch's setup.py also forwards CMAKE_* as -D.
    for (const char* lang : {"C", "CXX", "CUDA"}) env[std::string("CMAKE_") + lang + "_COMPILER_LAUNCHER"] = c.path;
    return "";
  }
  // cpp_extension splits CC/CXX at whitespace: links under a path with a space break every compile.
  const std::string dir = masquerade_dir(masq_dir);
  if (dir.empty())
    return "'" + masq_dir + "' has whitespace, which torch's cpp_extension splits the compiler path at, and so "
           "has the cache directory (XDG_CACHE_HOME or ~/.cache) it would move to; the build runs without "
           "the compile cache (an --out without spaces keeps it)";
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return dir + ": " + ec.message();
  for (const char* var : {"CC", "CXX"}) {
    auto it = env.find(var);
    if (it == env.end() || it->second.empty()) continue;
    fs::path real = it->second;
    fs::path link = fs::path(dir) / real.filename();
    fs::remove(link, ec);
    fs::create_symlink(c.path, link, ec);
    if (ec) return link.string() + ": " + ec.message();
    it->second = link.string();
    // ccache finds the real compiler by its name on PATH after skipping itself: keep its dir there.
    add_to_path(env, real.parent_path().string());
  }
  wrap_nvcc(c, env);
  return "";
}

std::optional<CacheCounts> parse_ccache_print_stats(const std::string& text) {
  CacheCounts c;
  bool any = false;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    auto tab = line.find('\t');
    if (tab == std::string::npos) continue;
    std::string k = line.substr(0, tab);
    std::uint64_t v = std::strtoull(line.c_str() + tab + 1, nullptr, 10);
    if (k == "direct_cache_hit" || k == "preprocessed_cache_hit") { c.hits += v; any = true; }
    else if (k == "cache_miss") { c.misses += v; any = true; }
    else if (k == "local_storage_hit") c.local_hits += v;
    else if (k == "remote_storage_hit") c.remote_hits += v;
    else if (k == "remote_storage_miss") c.remote_misses += v;
    else if (k == "remote_storage_error" || k == "remote_storage_timeout") c.remote_errors += v;
  }
  if (!any) return std::nullopt;
  return c;
}

CacheCounts counts_between(const CacheCounts& before, const CacheCounts& after) {
  auto d = [](std::uint64_t a, std::uint64_t b) { return a - std::min(a, b); };
  CacheCounts c;
  c.hits = d(after.hits, before.hits);
  c.misses = d(after.misses, before.misses);
  c.local_hits = d(after.local_hits, before.local_hits);
  c.remote_hits = d(after.remote_hits, before.remote_hits);
  c.remote_misses = d(after.remote_misses, before.remote_misses);
  c.remote_errors = d(after.remote_errors, before.remote_errors);
  return c;
}

std::optional<CacheCounts> read_cache_counts(const CompileCache& c, bool remote_store) {
  if (c.tool != "ccache" && c.tool != "sccache") return std::nullopt;
  util::RunOptions o;
  o.timeout = std::chrono::milliseconds(10000);
  if (c.tool == "ccache") {
    auto r = util::run({c.path, "--print-stats"}, o);
    if (!r.ok()) return std::nullopt;
    return parse_ccache_print_stats(r.out);
  }
  auto r = util::run({c.path, "--show-stats", "--stats-format", "json"}, o);
  if (!r.ok()) return std::nullopt;
  try {
    auto j = nlohmann::json::parse(r.out);
    CacheCounts n;
    for (const auto& [k, v] : j.at("stats").at("cache_hits").at("counts").items()) n.hits += v.get<std::uint64_t>();
    for (const auto& [k, v] : j.at("stats").at("cache_misses").at("counts").items()) n.misses += v.get<std::uint64_t>();
    if (remote_store) {
      n.remote_hits = n.hits;
      n.remote_misses = n.misses;
      const auto& st = j.at("stats");
      for (const char* k : {"cache_errors", "cache_timeouts"})
        if (st.contains(k) && st[k].is_object() && st[k].contains("counts"))
          for (const auto& [lang, v] : st[k]["counts"].items()) n.remote_errors += v.get<std::uint64_t>();
        else if (st.contains(k) && st[k].is_number_unsigned())
          n.remote_errors += st[k].get<std::uint64_t>();
    } else {
      n.local_hits = n.hits;
    }
    return n;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace ts::run
