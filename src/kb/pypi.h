#pragma once
// PyPI's JSON metadata (https://pypi.org/pypi/PROJECT/json), as `kb refresh` reads it: a recording
// of one or more responses, each with the URL and the date it was read, and the facts the KB takes
// from them. Pure: fetching is the caller's (cli/kb_refresh.cpp spawns the HTTP client).
//
// A recording is text:
//   # url: https://pypi.org/pypi/torch/json
//   # read: 2026-11-26
//   {"info": {...}, "releases": {...}}
//   # url: ...            (the next response)
// JSON strings cannot hold a newline, so a line starting "# url:" always starts a response.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "kb/kb.h"

namespace ts::kb::pypi {

struct Response {
  std::string url;
  std::string read;       // YYYY-MM-DD
  nlohmann::json body;
  Origin origin;          // the "# url:" line
};

// Every response in a recording. Bad text -> errors "file:line: problem" (a JSON syntax error at
// the line where it is, a truncated body at its last line) and no responses.
std::vector<Response> parse_recording(std::string_view text, const std::string& file, std::vector<KbError>& errors);

// One response as a recording (what `kb refresh --save` writes and the fixtures hold).
std::string to_recording(const Response& r);

// A torch release line (major.minor) as PyPI lists it.
struct TorchLine {
  std::string minor;                   // "2.15"
  std::vector<std::string> versions;   // "2.15.0", "2.15.1" (final releases, not yanked)
  std::string released;                // first upload of the line, YYYY-MM-DD
  std::vector<int> python_minors;      // 3.X of the cpXY wheel tags of its newest version: 11, 12 ...
  std::string default_cuda;            // CUDA of the default wheel, "13.2"; "" when not read
  std::string cuda_from;               // the Requires-Dist entry it came from
};

// torch's project JSON (+ optional per-version JSON for newest versions): its release lines.
// Structural problems (no "releases", a file without a date) are errors at the response's line.
std::vector<TorchLine> torch_lines(const std::vector<Response>& torch, std::vector<KbError>& errors);

// The CUDA major.minor a wheel's Requires-Dist pins: cuda-toolkit[...]==13.2.2 -> 13.2,
// nvidia-cuda-runtime-cu12==12.4.127 -> 12.4; "" when no requirement names one.
std::string cuda_of_requires(const std::vector<std::string>& requires_dist, std::string* from = nullptr);

// A CUDA toolkit version as nvidia-cuda-nvcc* lists it.
struct ToolkitLine {
  std::string minor;        // "13.5"
  std::string newest;       // "13.5.37"
  std::string released;     // first upload of the line
  std::string project;      // "nvidia-cuda-nvcc"
  std::string url;          // https://pypi.org/project/nvidia-cuda-nvcc/13.5.37/
};
std::vector<ToolkitLine> toolkit_lines(const Response& nvcc_project, std::vector<KbError>& errors);

}  // namespace ts::kb::pypi
