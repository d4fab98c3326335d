// libFuzzer target: arbitrary bytes as a wheel. Checks: no crash and no sanitizer report; every
// accepted member name stays inside the archive; small members extract (or refuse) without harm;
// the wheel check (RECORD, .dist-info, METADATA) accepts or refuses with a reason.
#include <cstddef>
#include <cstdint>
#include <string>

#include "formats/wheel.h"
#include "formats/zip.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string err;
  auto zip = ts::formats::ZipArchive::open({data, size}, &err);
  if (!zip) {
    if (err.empty()) __builtin_trap();
    return 0;
  }
  for (const auto& m : zip->members()) {
    if (m.name.empty() || m.name[0] == '/') __builtin_trap();
    // No path segment may be ".." ("a../b" is a harmless name).
    for (std::size_t start = 0; start <= m.name.size();) {
      std::size_t end = m.name.find('/', start);
      if (end == std::string::npos) end = m.name.size();
      if (m.name.compare(start, end - start, "..") == 0) __builtin_trap();
      start = end + 1;
    }
    // Inflate through the sink, never to a path: extract removes a file it failed to write, and
    // "/dev/null" here once cost the machine its /dev/null.
    if (m.size <= (1u << 20)) (void)zip->stream(m, [](const unsigned char*, std::size_t) { return true; });
  }
  std::string why;
  if (!ts::formats::check_wheel(*zip, &why) && why.empty()) __builtin_trap();
  return 0;
}
