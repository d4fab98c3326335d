// The Kb lookups: by PCI id, SoC, family name, chip codename, CUDA and torch version.
#include <algorithm>
#include <cctype>

#include "core/cuda_arch.h"
#include "core/version.h"
#include "core/version_range.h"
#include "kb/kb.h"

namespace ts::kb {

namespace {

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// The release (a toolkit, a torch) whose version has the same major.minor ("11.8.89" matches "11.8").
template <class Release>
const Release* by_minor(const std::vector<Release>& releases, const Version& v) {
  for (const auto& r : releases)
    if (r.version.major() == v.major() && r.version.minor() == v.minor()) return &r;
  return nullptr;
}

// Text from outside (a requirement, a probe's string) parsed once; text that does not parse never matches.
template <class Release>
const Release* by_minor(const std::vector<Release>& releases, std::string_view version) {
  auto v = Version::parse(trim(version));
  return v ? by_minor(releases, *v) : nullptr;
}

}  // namespace

bool Entry::is_recalled(std::string_view f) const {
  return status == "recalled" || std::find(recalled.begin(), recalled.end(), f) != recalled.end();
}

CudaArch TegraSoc::arch_for_cuda(const Version& cuda_version) const {
  for (const auto& x : arch_by_cuda)
    if (x.cuda.contains(cuda_version)) return x.arch;
  return arch;
}

std::string KbError::str() const {
  if (origin.line <= 0) return origin.file + ": " + message;
  return origin.file + ":" + std::to_string(origin.line) + ": " + message;
}

const Gpu* Kb::find_gpu(std::string_view pci_id) const {
  pci_id = trim(pci_id);
  if (pci_id.size() > 2 && (pci_id.substr(0, 2) == "0x" || pci_id.substr(0, 2) == "0X")) pci_id.remove_prefix(2);
  for (const auto& g : gpus)
    if (iequals(g.pci_id, pci_id)) return &g;
  return nullptr;
}

const TegraSoc* Kb::find_tegra(std::string_view compatible) const {
  compatible = trim(compatible);
  if (auto comma = compatible.find(','); comma != std::string_view::npos) compatible.remove_prefix(comma + 1);
  for (const auto& s : tegra)
    if (iequals(s.compatible, compatible)) return &s;
  return nullptr;
}

const ArchFamily* Kb::find_family(std::string_view name) const {
  name = trim(name);
  for (const auto& f : families) {
    if (iequals(f.name, name)) return &f;
    for (const auto& a : f.aliases)
      if (iequals(a, name)) return &f;
  }
  return nullptr;
}

const ChipArch* Kb::chip_arch(std::string_view chip) const {
  chip = trim(chip);
  const ChipArch* best = nullptr;
  for (const auto& f : families)
    for (const auto& c : f.chips)
      if (chip.size() >= c.prefix.size() && iequals(chip.substr(0, c.prefix.size()), c.prefix) &&
          (!best || c.prefix.size() > best->prefix.size()))
        best = &c;
  return best;
}

const ArchFamily* Kb::family_of_chip(std::string_view chip) const {
  const ChipArch* c = chip_arch(chip);
  if (!c) return nullptr;
  for (const auto& f : families)
    for (const auto& x : f.chips)
      if (&x == c) return &f;
  return nullptr;
}

const CudaRelease* Kb::find_cuda(std::string_view version) const { return by_minor(cuda, version); }
const CudaRelease* Kb::find_cuda(const Version& version) const { return by_minor(cuda, version); }

const CudaFamily* Kb::find_cuda_family(std::string_view version) const {
  auto v = Version::parse(trim(version));
  return v ? find_cuda_family(*v) : nullptr;
}

const CudaFamily* Kb::find_cuda_family(const Version& v) const {
  for (const auto& f : cuda_families) {
    auto m = Version::parse(f.major);
    if (m && m->major() == v.major()) return &f;
  }
  return nullptr;
}

bool TorchRelease::official_cuda(const std::optional<Version>& version) const {
  return version && std::find(cuda.begin(), cuda.end(), version->truncated(2)) != cuda.end();
}

std::vector<std::string> spelled(const std::vector<CudaArch>& arches) {
  std::vector<std::string> out;
  for (const auto& a : arches) out.push_back(a.str());
  return out;
}

std::vector<std::string> spelled(const std::vector<Version>& versions) {
  std::vector<std::string> out;
  for (const auto& v : versions) out.push_back(v.original());
  return out;
}

const TorchRelease* Kb::find_torch(std::string_view version) const { return by_minor(torch, version); }
const TorchRelease* Kb::find_torch(const Version& version) const { return by_minor(torch, version); }

const ArchSupport* Kb::first_support(const CudaArch& arch) const {
  for (const auto& a : arch_support)
    if (a.arch.same_capability(arch)) return &a;
  return nullptr;
}

const JetpackRelease* Kb::find_jetpack(std::string_view l4t) const {
  auto want = Version::parse(trim(l4t));
  if (!want) return nullptr;
  auto padded = [](const Version& v) {
    auto r = v.release();
    while (r.size() < 3) r.push_back(0);
    return r;
  };
  for (const auto& j : jetpack)
    if (auto v = Version::parse(j.l4t); v && padded(*v) == padded(*want)) return &j;
  return nullptr;
}

std::string TorchRelease::experimental_python(const FactVersion& version, std::string_view abi_tag) const {
  const auto& v = version.parsed();
  if (!v) return "";
  bool free_threaded = !abi_tag.empty() && abi_tag.back() == 't';
  std::string mm = std::to_string(v->major()) + "." + std::to_string(v->minor()) + (free_threaded ? "t" : "");
  for (const auto& e : python_experimental)
    if (e == mm) return e;
  return "";
}

}  // namespace ts::kb
