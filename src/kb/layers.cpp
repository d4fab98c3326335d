#include "kb/layers.h"

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

}  // namespace ts::kb
