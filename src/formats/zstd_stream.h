#pragma once
// zstd in front of a sink (the .conda format's info-/pkg- tarballs) and behind a source.
#include <zstd.h>

#include <vector>

#include "formats/tar_stream.h"

namespace ts::formats {

class ZstdSink : public ByteSink {
 public:
  explicit ZstdSink(ByteSink& out, int level = 19);
  ~ZstdSink() override;
  ZstdSink(const ZstdSink&) = delete;
  ZstdSink& operator=(const ZstdSink&) = delete;
  bool write(const void* data, std::size_t n) override;
  bool finish() override;
  const std::string& error() const override { return error_; }

 private:
  ByteSink& out_;
  ZSTD_CStream* s_ = nullptr;
  std::vector<char> buf_;
  std::string error_;
};

class ZstdSource : public ByteSource {
 public:
  explicit ZstdSource(ByteSource& in);
  ~ZstdSource() override;
  ZstdSource(const ZstdSource&) = delete;
  ZstdSource& operator=(const ZstdSource&) = delete;
  std::size_t read(void* data, std::size_t n) override;
  const std::string& error() const override { return error_; }

 private:
  ByteSource& in_;
  ZSTD_DStream* s_ = nullptr;
  std::vector<char> buf_;
  ZSTD_inBuffer inb_{nullptr, 0, 0};
  bool end_ = false, input_done_ = false;
  std::size_t last_rc_ = 0;
  std::string error_;
};

}  // namespace ts::formats
