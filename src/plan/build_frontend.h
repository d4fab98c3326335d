#pragma once
// torchsmith's PEP 517 frontend (src/run/pyshim/torchsmith_pep517.py) as a plan's build step names
// it, and the same build as a person runs it without torchsmith. Header-only: the renderers and the
// lock check ask it without the planner.
#include <string>
#include <string_view>
#include <vector>

namespace ts::plan {

inline constexpr std::string_view kPep517Frontend = "torchsmith_pep517";

// The build step's argv: `PYTHON -m torchsmith_pep517 -w dist .`, run with the build helper's
// directory on PYTHONPATH. The one form a plan writes and a lock may hold.
inline std::vector<std::string> frontend_argv(const std::string& python) {
  return {python, "-m", std::string(kPep517Frontend), "-w", "dist", "."};
}

inline bool is_frontend(const std::vector<std::string>& argv) {
  return !argv.empty() && argv == frontend_argv(argv[0]);
}

// plan --format sh / dockerfile: the frontend's step becomes the same build through pip, which
// needs no torchsmith helper to find; any other argv is returned as it is.
inline std::vector<std::string> by_hand(const std::vector<std::string>& argv) {
  if (!is_frontend(argv)) return argv;
  return {argv[0], "-m", "pip", "wheel", "-v", "--no-build-isolation", "--no-deps", "-w", "dist", "."};
}

// A step's note that quotes its argv (the planner writes "ARGV: why") quotes the by-hand form
// beside it, so the script never names a helper it does not run.
inline std::string by_hand_note(const std::vector<std::string>& argv, const std::string& note) {
  if (!is_frontend(argv)) return note;
  auto join = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& a : v) s += (s.empty() ? "" : " ") + a;
    return s;
  };
  const std::string was = join(argv);
  if (note.compare(0, was.size(), was) != 0) return note;
  return join(by_hand(argv)) + note.substr(was.size());
}

}  // namespace ts::plan
