#pragma once
// The compile cache: when ccache (or sccache) is there, compilers run through it, so a rebuild
// after `rm -rf build` (the usual cure) costs a fraction of the first. CMake builds take it as
// CMAKE_<LANG>_COMPILER_LAUNCHER; builds that call the compiler by CC/CXX (cpp_extension) get a
// masquerade directory of links named like the compiler.
#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace ts::run {

struct CompileCache {
  std::string tool;  // "ccache", "sccache"; "" = none
  std::string path;
};

// want: "auto" (the first found on PATH), "ccache", "sccache", "none". A named tool that is not
// found is an error (*error), "auto" without one is simply none.
CompileCache find_compile_cache(const std::string& want, const std::string& path_var, std::string* error);

// Puts the cache in front of the compilers in env. cmake_build: launcher variables; otherwise
// links in masq_dir named after CC/CXX's file names, CC/CXX pointed at them, and nvcc wrapped
// (wrap_nvcc) when env has CUDA_HOME. Returns "" or an error (the masquerade dir could not be made).
std::string apply_compile_cache(const CompileCache& c, bool cmake_build, const std::string& masq_dir,
                                std::map<std::string, std::string>& env);

// Where the masquerade links go: masq_dir itself when its path has no whitespace, else a
// directory named by its hash under $XDG_CACHE_HOME (or ~/.cache)/torchsmith/cache-bin; "" when
// that has whitespace too.
std::string masquerade_dir(const std::string& masq_dir);

// The tool's own settings from torchsmith's environment (CCACHE_* for ccache, SCCACHE_* for
// sccache: CCACHE_DIR, CCACHE_BASEDIR ...) into the build's exact env, which inherits nothing else;
// `ccache --print-stats` run by torchsmith then reads the same cache the build used.
void pass_cache_settings(const CompileCache& c, const std::map<std::string, std::string>& outer,
                         std::map<std::string, std::string>& env);

// cpp_extension runs CUDA_HOME/bin/nvcc, or PYTORCH_NVCC's command in its ninja build (torch >= 2.1,
// pytorch/pytorch#96987; older torch and use_ninja=False builds ignore it). "TOOL CUDA_HOME/bin/nvcc",
// or "" when there is no cache, no CUDA_HOME, or a path with whitespace (ninja's sh would split it).
std::string nvcc_through_cache(const CompileCache& c, const std::string& cuda_home);
// Sets PYTORCH_NVCC (unless the plan set one) and CMAKE_CUDA_COMPILER_LAUNCHER for an extension build.
void wrap_nvcc(const CompileCache& c, std::map<std::string, std::string>& env);

struct CacheCounts {
  std::uint64_t hits = 0, misses = 0;
  // A shared store's part: ccache's remote_storage_* counters; for sccache with a Redis store
  // every hit is remote. local_hits: ccache's local_storage_hit.
  std::uint64_t local_hits = 0, remote_hits = 0, remote_misses = 0, remote_errors = 0;
};
// The tool's counters now (ccache --print-stats / sccache --show-stats --stats-format json).
// remote_store: sccache's hits all come from the store when one is configured.
std::optional<CacheCounts> read_cache_counts(const CompileCache& c, bool remote_store = false);
// after - before, counter by counter (never below 0: a cache cleared meanwhile).
CacheCounts counts_between(const CacheCounts& before, const CacheCounts& after);
// ccache's "key\tvalue" lines: hits = direct + preprocessed, misses = cache_miss; remote_storage_hit,
// _miss, _error + _timeout; local_storage_hit.
std::optional<CacheCounts> parse_ccache_print_stats(const std::string& text);

}  // namespace ts::run
