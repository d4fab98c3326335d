#include "probe/places.h"

#include <algorithm>

namespace ts::probe {

std::vector<std::string> conda_prefixes(const Host& h) {
  std::vector<std::string> bases = {"/opt/conda", "/opt/miniconda3", "/opt/anaconda3"};
  for (auto d : {"miniconda3", "anaconda3", "miniforge3", "mambaforge"}) bases.push_back(h.home() + "/" + d);
  std::vector<std::string> out;
  auto add = [&](const std::string& p) {
    if (!p.empty() && h.is_dir(p) && std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  };
  add(normalize_path(h.getenv("CONDA_PREFIX")) == "/" ? "" : normalize_path(h.getenv("CONDA_PREFIX")));
  for (auto& b : bases) {
    add(b);
    for (auto& e : h.list(b + "/envs")) add(b + "/envs/" + e);
  }
  return out;
}

}  // namespace ts::probe
