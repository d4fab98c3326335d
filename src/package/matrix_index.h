#pragma once
// A wheel index for one package over several torch versions (the PyG wheel index is the model):
// OUT/torch-2.5.1+cpu/*.whl, one directory per torch and CUDA, so `pip install --find-links
// OUT/torch-2.5.1+cpu NAME` can only pick the wheel built against that torch; OUT/index.html is the
// table a person reads (torch, CUDA, arches, size, verify) and OUT/index.json the same for scripts.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace ts::package {

// "2.5" or "2.5.1" from --torch 2.4,2.5: the release asked for, and pip's requirement for it
// ("torch==2.5.*" picks the newest 2.5.x; "torch==2.5.1" exactly that).
struct TorchAsk {
  std::string asked;        // as written
  std::string requirement;  // torch==2.5.*
};
// nullopt and *error naming the bad item ("--torch 2.x: ...") when an item is not N.N or N.N.N.
std::optional<std::vector<TorchAsk>> parse_torch_list(const std::string& list, std::string* error);

struct MatrixCell {
  std::string asked;          // --torch's item
  std::string torch_version;  // installed, without its local part: 2.5.1 ("" when torch never installed)
  std::string cuda;           // "" = a CPU build, else the toolkit the wheel was built with (12.4)
  std::string arches;         // "8.0;9.0" for a CUDA build
  std::vector<std::string> wheels;  // file names in the cell's directory
  std::uint64_t bytes = 0;
  bool ok = false;
  std::string result;         // "verified: 4 ok" / "failed at build: ..." / "torch not installed: ..."
  std::string log;            // where the build's output is
};

// "torch-2.5.1+cpu", "torch-2.5.1+cu124": the cell's directory under the index.
std::string cell_dir(const std::string& torch_version, const std::string& cuda);

std::string render_matrix_html(const std::string& package, const std::vector<MatrixCell>& cells);
nlohmann::json matrix_json(const std::string& package, const std::vector<MatrixCell>& cells);

}  // namespace ts::package
