#pragma once
// The one rule for where torchsmith keeps what it downloads and assembles (provisioned toolkits,
// toolkit facts, sources, pip's wheels for verify, the compiler links of a spaced --out): the
// directory asked for (--cache-dir), else $TORCHSMITH_CACHE, else $XDG_CACHE_HOME/torchsmith
// (absolute only, as the XDG spec says), else $HOME/.cache/torchsmith; "" when none is set.
#include <string>

namespace ts::util {

std::string cache_dir(const std::string& asked = "");

}  // namespace ts::util
