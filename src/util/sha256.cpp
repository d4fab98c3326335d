#include "util/sha256.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

namespace ts::util {

void Sha256::update(const void* data, std::size_t n) {
  evp_.update(data, n);
}

void Sha256::update_zeros(std::uint64_t n) {
  static const unsigned char zeros[4096] = {};
  while (n) {
    std::size_t take = n < sizeof zeros ? std::size_t(n) : sizeof zeros;
    update(zeros, take);
    n -= take;
  }
}

std::array<unsigned char, 32> Sha256::digest() {
  std::array<unsigned char, 32> out;
  evp_.finish(out.data());
  return out;
}

std::string hex(const unsigned char* p, std::size_t n) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    out += kHex[p[i] >> 4];
    out += kHex[p[i] & 15];
  }
  return out;
}

std::string hex(const std::array<unsigned char, 32>& digest) { return hex(digest.data(), digest.size()); }

std::optional<std::string> sha256_file(const std::string& path) {
  std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "rb"), std::fclose);
  if (!f) return std::nullopt;
  Sha256 h;
  std::vector<unsigned char> buf(1 << 16);
  std::size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), f.get())) > 0) h.update(buf.data(), n);
  if (std::ferror(f.get())) return std::nullopt;
  return hex(h.digest());
}

}  // namespace ts::util
