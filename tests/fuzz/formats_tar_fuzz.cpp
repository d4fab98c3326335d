// libFuzzer target: arbitrary bytes as a conda package's tar (plain, or behind bzip2 / zstd by
// their magic). Checks: no crash and no sanitizer report; every failure carries a reason.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "formats/bzip_stream.h"
#include "formats/tar_reader.h"
#include "formats/tar_stream.h"
#include "formats/zstd_stream.h"

namespace {

void read_all(ts::formats::ByteSource& in) {
  ts::formats::TarReader r(in);
  ts::formats::TarMember m;
  std::string data;
  while (r.next(m))
    if (m.type == '0' && !r.read_data(data, 1 << 20) && r.error().empty()) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ts::formats::BytesSource raw({data, size});
  if (size >= 3 && std::memcmp(data, "BZh", 3) == 0) {
    ts::formats::Bzip2Source bz(raw);
    read_all(bz);
  } else if (size >= 4 && std::memcmp(data, "\x28\xb5\x2f\xfd", 4) == 0) {
    ts::formats::ZstdSource zs(raw);
    read_all(zs);
  } else {
    read_all(raw);
  }
  return 0;
}
