#pragma once
// SHA-256, one implementation for the whole program: wheel RECORDs, conda digests, fix hashes and
// the run journal. Small and self-contained, so no crypto library is linked.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace ts::util {

// Incremental SHA-256: streamed, so a 1 GiB library never sits in memory.
class Sha256 {
 public:
  Sha256();
  void update(const void* data, std::size_t n);
  void update_zeros(std::uint64_t n);  // n zero bytes (sparse members) without a buffer of them
  std::array<unsigned char, 32> digest();  // finishes; the object is spent afterwards

 private:
  void block(const unsigned char* p);
  std::array<std::uint32_t, 8> h_;
  unsigned char buf_[64];
  std::size_t used_ = 0;
  std::uint64_t total_ = 0;
};

// Lower-case hex digits of n bytes (an MD5 digest's 16); of a SHA-256 digest, 64 digits.
std::string hex(const unsigned char* p, std::size_t n);
std::string hex(const std::array<unsigned char, 32>& digest);

}  // namespace ts::util
