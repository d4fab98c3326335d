#pragma once
// A read-only memory map of a whole file: libtorch_cuda.so is over a gigabyte, and the readers only
// touch headers and a few sections, so mapping beats reading it into memory.
#include <string>

#include "formats/byte_reader.h"

namespace ts::formats {

class MappedFile {
 public:
  // Maps `path`; on failure ok() is false and error() says why ("cannot open X: No such file ...").
  explicit MappedFile(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  MappedFile(MappedFile&& o) noexcept;
  MappedFile& operator=(MappedFile&&) = delete;

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  Bytes bytes() const { return {static_cast<const unsigned char*>(addr_), size_}; }

 private:
  void* addr_ = nullptr;
  std::size_t size_ = 0;
  std::string error_;
};

}  // namespace ts::formats
