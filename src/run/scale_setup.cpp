#include "run/scale_setup.h"

#include <cstdlib>
#include <filesystem>

#include "scale/health.h"
#include "scale/request.h"
#include "util/process.h"

namespace ts::run {

namespace fs = std::filesystem;

void store_env(const plan::ScalePlan& s, const std::string& base_dir, std::map<std::string, std::string>& env) {
  if (s.cache_engine == "ccache") {
    // ccache's defaults are connect 100 ms, operation 10 s; a slow store must not hold each compile long.
    env["CCACHE_REMOTE_STORAGE"] = s.cache_store + "|connect-timeout=500|operation-timeout=3000";
  } else if (s.cache_engine == "sccache") {
    env["SCCACHE_REDIS_ENDPOINT"] = s.cache_store;
  }
  // No CCACHE_BASEDIR of our own: ccache then passes relative paths to the compiler, so __FILE__
  // and the objects differ from a build without the cache. A user's CCACHE_BASEDIR is passed on.
  (void)base_dir;
}

std::string prepare_store(const plan::ScalePlan& s, const std::string& base_dir, report::CacheStats& rec,
                          std::map<std::string, std::string>& env) {
  if (s.cache_engine.empty()) return "";
  rec.store = s.cache_store;
  std::string err;
  scale::CacheRequest c = scale::parse_cache(s.cache_engine + "+" + s.cache_store, &err);
  if (c.empty()) {
    rec.warning = "the plan's store " + s.cache_store + " is not usable (" + err + "): the build runs without it";
    return s.cache_engine;
  }
  scale::Health h = scale::check_store(c, std::chrono::milliseconds(1000));
  rec.store_ok = h.ok;
  if (!h.ok) {
    rec.warning = "shared cache " + s.cache_store + " did not answer (" + h.detail +
                  "): the build goes on without it (its compiles are not shared)";
    return s.cache_engine;
  }
  store_env(s, base_dir, env);
  return s.cache_engine;
}

std::string apply_distcc(const plan::ScalePlan& s, CompileCache& cache, const std::string& state_dir,
                         const std::string& log, std::map<std::string, std::string>& env) {
  if (s.distribute != "distcc" || s.hosts.empty()) return "";
  std::string distcc = util::find_program("distcc", util::split_path(env.count("PATH") ? env["PATH"] : ""));
  if (distcc.empty()) return "distcc is not on the build's PATH";
  std::error_code ec;
  fs::create_directories(state_dir, ec);  // distcc keeps its locks and host backoff there
  if (ec) return state_dir + ": " + ec.message();
  env["DISTCC_HOSTS"] = s.hosts;
  env["DISTCC_DIR"] = state_dir;
  env["DISTCC_LOG"] = log;
  env["DISTCC_VERBOSE"] = "1";  // the log names the host of every unit, and each one moved here
  // The user's own distcc tuning (its 300 s I/O timeout, the backoff after a failed host) carries over.
  for (const char* k : {"DISTCC_IO_TIMEOUT", "DISTCC_BACKOFF_PERIOD", "DISTCC_PAUSE_TIME_MSEC", "DISTCC_SKIP_LOCAL_RETRY"})
    if (const char* v = std::getenv(k); v && !env.count(k)) env[k] = v;
  if (cache.tool == "ccache") {
    env["CCACHE_PREFIX"] = distcc;
  } else if (cache.tool.empty()) {
    cache = {"distcc", distcc};
  } else {
    return cache.tool + " cannot run its compiles through distcc (use ccache)";
  }
  return "";
}

void keep_nvcc_local(const CompileCache& cache, std::map<std::string, std::string>& env) {
  if (cache.tool == "distcc") {
    // distcc as the launcher: nvcc without it.
    env.erase("CMAKE_CUDA_COMPILER_LAUNCHER");
    if (auto it = env.find("PYTORCH_NVCC"); it != env.end() && it->second.rfind(cache.path + " ", 0) == 0) env.erase(it);
    return;
  }
  if (cache.tool != "ccache" || !env.count("CCACHE_PREFIX")) return;
  // `env -u CCACHE_PREFIX ccache nvcc`: cached, but compiled here.
  env["CMAKE_CUDA_COMPILER_LAUNCHER"] = "/usr/bin/env;-u;CCACHE_PREFIX;" + cache.path;
  if (auto it = env.find("PYTORCH_NVCC"); it != env.end() && it->second.rfind(cache.path + " ", 0) == 0)
    it->second = "/usr/bin/env -u CCACHE_PREFIX " + it->second;
}

}  // namespace ts::run
