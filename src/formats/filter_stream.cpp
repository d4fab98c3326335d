#include "formats/filter_stream.h"

namespace ts::formats {

bool FilterSink::pass_on(std::size_t produced) {
  if (produced && !other_.write(buf_.data(), produced)) {
    error_ = other_.error();
    return false;
  }
  return true;
}

std::optional<std::size_t> FilterSource::refill() {
  std::size_t got = other_.read(buf_.data(), buf_.size());
  if (!other_.error().empty()) {
    error_ = other_.error();
    return std::nullopt;
  }
  return got;
}

}  // namespace ts::formats
