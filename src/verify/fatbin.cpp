#include "verify/fatbin.h"

#include <charconv>

namespace ts::verify {
namespace {

constexpr std::uint64_t kContainerHeader = 16;
constexpr std::uint64_t kEntryHeader = 64;

std::string hex(std::uint64_t v) {
  char buf[24];
  auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v, 16);
  return "0x" + std::string(buf, p);
}

}  // namespace

CudaArch FatbinEntry::cuda_arch() const {
  return CudaArch::of(int(arch / 10), int(arch % 10), suffix, kind == FatbinKind::ptx);
}

std::optional<std::vector<FatbinEntry>> read_fatbins(formats::Bytes section, std::string* error) {
  const formats::ByteReader r(section, false);  // fatbins are little-endian on every host nvcc targets
  const auto fail = [&](std::string msg) -> std::optional<std::vector<FatbinEntry>> {
    if (error) *error = std::move(msg);
    return std::nullopt;
  };
  std::vector<FatbinEntry> out;
  std::uint64_t pos = 0;
  while (pos < r.size()) {
    if (section[pos] == 0) { ++pos; continue; }  // padding between containers
    std::uint32_t magic = 0;
    std::uint16_t version = 0, header_size = 0;
    std::uint64_t size = 0;
    if (!r.u32(pos, magic) || !r.u16(pos + 4, version) || !r.u16(pos + 6, header_size) || !r.u64(pos + 8, size))
      return fail("fatbin at " + hex(pos) + ": truncated header");
    if (magic != kFatbinMagic) return fail("fatbin at " + hex(pos) + ": bad magic " + hex(magic));
    if (header_size < kContainerHeader) return fail("fatbin at " + hex(pos) + ": header size " + std::to_string(header_size));
    if (!formats::fits(r.size(), pos, header_size) || !formats::fits(r.size(), pos + header_size, size))
      return fail("fatbin at " + hex(pos) + ": size " + hex(size) + " past end of section");
    const std::uint64_t end = pos + header_size + size;
    std::uint64_t q = pos + header_size;
    while (q < end) {
      FatbinEntry e;
      e.offset = q;
      std::uint32_t compressed_size = 0;
      if (!formats::fits(end, q, kEntryHeader)) return fail("fatbin entry at " + hex(q) + " past end of its container");
      r.u16(q, e.raw_kind);
      r.u32(q + 4, e.header_size);
      r.u64(q + 8, e.payload_size);
      r.u32(q + 16, compressed_size);
      r.u32(q + 28, e.arch);
      r.u64(q + 40, e.flags);
      if (e.header_size < kEntryHeader || !formats::fits(end, q, e.header_size) ||
          !formats::fits(end, q + e.header_size, e.payload_size))
        return fail("fatbin entry at " + hex(q) + " past end of its container (header " +
                    std::to_string(e.header_size) + ", payload " + std::to_string(e.payload_size) + " bytes)");
      e.kind = e.raw_kind == 1 ? FatbinKind::ptx : e.raw_kind == 2 ? FatbinKind::sass : FatbinKind::other;
      e.compressed = (e.flags & (kFatbinFlagCompressedLz4 | kFatbinFlagCompressedZstd)) != 0;
      e.suffix = (e.flags & kFatbinFlagArchSpecific) ? 'a' : (e.flags & kFatbinFlagFamily) ? 'f' : 0;
      if (e.kind != FatbinKind::other && (e.arch == 0 || e.arch > 9999))
        return fail("fatbin entry at " + hex(q) + ": arch " + std::to_string(e.arch) + " out of range");
      out.push_back(e);
      q += e.header_size + e.payload_size;
    }
    pos = end;
  }
  return out;
}

}  // namespace ts::verify
