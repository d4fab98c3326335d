#pragma once
// Builds fatbin containers by hand (the layout src/verify/fatbin.h describes), for tests.
#include <cstdint>
#include <string>
#include <vector>

#include "verify/fatbin.h"

namespace ts::verify::test {

inline std::string le(std::uint64_t v, int n) {
  std::string s(n, '\0');
  for (int i = 0; i < n; ++i) s[i] = char((v >> (8 * i)) & 0xff);
  return s;
}

// One entry: kind (1 PTX, 2 ELF), arch number, flags, payload (padded to 8), header of 64 + extra bytes.
inline std::string fatbin_entry(int kind, int arch, std::uint64_t flags, const std::string& payload, int extra = 0) {
  std::string padded = payload;
  while (padded.size() % 8) padded += '\0';
  std::string h = le(kind, 2) + le(0x101, 2) + le(64 + extra, 4) + le(padded.size(), 8) + le(payload.size(), 4) +
                  le(0, 4) + le(0, 2) + le(1, 2) + le(arch, 4) + le(0, 4) + le(0, 4) + le(flags, 8) + le(0, 8) +
                  le(0, 8);
  return h + std::string(extra, '\0') + padded;
}

inline std::string fatbin_container(const std::vector<std::string>& entries) {
  std::string body;
  for (const auto& e : entries) body += e;
  return le(kFatbinMagic, 4) + le(1, 2) + le(16, 2) + le(body.size(), 8) + body;
}

}  // namespace ts::verify::test
