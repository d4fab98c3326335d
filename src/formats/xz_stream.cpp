#include "formats/xz_stream.h"

#include <algorithm>

namespace ts::formats {

XzSource::XzSource(ByteSource& in, std::uint64_t memlimit) : FilterSource(in, 1 << 16) {
  // LZMA_CONCATENATED: pxz/pixz write several streams back to back, all of one archive.
  if (lzma_stream_decoder(&s_, memlimit, LZMA_CONCATENATED) != LZMA_OK)
    error_ = "xz: cannot initialise the decoder";
  else
    open_ = true;
}

XzSource::~XzSource() {
  if (open_) lzma_end(&s_);
}

std::size_t XzSource::read(void* data, std::size_t n) {
  if (!error_.empty() || end_ || n == 0) return 0;
  s_.next_out = static_cast<std::uint8_t*>(data);
  s_.avail_out = n;
  while (s_.avail_out == n) {
    lzma_action action = LZMA_RUN;
    if (s_.avail_in == 0 && !input_done_) {
      auto got = refill();
      if (!got) return 0;
      if (*got == 0) input_done_ = true;
      s_.next_in = reinterpret_cast<const std::uint8_t*>(buf_.data());
      s_.avail_in = *got;
    }
    if (input_done_) action = LZMA_FINISH;
    lzma_ret rc = lzma_code(&s_, action);
    if (rc == LZMA_STREAM_END) {
      end_ = true;
      break;
    }
    if (rc == LZMA_OK) {
      if (input_done_ && s_.avail_out == n) {
        error_ = "xz: the data ends early (truncated file)";
        return 0;
      }
      continue;
    }
    if (rc == LZMA_BUF_ERROR && input_done_) error_ = "xz: the data ends early (truncated file)";
    else if (rc == LZMA_MEMLIMIT_ERROR) error_ = "xz: the stream needs more memory than allowed (not a toolkit archive)";
    else if (rc == LZMA_FORMAT_ERROR) error_ = "xz: not xz data";
    else error_ = "xz: corrupt data (" + std::to_string(static_cast<int>(rc)) + ")";
    return 0;
  }
  return n - s_.avail_out;
}

}  // namespace ts::formats
