// libFuzzer target: arbitrary bytes as a conda package whose info/index.json `torchsmith index`
// reads for the channel's repodata.json; the first byte picks .tar.bz2 or .conda. Checks: no
// crash and no sanitizer report; a refusal says why; an accepted index.json has name, version and
// build as strings (what repodata.json needs).
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "package/channel.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  // One scratch file per process, under /tmp (never next to the user's files).
  static const std::string base = "/tmp/ts-fuzz-conda-" + std::to_string(getpid());
  std::string path = base + ((data[0] & 1) ? ".conda" : ".tar.bz2");
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return 0;
  bool ok = std::fwrite(data + 1, 1, size - 1, f) == size - 1;
  ok = std::fclose(f) == 0 && ok;
  if (!ok) return 0;
  std::string err;
  auto j = ts::package::read_conda_index_json(path, &err);
  unlink(path.c_str());
  if (!j) {
    if (err.empty()) std::abort();
    return 0;
  }
  for (const char* key : {"name", "version", "build"})
    if (!j->is_object() || !j->contains(key) || !(*j)[key].is_string()) std::abort();
  return 0;
}
