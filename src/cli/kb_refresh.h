#pragma once
// torchsmith kb refresh: PyPI metadata -> an overlay of torch.toml / cuda.toml (kb/refresh.h).
#include <string>
#include <vector>

#include "cli/commands.h"

namespace ts::cli {

struct RefreshOptions {
  std::string out;                   // overlay dir; "" = <config>/torchsmith/kb/refreshed
  std::string index = "https://pypi.org/pypi";
  std::vector<std::string> offline;  // recordings to read instead of the network
  std::string save;                  // write what was fetched as a recording (for fixtures)
};

int run_refresh(const GlobalOptions& g, const RefreshOptions& o);

// The overlay dir kb refresh writes by default (inside the config overlay every command loads).
std::string default_refresh_dir();

}  // namespace ts::cli
