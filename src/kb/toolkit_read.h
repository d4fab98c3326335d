#pragma once
// Toolkit facts read from a toolkit's own nvcc (probe/toolkit_facts.h reads them) taking the place
// of what the KB only recalls: a cuda.toml entry whose arches (or host-compiler limits) are
// recalled gets the toolkit's own, and a toolkit the KB lacks gets an entry. The KB stays the
// base: verified entries are left alone (a difference there is reported, not applied).
#include <optional>
#include <string>
#include <vector>

#include "kb/kb.h"

namespace ts::kb {

struct ReadToolkit {
  std::string version;              // "13.5" (major.minor)
  std::vector<std::string> arches;  // "7.5" ... "12.1f"
  std::string gcc_max, clang_max;   // from crt/host_config.h; "" when not read
  std::string source;               // "nvcc --list-gpu-code ... of /opt/cuda-13.5/bin/nvcc (CUDA 13.5.37, read 2026-11-26)"
};

// The driver a toolkit of `version` the KB lacks needs at least: the newest earlier release of its
// major's driver_min_linux, else the major's minor-version floor; none when the major is unknown.
std::optional<Version> driver_lower_bound(const Kb& kb, const std::string& version, std::string* from = nullptr);

// Applies `read` to kb.cuda; returns one line per change or disagreement, for doctor to show:
//   "CUDA 13.1 arches: the KB's list was recalled (cuda.toml:280); now what its nvcc lists: ..."
std::vector<std::string> adopt_read_toolkits(Kb& kb, const std::vector<ReadToolkit>& read);

}  // namespace ts::kb
