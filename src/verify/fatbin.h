#pragma once
// A reader of the CUDA fatbinaries that nvcc embeds in .nv_fatbin (and __nv_relfatbin for
// relocatable device code): which SASS (cubin) and PTX each entry holds, for which arch.
// Layout, from public reimplementations (cuda-fatbin-decompression, jiegec/fatbinary) and checked
// against nvcc 13.0 output in tests/verify:
//   container: u32 magic 0xBA55ED50, u16 version, u16 header size, u64 size of the entries after it;
//   entry:     u16 kind (1 PTX, 2 ELF), u16, u32 header size, u64 payload size (padded),
//              u32 compressed size, u32, u16 minor, u16 major, u32 arch (90 = sm_90), u32, u32,
//              u64 flags, u64, u64 decompressed size; then header-size - 64 bytes more, then payload.
// Containers follow one another in a section, sometimes with zero padding between them.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/cuda_arch.h"
#include "formats/byte_reader.h"

namespace ts::verify {

inline constexpr std::uint32_t kFatbinMagic = 0xBA55ED50;

enum class FatbinKind { ptx, sass, other };

struct FatbinEntry {
  FatbinKind kind = FatbinKind::other;
  std::uint16_t raw_kind = 0;
  std::uint32_t arch = 0;        // the sm number as nvcc writes it: 80, 90, 100, 120
  char suffix = 0;               // 'a' (arch-specific) or 'f' (family), from the flags
  bool compressed = false;
  std::uint64_t flags = 0;
  std::uint32_t header_size = 0;
  std::uint64_t payload_size = 0;  // bytes after the entry header (padded, compressed if compressed)
  std::uint64_t offset = 0;        // of the entry header, from the start of the section
  CudaArch cuda_arch() const;      // 9.0a; ptx set for PTX entries
};

// Every entry of every container in `section`. nullopt and *error on garbage ("fatbin at 0x40:
// bad magic 0x12345678", "fatbin entry at 0x50 past end of its container").
std::optional<std::vector<FatbinEntry>> read_fatbins(formats::Bytes section, std::string* error);

// Entry flag bits, as nvcc writes them (the compression bits: older LZ4 and newer zstd payloads).
inline constexpr std::uint64_t kFatbinFlagCompressedLz4 = 0x2000;
inline constexpr std::uint64_t kFatbinFlagCompressedZstd = 0x8000;
inline constexpr std::uint64_t kFatbinFlagArchSpecific = 0x100000;  // sm_90a, compute_100a
inline constexpr std::uint64_t kFatbinFlagFamily = 0x200000;        // sm_100f, compute_120f

}  // namespace ts::verify
