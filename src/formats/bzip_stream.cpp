#include "formats/bzip_stream.h"

namespace ts::formats {

Bzip2Sink::Bzip2Sink(ByteSink& out, int level) : FilterSink(out, 1 << 16) {
  if (BZ2_bzCompressInit(&s_, level, 0, 0) != BZ_OK)
    error_ = "bzip2: cannot initialise the compressor";
  else
    open_ = true;
}

Bzip2Sink::~Bzip2Sink() {
  if (open_) BZ2_bzCompressEnd(&s_);
}

bool Bzip2Sink::pump(int action) {
  for (;;) {
    s_.next_out = buf_.data();
    s_.avail_out = static_cast<unsigned>(buf_.size());
    int rc = BZ2_bzCompress(&s_, action);
    if (rc < 0) {
      error_ = "bzip2: compression failed (" + std::to_string(rc) + ")";
      return false;
    }
    if (!pass_on(buf_.size() - s_.avail_out)) return false;
    if (action == BZ_RUN && s_.avail_in == 0) return true;
    if (action == BZ_FINISH && rc == BZ_STREAM_END) return true;
  }
}

bool Bzip2Sink::write(const void* data, std::size_t n) {
  if (!error_.empty()) return false;
  const char* p = static_cast<const char*>(data);
  // avail_in is 32-bit: feed large buffers in slices.
  while (n) {
    unsigned take = static_cast<unsigned>(std::min<std::size_t>(n, 1u << 30));
    s_.next_in = const_cast<char*>(p);
    s_.avail_in = take;
    if (!pump(BZ_RUN)) return false;
    p += take;
    n -= take;
  }
  return true;
}

bool Bzip2Sink::finish() {
  if (!error_.empty()) return false;
  s_.next_in = nullptr;
  s_.avail_in = 0;
  return pump(BZ_FINISH) && other_.finish();
}

Bzip2Source::Bzip2Source(ByteSource& in) : FilterSource(in, 1 << 16) {
  if (BZ2_bzDecompressInit(&s_, 0, 0) != BZ_OK)
    error_ = "bzip2: cannot initialise the decompressor";
  else
    open_ = true;
}

Bzip2Source::~Bzip2Source() {
  if (open_) BZ2_bzDecompressEnd(&s_);
}

std::size_t Bzip2Source::read(void* data, std::size_t n) {
  if (!error_.empty() || end_ || n == 0) return 0;
  s_.next_out = static_cast<char*>(data);
  s_.avail_out = static_cast<unsigned>(std::min<std::size_t>(n, 1u << 30));
  unsigned want = s_.avail_out;
  while (s_.avail_out == want) {
    if (s_.avail_in == 0) {
      auto got = refill();
      if (!got) return 0;
      if (*got == 0) {
        error_ = "bzip2: the data ends early (truncated file)";
        return 0;
      }
      s_.next_in = buf_.data();
      s_.avail_in = static_cast<unsigned>(*got);
    }
    int rc = BZ2_bzDecompress(&s_);
    if (rc == BZ_STREAM_END) {
      end_ = true;
      break;
    }
    if (rc != BZ_OK) {
      error_ = "bzip2: not bzip2 data or corrupt (" + std::to_string(rc) + ")";
      return 0;
    }
  }
  return want - s_.avail_out;
}

}  // namespace ts::formats
