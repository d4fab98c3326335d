#pragma once
// `kb refresh`: upstream metadata (PyPI) + the KB -> an overlay (torch.toml, cuda.toml in the KB's
// own shapes), each entry with source = the URL and the date it was read and status "refreshed".
// The built-in data is never edited: an overlay entry replaces a built-in one only where PyPI says
// otherwise, and each such conflict is reported (the newer source wins).
#include <string>
#include <vector>

#include "kb/kb.h"
#include "kb/pypi.h"
#include "kb/toolkit_read.h"

namespace ts::kb {

struct RefreshInput {
  std::vector<pypi::Response> torch;     // /pypi/torch/json (+ /pypi/torch/VERSION/json)
  std::vector<pypi::Response> toolkits;  // /pypi/nvidia-cuda-nvcc{,-cu12,-cu11}/json
  std::vector<ReadToolkit> read;         // toolkits read from their nvcc
};

struct Overlay {
  std::string torch_toml;  // "" when there is nothing to write
  std::string cuda_toml;
  int torch_entries = 0, cuda_entries = 0;
  std::vector<std::string> conflicts;  // "torch 2.14 released: built-in 2026-09-02 (torch.toml:301), PyPI 2026-09-03 (...)"
  std::vector<std::string> notes;      // what was read and what could not be used
};

Overlay make_overlay(const Kb& base, const RefreshInput& in, std::vector<KbError>& errors);

}  // namespace ts::kb
