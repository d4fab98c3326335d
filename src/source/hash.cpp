#include "source/hash.h"

#include <array>
#include <cstdint>

#include "util/sha256.h"

namespace ts::source {

namespace {

constexpr char kB64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

}  // namespace

std::string sha256_hex(std::string_view data) {
  util::Sha256 h;
  h.update(data.data(), data.size());
  return util::hex(h.digest());
}

std::string base64_encode(std::string_view data) {
  std::string out;
  out.reserve((data.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= data.size(); i += 3) {
    std::uint32_t v = std::uint32_t(static_cast<unsigned char>(data[i])) << 16 |
                      std::uint32_t(static_cast<unsigned char>(data[i + 1])) << 8 |
                      static_cast<unsigned char>(data[i + 2]);
    out += kB64[v >> 18]; out += kB64[(v >> 12) & 63]; out += kB64[(v >> 6) & 63]; out += kB64[v & 63];
  }
  if (std::size_t rest = data.size() - i) {
    std::uint32_t v = std::uint32_t(static_cast<unsigned char>(data[i])) << 16;
    if (rest == 2) v |= std::uint32_t(static_cast<unsigned char>(data[i + 1])) << 8;
    out += kB64[v >> 18];
    out += kB64[(v >> 12) & 63];
    out += rest == 2 ? kB64[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

bool base64_decode(std::string_view text, std::string& out) {
  out.clear();
  if (text.size() % 4) return false;
  auto val = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  for (std::size_t i = 0; i < text.size(); i += 4) {
    bool last = i + 4 == text.size();
    int pad = (text[i + 3] == '=') + (text[i + 2] == '=' && text[i + 3] == '=');
    if (pad && !last) return false;
    int a = val(text[i]), b = val(text[i + 1]);
    int c = pad >= 2 ? 0 : val(text[i + 2]), d = pad >= 1 ? 0 : val(text[i + 3]);
    if (a < 0 || b < 0 || c < 0 || d < 0) return false;
    std::uint32_t v = std::uint32_t(a) << 18 | std::uint32_t(b) << 12 | std::uint32_t(c) << 6 | std::uint32_t(d);
    out += static_cast<char>(v >> 16);
    if (pad < 2) out += static_cast<char>((v >> 8) & 0xff);
    if (pad < 1) out += static_cast<char>(v & 0xff);
  }
  return true;
}

}  // namespace ts::source
