#pragma once
// The Merkle-Damgard buffering that SHA-256 and MD5 share: bytes arrive in any sizes, the
// compression function wants whole 64-byte blocks.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace ts::util {

// Appends n bytes: completes a partly filled buf first, hands every whole block to block(p), keeps
// the rest in buf. used counts the bytes in buf, total every byte ever fed.
template <class Block>
void feed_blocks(unsigned char (&buf)[64], std::size_t& used, std::uint64_t& total, const void* data,
                 std::size_t n, Block&& block) {
  const auto* p = static_cast<const unsigned char*>(data);
  total += n;
  if (used) {
    std::size_t take = std::min(n, 64 - used);
    std::memcpy(buf + used, p, take);
    used += take;
    p += take;
    n -= take;
    if (used < 64) return;
    block(static_cast<const unsigned char*>(buf));
    used = 0;
  }
  for (; n >= 64; n -= 64, p += 64) block(p);
  std::memcpy(buf, p, n);
  used = n;
}

}  // namespace ts::util
