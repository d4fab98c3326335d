#pragma once
// What a CUDA toolkit says about itself, read from its own nvcc and headers rather than recalled:
// the real GPU codes (`nvcc --list-gpu-code`, and the a/f variants `nvcc --help` allows for
// --gpu-code), its version (`nvcc --version`), the host compilers crt/host_config.h accepts, and
// the options its --help offers. Cached per nvcc binary (its content hash) under the cache dir,
// so a toolkit is read once. A toolkit with bin/ptxas but no bin/nvcc (NVIDIA's cu11/cu12 nvcc wheels)
// is read from ptxas instead: `ptxas --version` and the sm_* values `ptxas --help` allows for --gpu-name. Used by doctor, plan and kb refresh for every toolkit the machine
// has, and by provisioning for the toolkits it installs.
#include <string>
#include <vector>

namespace ts::probe {

struct ToolkitFacts {
  std::string nvcc;                        // the nvcc (or ptxas, see tool) that was read
  std::string tool = "nvcc";               // "nvcc", or "ptxas" for a toolkit without nvcc
  std::string hash;                        // FNV-1a 64 of its bytes, hex: the cache key
  std::string version;                     // "13.0.88" (nvcc --version: "release 13.0, V13.0.88")
  std::vector<std::string> list_gpu_code;  // "sm_75", "sm_80" ... as nvcc --list-gpu-code prints them
  std::vector<std::string> gpu_codes;      // every sm_* --help allows for --gpu-code: "sm_90a", "sm_100f"
  std::string host_config;                 // the crt/host_config.h read, "" when none was found
  std::string gcc_max, clang_max;          // newest GCC / Clang major it accepts; "" when not read
  std::vector<std::string> options;        // options of interest --help lists: "--split-compile", "--threads"
  std::string read;                        // YYYY-MM-DD it was read
  std::string error;                       // why nothing could be read ("" when ok)

  bool ok() const { return error.empty() && !list_gpu_code.empty(); }
  std::string minor() const;                // "13.0"
  // The KB's spelling of its real targets: "7.5", "9.0a", "10.0f" (gpu_codes, else list_gpu_code).
  std::vector<std::string> arches() const;
  // One line saying how the facts were read, for a KB source.
  std::string source() const;
};

// $XDG_CACHE_HOME/torchsmith/toolkits, else ~/.cache/torchsmith/toolkits; "" when neither is set.
std::string default_toolkit_cache();

// The binary to read a toolkit root by: ROOT/bin/nvcc, else ROOT/bin/ptxas; "" when it has neither.
std::string toolkit_reader(const std::string& root);

// Reads (or takes from the cache) the facts of the toolkit of `nvcc`, which may also name a ptxas
// (or an nvcc that is absent beside a ptxas that is not). cache_dir "" = no cache.
ToolkitFacts read_toolkit_facts(const std::string& nvcc, const std::string& cache_dir = default_toolkit_cache());


// Pure parsers, for tests and for callers holding the text.
std::vector<std::string> parse_list_gpu_code(const std::string& out);
std::vector<std::string> parse_help_gpu_codes(const std::string& help);  // --gpu-code's allowed sm_* values
std::vector<std::string> parse_ptxas_gpu_names(const std::string& help); // --gpu-name's allowed sm_* values
std::string parse_nvcc_version(const std::string& out);                  // "13.0.88", "" when absent (ptxas too)
void parse_host_config(const std::string& text, std::string& gcc_max, std::string& clang_max);

}  // namespace ts::probe
