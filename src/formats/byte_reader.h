#pragma once
// Bounds-checked, endian-aware reads over untrusted bytes: every read says whether it fit, so a
// truncated or hostile file yields an error string, never an out-of-bounds access.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace ts::formats {

using Bytes = std::span<const unsigned char>;

// [off, off+len) lies inside a buffer of `size` bytes, without overflowing.
inline bool fits(std::uint64_t size, std::uint64_t off, std::uint64_t len) {
  return off <= size && len <= size - off;
}

class ByteReader {
 public:
  ByteReader() = default;
  ByteReader(Bytes data, bool big_endian) : data_(data), big_(big_endian) {}

  std::uint64_t size() const { return data_.size(); }
  Bytes data() const { return data_; }
  bool big_endian() const { return big_; }

  bool u8(std::uint64_t off, std::uint8_t& out) const { return get(off, 1, out); }
  bool u16(std::uint64_t off, std::uint16_t& out) const { return get(off, 2, out); }
  bool u32(std::uint64_t off, std::uint32_t& out) const { return get(off, 4, out); }
  bool u64(std::uint64_t off, std::uint64_t& out) const { return get(off, 8, out); }
  // A 4- or 8-byte word (ELF32 vs ELF64 fields), widened.
  bool word(std::uint64_t off, bool wide, std::uint64_t& out) const {
    if (wide) return u64(off, out);
    std::uint32_t v = 0;
    if (!u32(off, v)) return false;
    out = v;
    return true;
  }
  // The sub-range [off, off+len), or false when it does not fit.
  bool slice(std::uint64_t off, std::uint64_t len, Bytes& out) const {
    if (!fits(data_.size(), off, len)) return false;
    out = data_.subspan(off, len);
    return true;
  }

 private:
  template <typename T>
  bool get(std::uint64_t off, int n, T& out) const {
    if (!fits(data_.size(), off, n)) return false;
    std::uint64_t v = 0;
    for (int i = 0; i < n; ++i) {
      const int shift = big_ ? 8 * (n - 1 - i) : 8 * i;
      v |= std::uint64_t(data_[off + i]) << shift;
    }
    out = static_cast<T>(v);
    return true;
  }

  Bytes data_;
  bool big_ = false;
};

// The NUL-terminated string at `off` inside `table`; false when it is out of range or unterminated.
inline bool c_string(Bytes table, std::uint64_t off, std::string_view& out) {
  if (off >= table.size()) return false;
  for (std::uint64_t i = off; i < table.size(); ++i) {
    if (table[i] == 0) {
      out = std::string_view(reinterpret_cast<const char*>(table.data() + off), i - off);
      return true;
    }
  }
  return false;
}

}  // namespace ts::formats
