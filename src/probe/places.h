#pragma once
// Where things are installed beyond the bin dirs: conda installations and their environments.
#include <string>
#include <vector>

#include "probe/host.h"

namespace ts::probe {

// $CONDA_PREFIX, root's /opt/conda, /opt/miniconda3, /opt/anaconda3, ~/miniconda3, ~/anaconda3, ~/miniforge3, ~/mambaforge, and
// each one's envs/*; existing directories only, deduplicated, in that order.
std::vector<std::string> conda_prefixes(const Host& h);

}  // namespace ts::probe
