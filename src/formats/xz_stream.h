#pragma once
// xz behind a source (reading NVIDIA's redistributable .tar.xz archives), in chunks, with a bound
// on the decoder's memory so a hostile header cannot make it allocate gigabytes.
#include <lzma.h>

#include "formats/filter_stream.h"

namespace ts::formats {

class XzSource : public FilterSource {
 public:
  explicit XzSource(ByteSource& in, std::uint64_t memlimit = 1ull << 30);
  ~XzSource() override;
  std::size_t read(void* data, std::size_t n) override;

 private:
  lzma_stream s_ = LZMA_STREAM_INIT;
  bool open_ = false, end_ = false, input_done_ = false;
};

}  // namespace ts::formats
