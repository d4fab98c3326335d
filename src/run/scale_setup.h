#pragma once
// A plan's scale section (src/scale/) put into a build's environment: the shared store checked
// again right before the build (down or slow: the build goes on without it, with a warning), the
// store handed to ccache/sccache with bounded timeouts, distcc put behind the compile cache (or in
// its place), and nvcc kept local.
#include <map>
#include <string>

#include "plan/plan.h"
#include "report/run_record.h"
#include "run/compile_cache.h"

namespace ts::run {

// The store's settings for the engine: CCACHE_REMOTE_STORAGE with connect/operation timeouts, or
// SCCACHE_REDIS_ENDPOINT. Trees in other directories share entries only with the user's own
// CCACHE_BASEDIR (passed on), which changes the objects' __FILE__ strings.
void store_env(const plan::ScalePlan& s, const std::string& base_dir, std::map<std::string, std::string>& env);

// Health check of the plan's store; fills rec.store/store_ok/warning and, when it answers, env.
// Returns the compile cache tool the build must use ("" = whatever --compile-cache says).
std::string prepare_store(const plan::ScalePlan& s, const std::string& base_dir, report::CacheStats& rec,
                          std::map<std::string, std::string>& env);

// distcc in front of the compilers: behind ccache (CCACHE_PREFIX) or as the launcher itself when
// there is no cache. state_dir: DISTCC_DIR; log: DISTCC_LOG. Returns "" or an error.
std::string apply_distcc(const plan::ScalePlan& s, CompileCache& cache, const std::string& state_dir,
                         const std::string& log, std::map<std::string, std::string>& env);

// After apply_compile_cache: nvcc through ccache without the distcc prefix (distcc does not run
// nvcc remotely).
void keep_nvcc_local(const CompileCache& cache, std::map<std::string, std::string>& env);

}  // namespace ts::run
