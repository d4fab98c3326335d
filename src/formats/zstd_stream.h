#pragma once
// zstd in front of a sink (the .conda format's info-/pkg- tarballs) and behind a source.
#include <zstd.h>

#include "formats/filter_stream.h"

namespace ts::formats {

class ZstdSink : public FilterSink {
 public:
  explicit ZstdSink(ByteSink& out, int level = 19);
  ~ZstdSink() override;
  bool write(const void* data, std::size_t n) override;
  bool finish() override;

 private:
  bool step(std::size_t rc, std::size_t produced);
  ZSTD_CStream* s_ = nullptr;
};

class ZstdSource : public FilterSource {
 public:
  explicit ZstdSource(ByteSource& in);
  ~ZstdSource() override;
  std::size_t read(void* data, std::size_t n) override;

 private:
  ZSTD_DStream* s_ = nullptr;
  ZSTD_inBuffer inb_{nullptr, 0, 0};
  bool end_ = false, input_done_ = false;
  std::size_t last_rc_ = 0;
};

}  // namespace ts::formats
