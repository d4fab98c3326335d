#pragma once
// A KB table's layers: the embedded copy, then each overlay directory's (later ones win). A table of
// one file (build.toml, provision.toml, manylinux.toml, sources.toml, signatures.toml) reads
// DIR/NAME through for_each_layer; a table of a folder (fixes/, packages/) lists its files through
// embedded_folder and folder_layer; so every table stacks the same way.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace ts::kb {

// Calls read(file, text) for the embedded NAME (file = NAME) and for each overlay's DIR/NAME that
// exists and can be read (file = its path), in that order.
void for_each_layer(std::string_view name, const std::vector<std::string>& overlay_dirs,
                    const std::function<void(const std::string& file, std::string_view text)>& read);

// A table of a folder (fixes/, packages/) reads these layers: the embedded files directly in the
// folder, then each overlay's DIR/FOLDER/*.toml.
struct LayerFile {
  std::string name;  // as shown in errors: "packages/apex.toml" (embedded) or the file's path
  std::string text;
  bool read = true;  // false: listed but could not be read (the table's reader words the error)
};

// The embedded *.toml files directly in `folder` ("packages/"), sorted by name.
std::vector<LayerFile> embedded_folder(std::string_view folder);

// DIR's regular *.toml files (not its subfolders), sorted by path; a missing directory gives none,
// one that cannot be listed sets *list_error (when given) to why.
std::vector<LayerFile> folder_layer(const std::string& dir, std::string* list_error = nullptr);

// A table of one file stacked layer by layer: read_text(table, file, text, errors) for each layer.
template <class T, class ReadText>
T read_layers(std::string_view name, const std::vector<std::string>& overlay_dirs, std::vector<std::string>& errors,
              ReadText read_text) {
  T table{};
  for_each_layer(name, overlay_dirs,
                 [&](const std::string& file, std::string_view text) { read_text(table, file, text, errors); });
  return table;
}

}  // namespace ts::kb
