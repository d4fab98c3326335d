#pragma once
// torchsmith's PEP 517 frontend (src/run/pyshim/torchsmith_pep517.py) as a plan's build step names
// it, and the same build as a person runs it without torchsmith. Header-only: the renderers and the
// lock check ask it without the planner.
#include <string>
#include <string_view>
#include <vector>

namespace ts::plan {

// `python -m torchsmith_pep517 -w dist .`, run with the build helper's directory on PYTHONPATH.
inline constexpr std::string_view kPep517Frontend = "torchsmith_pep517";

// plan --format sh / dockerfile: the frontend's step becomes the same build through pip, which
// needs no torchsmith helper to find; any other argv is returned as it is.
inline std::vector<std::string> by_hand(const std::vector<std::string>& argv) {
  if (argv.size() != 6 || argv[1] != "-m" || argv[2] != kPep517Frontend) return argv;
  return {argv[0], "-m", "pip", "wheel", "-v", "--no-build-isolation", "--no-deps", "-w", argv[4], argv[5]};
}

}  // namespace ts::plan
