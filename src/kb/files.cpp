#include "kb/files.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ts::kb::detail {

namespace fs = std::filesystem;

int load_order(std::string_view file_name) {
  auto slash = file_name.find_last_of('/');
  std::string_view base = slash == std::string_view::npos ? file_name : file_name.substr(slash + 1);
  static constexpr std::string_view kOrder[] = {"cuda.toml", "families.toml", "tegra.toml",
                                                "torch.toml", "gpus.toml", "resources.toml"};
  for (std::size_t i = 0; i < std::size(kOrder); ++i)
    if (base == kOrder[i]) return static_cast<int>(i);
  return -1;
}

bool list_toml_files(const std::string& dir, std::vector<KbFile>& out, std::string& error) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    error = "not a directory; pass a directory of KB .toml files to --kb";
    return false;
  }
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
  if (ec) {
    error = "cannot read: " + ec.message();
    return false;
  }
  for (; it != end; it.increment(ec)) {
    if (ec) break;
    if (it->path().extension() != ".toml") continue;
    if (!it->is_regular_file(ec)) {
      // A directory (or a dangling link) named cuda.toml would otherwise be skipped in silence,
      // and the KB read without the file the user meant to give.
      std::string rel = fs::relative(it->path(), dir, ec).generic_string();
      error = rel + ": named like a KB file but not a regular file (" +
              (it->is_directory(ec) ? "a directory" : "a link to nothing, or a special file") + "); rename or remove it";
      return false;
    }
    out.push_back({fs::relative(it->path(), dir, ec).generic_string(), it->path().string()});
  }
  // Known files in dependency order first (unknown ones, order -1, are mapped after them).
  auto rank = [](const KbFile& f) { int o = load_order(f.relative); return o < 0 ? 100 : o; };
  std::sort(out.begin(), out.end(), [&](const KbFile& a, const KbFile& b) {
    return rank(a) != rank(b) ? rank(a) < rank(b) : a.relative < b.relative;
  });
  return true;
}

bool read_text_file(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return static_cast<bool>(in) || in.eof();
}

}  // namespace ts::kb::detail
