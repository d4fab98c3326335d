#pragma once
// What a compressor in front of a sink and a decompressor behind a source share, whatever the codec:
// the stream on the other side, one buffer, the first error kept, no copies.
#include <optional>
#include <string>
#include <vector>

#include "formats/tar_stream.h"

namespace ts::formats {

// `Stream` is what the filter is (a ByteSink or a ByteSource); `other_` the stream of the same kind it
// writes into or reads from.
template <class Stream>
class Filter : public Stream {
 public:
  Filter(const Filter&) = delete;
  Filter& operator=(const Filter&) = delete;
  const std::string& error() const override { return error_; }

 protected:
  Filter(Stream& other, std::size_t buffer) : other_(other), buf_(buffer) {}

  Stream& other_;
  std::vector<char> buf_;
  std::string error_;
};

class FilterSink : public Filter<ByteSink> {
 protected:
  using Filter::Filter;
  // Hands the first `produced` bytes of buf_ on; false, with other_'s error kept, when it refuses them.
  bool pass_on(std::size_t produced);
};

class FilterSource : public Filter<ByteSource> {
 protected:
  using Filter::Filter;
  // Reads other_'s next chunk into buf_: how many bytes (0 at its end), or nothing, with its error kept.
  std::optional<std::size_t> refill();
};

}  // namespace ts::formats
