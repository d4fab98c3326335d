#pragma once
// Byte streams for building and reading packages: a sink the tar writer writes into (a file, or a
// compressor in front of one) and a source the tar reader pulls from. Errors are sticky strings.
#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <span>
#include <string>

namespace ts::formats {

class ByteSink {
 public:
  virtual ~ByteSink() = default;
  virtual bool write(const void* data, std::size_t n) = 0;  // false once an error happened
  virtual bool finish() = 0;                                // flush trailers (compressors)
  virtual const std::string& error() const = 0;
};

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Up to n bytes; 0 at the end or on error (then error() is non-empty).
  virtual std::size_t read(void* data, std::size_t n) = 0;
  virtual const std::string& error() const = 0;
};

// A file written under a temporary name in the same directory and renamed over `path` by commit(),
// so a crash or an error never leaves a half-written package; without commit() the temp is removed.
class AtomicFile : public ByteSink {
 public:
  explicit AtomicFile(std::string path);
  ~AtomicFile() override;
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  bool ok() const { return error_.empty(); }
  bool write(const void* data, std::size_t n) override;
  bool finish() override { return ok(); }
  const std::string& error() const override { return error_; }
  // fsync, close, rename; false with error() on failure.
  bool commit();
  const std::string& temp_path() const { return tmp_; }

 private:
  std::string path_, tmp_, error_;
  std::FILE* f_ = nullptr;
  bool done_ = false;
  int slot_ = -1;  // util::register_cleanup of tmp_: removed if a signal ends the process
};

class FileSource : public ByteSource {
 public:
  explicit FileSource(const std::string& path);
  ~FileSource() override;
  FileSource(const FileSource&) = delete;
  FileSource& operator=(const FileSource&) = delete;
  bool ok() const { return error_.empty(); }
  std::size_t read(void* data, std::size_t n) override;
  const std::string& error() const override { return error_; }

 private:
  std::string path_, error_;
  std::FILE* f_ = nullptr;
};

// Bytes already in memory (a member read from a .conda, a fuzz input).
class BytesSource : public ByteSource {
 public:
  explicit BytesSource(std::span<const unsigned char> data) : data_(data) {}
  std::size_t read(void* out, std::size_t n) override {
    n = std::min(n, data_.size());
    if (n) std::memcpy(out, data_.data(), n);
    data_ = data_.subspan(n);
    return n;
  }
  const std::string& error() const override { return error_; }

 private:
  std::span<const unsigned char> data_;
  std::string error_;  // reading memory cannot fail
};

// Copies a whole file into a sink in chunks; "" or why not.
std::string copy_file_to(const std::string& path, ByteSink& out);

}  // namespace ts::formats
