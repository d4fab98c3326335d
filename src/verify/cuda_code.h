#pragma once
// The GPU code a library carries: the SASS arches and PTX versions of all its embedded fatbinaries,
// and the CUDA releases that compiled them.
#include <optional>
#include <string>
#include <vector>

#include "core/cuda_arch.h"
#include "formats/elf.h"

namespace ts::verify {

struct CudaCode {
  bool present = false;           // some fatbin section exists
  std::vector<CudaArch> sass;     // sorted, unique: sm_80, sm_90a
  std::vector<CudaArch> ptx;      // sorted, unique, ptx set: compute_90
  int entries = 0;                // fatbin entries read
  int compressed = 0;             // of which compressed
  std::vector<std::string> sections;  // the fatbin sections read: ".nv_fatbin", "__nv_relfatbin"
  // The CUDA releases that compiled the entries, as they say themselves (cuda_release.h): sorted,
  // unique, "13.0"; entries that do not say (compressed, no banner) are counted in `unversioned`.
  std::vector<std::string> releases;
  int unversioned = 0;

  std::string sass_text() const;  // "sm_80 sm_90"
  std::string ptx_text() const;   // "compute_90"
};

// Reads .nv_fatbin and __nv_relfatbin. nullopt and *error when a fatbin section is garbage.
std::optional<CudaCode> cuda_code_of(const formats::ElfFile& elf, std::string* error);

}  // namespace ts::verify
