#pragma once
// bzip2 in front of a sink (writing .tar.bz2) and behind a source (reading one), in chunks.
#include <bzlib.h>

#include <vector>

#include "formats/tar_stream.h"

namespace ts::formats {

class Bzip2Sink : public ByteSink {
 public:
  explicit Bzip2Sink(ByteSink& out, int level = 9);
  ~Bzip2Sink() override;
  Bzip2Sink(const Bzip2Sink&) = delete;
  Bzip2Sink& operator=(const Bzip2Sink&) = delete;
  bool write(const void* data, std::size_t n) override;
  bool finish() override;
  const std::string& error() const override { return error_; }

 private:
  bool pump(int action);
  ByteSink& out_;
  bz_stream s_{};
  bool open_ = false;
  std::vector<char> buf_;
  std::string error_;
};

class Bzip2Source : public ByteSource {
 public:
  explicit Bzip2Source(ByteSource& in);
  ~Bzip2Source() override;
  Bzip2Source(const Bzip2Source&) = delete;
  Bzip2Source& operator=(const Bzip2Source&) = delete;
  std::size_t read(void* data, std::size_t n) override;
  const std::string& error() const override { return error_; }

 private:
  ByteSource& in_;
  bz_stream s_{};
  bool open_ = false, end_ = false;
  std::vector<char> buf_;
  std::string error_;
};

}  // namespace ts::formats
