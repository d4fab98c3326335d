#include "formats/zstd_stream.h"

namespace ts::formats {

ZstdSink::ZstdSink(ByteSink& out, int level) : FilterSink(out, ZSTD_CStreamOutSize()) {
  s_ = ZSTD_createCStream();
  if (!s_ || ZSTD_isError(ZSTD_initCStream(s_, level)))
    error_ = "zstd: cannot initialise the compressor";
}

ZstdSink::~ZstdSink() { ZSTD_freeCStream(s_); }

// One compressor call's answer: its error kept, or the bytes it produced handed on.
bool ZstdSink::step(std::size_t rc, std::size_t produced) {
  if (ZSTD_isError(rc)) {
    error_ = std::string("zstd: ") + ZSTD_getErrorName(rc);
    return false;
  }
  return pass_on(produced);
}

bool ZstdSink::write(const void* data, std::size_t n) {
  if (!error_.empty()) return false;
  ZSTD_inBuffer in{data, n, 0};
  while (in.pos < in.size) {
    ZSTD_outBuffer out{buf_.data(), buf_.size(), 0};
    std::size_t rc = ZSTD_compressStream(s_, &out, &in);
    if (!step(rc, out.pos)) return false;
  }
  return true;
}

bool ZstdSink::finish() {
  if (!error_.empty()) return false;
  for (;;) {
    ZSTD_outBuffer out{buf_.data(), buf_.size(), 0};
    std::size_t rc = ZSTD_endStream(s_, &out);
    if (!step(rc, out.pos)) return false;
    if (rc == 0) return other_.finish();
  }
}

ZstdSource::ZstdSource(ByteSource& in) : FilterSource(in, ZSTD_DStreamInSize()) {
  s_ = ZSTD_createDStream();
  if (!s_ || ZSTD_isError(ZSTD_initDStream(s_)))
    error_ = "zstd: cannot initialise the decompressor";
}

ZstdSource::~ZstdSource() { ZSTD_freeDStream(s_); }

std::size_t ZstdSource::read(void* data, std::size_t n) {
  if (!error_.empty() || end_ || n == 0) return 0;
  ZSTD_outBuffer out{data, n, 0};
  while (out.pos == 0) {
    if (inb_.pos == inb_.size && !input_done_) {
      auto got = refill();
      if (!got) return 0;
      if (*got == 0) input_done_ = true;
      inb_ = {buf_.data(), *got, 0};
    }
    std::size_t before = inb_.pos;
    std::size_t rc = ZSTD_decompressStream(s_, &out, &inb_);
    if (ZSTD_isError(rc)) {
      error_ = std::string("zstd: not zstd data or corrupt (") + ZSTD_getErrorName(rc) + ")";
      return 0;
    }
    // A call with no input and no output only hints at a next frame: keep the last real answer.
    if (inb_.pos != before || out.pos) last_rc_ = rc;
    if (out.pos == 0 && input_done_ && inb_.pos == inb_.size) {
      // Input over and nothing left to flush: fine only at a frame boundary.
      if (last_rc_ != 0) {
        error_ = "zstd: the data ends early (truncated file)";
        return 0;
      }
      end_ = true;
      return 0;
    }
  }
  return out.pos;
}

}  // namespace ts::formats
