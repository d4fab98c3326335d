#include "package/conda_digest.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include "package/record.h"

namespace ts::package {

void Md5::update(const void* data, std::size_t n) {
  evp_.update(data, n);
}

std::string Md5::hex() {
  unsigned char out[16];
  evp_.finish(out);
  return util::hex(out, 16);
}

std::optional<FileDigest> digest_file(const std::string& path, std::string* error) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    *error = "cannot read " + path + ": " + std::strerror(errno);
    return std::nullopt;
  }
  Sha256 sha;
  Md5 md5;
  FileDigest d;
  std::vector<unsigned char> buf(1 << 20);
  std::size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), f)) > 0) {
    sha.update(buf.data(), n);
    md5.update(buf.data(), n);
    d.size += n;
  }
  bool bad = std::ferror(f);
  std::fclose(f);
  if (bad) {
    *error = "cannot read " + path + ": read error";
    return std::nullopt;
  }
  d.sha256_raw = sha.digest();
  d.sha256 = hex(d.sha256_raw);
  d.md5 = md5.hex();
  return d;
}

}  // namespace ts::package
