#pragma once
// bzip2 in front of a sink (writing .tar.bz2) and behind a source (reading one), in chunks.
#include <bzlib.h>

#include "formats/filter_stream.h"

namespace ts::formats {

class Bzip2Sink : public FilterSink {
 public:
  explicit Bzip2Sink(ByteSink& out, int level = 9);
  ~Bzip2Sink() override;
  bool write(const void* data, std::size_t n) override;
  bool finish() override;

 private:
  bool pump(int action);
  bz_stream s_{};
  bool open_ = false;
};

class Bzip2Source : public FilterSource {
 public:
  explicit Bzip2Source(ByteSource& in);
  ~Bzip2Source() override;
  std::size_t read(void* data, std::size_t n) override;

 private:
  bz_stream s_{};
  bool open_ = false, end_ = false;
};

}  // namespace ts::formats
