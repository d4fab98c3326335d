#pragma once
// The data/kb files compiled into the binary (see cmake/EmbedKb.cmake).
#include <cstddef>
#include <span>

namespace ts::kb {

struct EmbeddedFile {
  const char* path;  // relative to data/kb, e.g. "gpus.toml"
  const char* data;
  std::size_t size;
};

std::span<const EmbeddedFile> embedded_files();

}  // namespace ts::kb
