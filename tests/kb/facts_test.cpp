// The data files agree with each other: one test per file, checking its facts against the others.
#include <algorithm>
#include <set>

#include <gtest/gtest.h>

#include "core/cuda_arch.h"
#include "core/version.h"
#include "core/version_range.h"
#include "kb/check.h"
#include "kb/kb.h"

namespace ts::kb {
namespace {

const Kb& kb() {
  static const Kb k = [] {
    std::vector<KbError> errors;
    return load_embedded(errors);
  }();
  return k;
}

bool in_some_toolkit(const CudaArch& arch) {
  CudaArch a = arch.sass_only();
  for (const auto& r : kb().cuda)
    if (std::find(r.arches.begin(), r.arches.end(), a) != r.arches.end()) return true;
  return false;
}

TEST(KbFacts, CrossCheckIsClean) {
  for (const auto& e : cross_check(kb())) ADD_FAILURE() << e.str();
}

TEST(KbFacts, GpusEveryArchInSomeToolkitAndFamily) {
  std::set<std::string> ids;
  for (const auto& g : kb().gpus) {
    EXPECT_TRUE(in_some_toolkit(g.arch)) << g.pci_id << " " << g.arch.str();
    const ArchFamily* f = kb().find_family(g.family);
    ASSERT_NE(f, nullptr) << g.pci_id;
    EXPECT_NE(std::find(f->arches.begin(), f->arches.end(), g.arch), f->arches.end()) << g.pci_id;
    EXPECT_TRUE(ids.insert(g.pci_id).second) << "duplicate " << g.pci_id;
    EXPECT_FALSE(g.source.empty()) << g.pci_id;
    // A chip that the family table knows must give the same capability as the entry.
    if (const ChipArch* c = kb().chip_arch(g.chip); c && !g.jetson) { EXPECT_EQ(c->arch, g.arch) << g.pci_id << " " << g.chip; }
  }
}

TEST(KbFacts, TegraArchesExistInTheirToolkits) {
  for (const auto& s : kb().tegra) {
    EXPECT_TRUE(in_some_toolkit(s.arch)) << s.compatible;
    for (const auto& x : s.arch_by_cuda) {
      EXPECT_FALSE(x.cuda.is_any()) << s.compatible;
      // Every toolkit in the range must have the arch it names.
      for (const auto& r : kb().cuda)
        if (x.cuda.contains(r.version)) {
          EXPECT_NE(std::find(r.arches.begin(), r.arches.end(), x.arch), r.arches.end())
              << s.compatible << " CUDA " << r.version.original() << " lacks " << x.arch.str();
        }
    }
  }
}

TEST(KbFacts, FamilyArchesAppearInSomeToolkit) {
  for (const auto& f : kb().families) {
    for (const auto& a : f.arches) EXPECT_TRUE(in_some_toolkit(a)) << f.name << " " << a.str();
    for (const auto& a : f.torch_arches) EXPECT_TRUE(in_some_toolkit(a)) << f.name << " " << a.str();
  }
  for (const char* name : {"Maxwell", "Pascal", "Volta", "Turing", "Ampere", "Ada", "Hopper", "Blackwell"})
    EXPECT_NE(kb().find_family(name), nullptr) << name;
}

TEST(KbFacts, CudaReleasesAreOrderedAndGrow) {
  for (std::size_t i = 1; i < kb().cuda.size(); ++i) {
    const Version &a = kb().cuda[i - 1].version, &b = kb().cuda[i].version;
    EXPECT_LT(a, b) << kb().cuda[i].version.original();
    // A newer toolkit never accepts an older host compiler ceiling.
    EXPECT_LE(kb().cuda[i - 1].gcc_max, kb().cuda[i].gcc_max);
    EXPECT_LE(kb().cuda[i - 1].driver_min_linux, kb().cuda[i].driver_min_linux);
  }
  for (const auto& r : kb().cuda) {
    const CudaFamily* f = kb().find_cuda_family(r.version);
    if (r.version.major() >= 11) {
      ASSERT_NE(f, nullptr) << r.version.original();
      // x.0 may ship before the floor was set (11.0 GA: 450.51.05 < 450.80.02); later minors may not.
      if (r.version.minor() > 0) { EXPECT_LE(f->driver_min_linux, r.driver_min_linux) << r.version.original(); }
    }
  }
}

TEST(KbFacts, TorchCudaVersionsExistAndArchesAreKnown) {
  for (const auto& t : kb().torch) {
    for (const auto& c : t.cuda) EXPECT_NE(kb().find_cuda(c), nullptr) << t.version.original() << " CUDA " << c.original();
    for (const auto& a : t.arch_names) EXPECT_TRUE(in_some_toolkit(a)) << t.version.original() << " " << a.str();
    // Parsed when the KB loaded: a range with bounds (the loader refuses one that allows every version).
    EXPECT_FALSE(t.python.is_any()) << t.version.original();
    EXPECT_FALSE(t.numpy.is_any()) << t.version.original();
    // CMake 4 removed compatibility with cmake_minimum_required < 3.5: every torch < 2.7 has the ceiling.
    bool before_27 = t.version < *Version::parse("2.7");
    EXPECT_EQ(t.cmake_max_exclusive ? t.cmake_max_exclusive->original() : "", before_27 ? "4" : "") << t.version.original();
  }
  for (const char* v : {"1.8", "1.13", "2.0", "2.4", "2.7", "2.11"}) EXPECT_NE(kb().find_torch(v), nullptr) << v;
}

}  // namespace
}  // namespace ts::kb
