#pragma once
// Where torchsmith keeps what it downloads (sources, pip's wheels for verify): $TORCHSMITH_CACHE,
// else $XDG_CACHE_HOME/torchsmith, else $HOME/.cache/torchsmith; "" when none of them is set.
#include <string>

namespace ts::util {

std::string cache_dir();

}  // namespace ts::util
