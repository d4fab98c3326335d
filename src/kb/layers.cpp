#include "kb/layers.h"

#include <algorithm>
#include <filesystem>

#include "kb/embedded.h"
#include "kb/files.h"

namespace ts::kb {

void for_each_layer(std::string_view name, const std::vector<std::string>& overlay_dirs,
                    const std::function<void(const std::string& file, std::string_view text)>& read) {
  for (const auto& f : embedded_files())
    if (std::string_view(f.path) == name) read(f.path, std::string_view(f.data, f.size));
  for (const auto& dir : overlay_dirs) {
    std::string path = (std::filesystem::path(dir) / std::string(name)).string();
    std::string text;
    if (detail::read_text_file(path, text)) read(path, text);
  }
}

std::vector<LayerFile> embedded_folder(std::string_view folder) {
  std::vector<LayerFile> out;
  for (const auto& f : embedded_files()) {
    std::string_view p(f.path);
    if (p.size() > folder.size() + 5 && p.substr(0, folder.size()) == folder && p.substr(p.size() - 5) == ".toml" &&
        p.find('/', folder.size()) == std::string_view::npos)
      out.push_back({std::string(p), std::string(f.data, f.size)});
  }
  std::sort(out.begin(), out.end(), [](const LayerFile& a, const LayerFile& b) { return a.name < b.name; });
  return out;
}

std::vector<LayerFile> folder_layer(const std::string& dir, std::string* list_error) {
  namespace fs = std::filesystem;
  std::vector<LayerFile> out;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return out;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() != ".toml" || !it->is_regular_file(ec)) continue;
    LayerFile f{it->path().string(), {}};
    f.read = detail::read_text_file(f.name, f.text);
    out.push_back(std::move(f));
  }
  if (ec && list_error) *list_error = "cannot list the directory: " + ec.message();
  std::sort(out.begin(), out.end(), [](const LayerFile& a, const LayerFile& b) { return a.name < b.name; });
  return out;
}

}  // namespace ts::kb
