#pragma once
// One KB file by name, layer by layer: the embedded copy, then DIR/NAME in each overlay directory
// (later ones win). Each stage that owns a file (build.toml, provision.toml, manylinux.toml,
// sources.toml, signatures.toml) reads its layers through this, so they all stack the same way.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace ts::kb {

// Calls read(file, text) for the embedded NAME (file = NAME) and for each overlay's DIR/NAME that
// exists and can be read (file = its path), in that order.
void for_each_layer(std::string_view name, const std::vector<std::string>& overlay_dirs,
                    const std::function<void(const std::string& file, std::string_view text)>& read);

}  // namespace ts::kb
