#include "verify/cuda_code.h"

#include <algorithm>

#include "verify/cuda_release.h"
#include "verify/fatbin.h"

namespace ts::verify {
namespace {

void sort_unique(std::vector<CudaArch>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

std::string join(const std::vector<CudaArch>& v, bool ptx) {
  std::string s;
  for (const auto& a : v) s += (s.empty() ? "" : " ") + (ptx ? a.compute() : a.sm());
  return s;
}

}  // namespace

std::string CudaCode::sass_text() const { return join(sass, false); }
std::string CudaCode::ptx_text() const { return join(ptx, true); }

std::optional<CudaCode> cuda_code_of(const formats::ElfFile& elf, std::string* error) {
  CudaCode c;
  for (const auto& s : elf.sections()) {
    if (s.name != ".nv_fatbin" && s.name != "__nv_relfatbin") continue;
    c.present = true;
    c.sections.push_back(s.name);
    std::string err;
    auto entries = read_fatbins(elf.section_bytes(s), &err);
    if (!entries) {
      if (error) *error = s.name + ": " + err;
      return std::nullopt;
    }
    for (const auto& e : *entries) {
      ++c.entries;
      if (e.compressed) ++c.compressed;
      if (e.kind == FatbinKind::sass) c.sass.push_back(e.cuda_arch());
      if (e.kind == FatbinKind::ptx) c.ptx.push_back(e.cuda_arch());
      if (e.kind == FatbinKind::other) continue;
      std::string rel = entry_release(elf.section_bytes(s), e);
      if (rel.empty()) ++c.unversioned;
      else if (std::find(c.releases.begin(), c.releases.end(), rel) == c.releases.end()) c.releases.push_back(rel);
    }
  }
  sort_unique(c.sass);
  sort_unique(c.ptx);
  std::sort(c.releases.begin(), c.releases.end());
  return c;
}

}  // namespace ts::verify
