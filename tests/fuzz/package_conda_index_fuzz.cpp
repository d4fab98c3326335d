// libFuzzer target: arbitrary bytes as a conda package whose info/index.json `torchsmith index`
// reads for the channel's repodata.json; the first byte picks .tar.bz2 or .conda. Checks: no
// crash and no sanitizer report; a refusal says why; an accepted index.json has name, version and
// build as strings (what repodata.json needs).
#include <cstdint>
#include <cstdlib>
#include <string>

#include "package/channel.h"

// In memory (read_conda_index_bytes is read_conda_index_json after the file is mapped or opened):
// no file is written per input.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::string err;
  auto j = ts::package::read_conda_index_bytes({data + 1, size - 1}, data[0] & 1, &err);
  if (!j) {
    if (err.empty()) std::abort();
    return 0;
  }
  for (const char* key : {"name", "version", "build"})
    if (!j->is_object() || !j->contains(key) || !(*j)[key].is_string()) std::abort();
  return 0;
}
