// cuda.toml: [[release]] toolkits (arches, host compilers, drivers), [[family]] minor-version floors and
// [[arch]] first toolkits of arches older than the [[release]] list.
#include "kb/readers.h"
#include "kb/toml_reader.h"

namespace ts::kb::detail {

void read_cuda(const toml::table& root, FileCtx& c, Kb& out) {
  const std::vector<std::string_view> allowed{"release", "family", "arch"};
  read_entries(root, c, allowed, {"release", "cuda release", "version"}, out.cuda,
               [&](EntryReader& r, CudaRelease& x) {
    x.version = r.parsed_version("version", true, "\"12.8\"", 2).value_or(Version{});
    x.arches = r.arches("arches", true);
    x.gcc_max = r.parsed_version("gcc_max", true, "\"14\"", 1).value_or(Version{});
    x.clang_max = r.parsed_version("clang_max", true, "\"19\"", 1).value_or(Version{});
    x.msvc = r.text("msvc", false, "\"VS2017-VS2022\"");
    x.driver_min_linux = r.parsed_version("driver_min_linux", true, "\"570.26\"").value_or(Version{});
    x.driver_min_windows = r.parsed_version("driver_min_windows", false, "\"570.65\"");
    r.common(x);
  }, release_key<CudaRelease>);
  read_entries(root, c, allowed, {"family", "cuda family", "major"}, out.cuda_families,
               [&](EntryReader& r, CudaFamily& f) {
    f.major = r.version("major", true, "\"12\"", 1);
    f.driver_min_linux = r.parsed_version("driver_min_linux", true, "\"525.60.13\"").value_or(Version{});
    f.driver_min_windows = r.parsed_version("driver_min_windows", false, "\"527.41\"");
    r.common(f);
  }, &CudaFamily::major);
  read_entries(root, c, allowed, {"arch", "cuda arch", "arch"}, out.arch_support,
               [&](EntryReader& r, ArchSupport& a) {
    a.arch = r.arch("arch", true).value_or(CudaArch{});  // a bad arch is reported: the file is not kept
    a.first_cuda = r.parsed_version("first_cuda", true, "\"10.0\"", 2).value_or(Version{});
    r.common(a);
  }, [](const ArchSupport& a) { return a.arch.str(); });
}

}  // namespace ts::kb::detail
