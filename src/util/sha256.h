#pragma once
// SHA-256, one implementation for the whole program: wheel RECORDs, conda digests, fix hashes and
// the run journal. OpenSSL's EVP underneath (util/evp_hash.h says why).
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "util/evp_hash.h"

namespace ts::util {

// Incremental SHA-256: streamed, so a 1 GiB library never sits in memory.
class Sha256 {
 public:
  Sha256() : evp_(EvpHash::Algorithm::kSha256) {}
  void update(const void* data, std::size_t n);
  void update_zeros(std::uint64_t n);  // n zero bytes (sparse members) without a buffer of them
  std::array<unsigned char, 32> digest();  // finishes; the object is spent afterwards

 private:
  EvpHash evp_;
};

// Lower-case hex digits of n bytes (an MD5 digest's 16); of a SHA-256 digest, 64 digits.
std::string hex(const unsigned char* p, std::size_t n);
std::string hex(const std::array<unsigned char, 32>& digest);

// The hex SHA-256 of a file's bytes, read in chunks; nullopt when it cannot be opened or read.
std::optional<std::string> sha256_file(const std::string& path);

}  // namespace ts::util
