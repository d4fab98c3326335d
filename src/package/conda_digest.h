#pragma once
// Streaming MD5 (SHA-256 is util/sha256.h; both are OpenSSL's EVP, util/evp_hash.h), and both over
// a file in one pass: conda's paths.json and repodata.json need digests of files that can be
// gigabytes (libtorch_cuda.so), hashed in chunks.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "util/evp_hash.h"

namespace ts::package {

class Md5 {
 public:
  void update(const void* data, std::size_t n);
  void update(std::string_view s) { update(s.data(), s.size()); }
  std::string hex();  // finishes; the object is spent afterwards

 private:
  util::EvpHash evp_{util::EvpHash::Algorithm::kMd5};
};

struct FileDigest {
  std::string sha256, md5;  // lower-case hex
  std::array<unsigned char, 32> sha256_raw{};
  std::uint64_t size = 0;
};

// Both digests and the size in one pass; nullopt and *error ("cannot read X: ...") on failure.
std::optional<FileDigest> digest_file(const std::string& path, std::string* error);

}  // namespace ts::package
