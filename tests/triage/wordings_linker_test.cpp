// The linker's own verdicts on its inputs (GNU ld's bfd messages, gold's and lld's), each with near misses:
// object code without -fPIC in a shared object, an input of another CPU architecture, and relocations newer
// than the linker. Lines from batch 15's development threads and from public threads, as they print them.
#include "test_util.h"

namespace ts::triage::testing {
namespace {

class LinkerWording : public ::testing::TestWithParam<Wording> {};

TEST_P(LinkerWording, NamesTheRootCause) { EXPECT_TRUE(expect_root_cause(GetParam()).failed()) << GetParam().line; }

const Wording kLinkerWordings[] = {
    // A static library without -fPIC linked into a shared object (pytorch/pytorch#8195's libclog.a), a CUDA
    // device-link object (clab/dynet#74), a static libpython (NVIDIA/cudf#4375), R_X86_64_32S (google/re2#172).
    {"/usr/bin/ld: ../lib/libclog.a(clog.c.o): relocation R_X86_64_32 against `.rodata.str1.1' can not be used when "
     "making a shared object; recompile with -fPIC",
     "LINK_STATIC_LIB_NOT_PIC"},
    {"/usr/bin/ld: CMakeFiles/cnncuda_shared.dir/./cnncuda_shared_intermediate_link.o: relocation R_X86_64_32S against "
     "`__nv_module_id' can not be used when making a shared object; recompile with -fPIC",
     "LINK_STATIC_LIB_NOT_PIC"},
    {"/usr/bin/ld: /usr/local/lib/libpython3.8.a(getpath.o): relocation R_X86_64_PC32 against symbol "
     "`stderr@@GLIBC_2.2.5' can not be used when making a shared object; recompile with -fPIC",
     "LINK_STATIC_LIB_NOT_PIC"},
    // Into a position-independent executable (colmap/colmap#186's libmvs_cuda.a), and ld's newer "cannot".
    {"/usr/bin/ld: ../mvs/libmvs_cuda.a(mvs_cuda_generated_gpu_mat_prng.cu.o): relocation R_X86_64_32 against `.bss' "
     "can not be used when making a PIE object; recompile with -fPIE",
     "LINK_STATIC_LIB_NOT_PIC"},
    {"/usr/bin/ld: libfoo.a(foo.o): relocation R_AARCH64_ADR_PREL_PG_HI21 against symbol `bar' which may bind "
     "externally can not be used when making a shared object; recompile with -fPIC",
     "LINK_STATIC_LIB_NOT_PIC"},
    // The line a terminal cut at its width (pytorch/tensorpipe's static build: "...when makin" / "g a shared object").
    {"/usr/bin/ld: lib/libtensorpipe.a(error.cc.o): relocation R_X86_64_PC32 against symbol "
     "`_ZTVSt9basic_iosIcSt11char_traitsIcEE@@GLIBCXX_3.4' can not be used when makin\n"
     "g a shared object; recompile with -fPIC\n/usr/bin/ld: final link failed: bad value",
     "LINK_STATIC_LIB_NOT_PIC"},
    // lld's and gold's wordings.
    {"ld.lld: error: relocation R_X86_64_32 cannot be used against local symbol; recompile with -fPIC",
     "LINK_STATIC_LIB_NOT_PIC"},
    {"/usr/bin/ld.gold: error: libz.a(deflate.o): requires dynamic R_X86_64_32 reloc against 'z_errmsg' which may "
     "overflow at runtime; recompile with -fPIC",
     "LINK_STATIC_LIB_NOT_PIC"},

    // An input of another architecture: an x86-64 libtorch on a Jetson (pytorch/vision#4476), a host-built archive
    // in an aarch64 cross build (huawei-noah/bolt#6, with the cross linker's note), i386 against x86-64.
    {"/home/user/pytorch/torch/lib/libtorch.so: error adding symbols: File in wrong format", "LINK_LIBRARY_WRONG_ARCH"},
    {"/usr/bin/ld: /home/hebi/lib/linux_x86_64/libhebi.so: error adding symbols: file in wrong format",
     "LINK_LIBRARY_WRONG_ARCH"},
    {"aarch64-linux-gnu/bin/ld: ../../../image/dependency/png/lib/libpng.a(png.o): Relocations in generic ELF (EM: 62)",
     "LINK_LIBRARY_WRONG_ARCH"},
    {"/usr/bin/ld: i386:x86-64 architecture of input file `obj/main.o' is incompatible with i386 output",
     "LINK_LIBRARY_WRONG_ARCH"},

    // Relocations newer than the linker: conda's libmagma.a under CentOS 7's ld (pytorch/pytorch#28745, #26100).
    {"/usr/bin/ld: /opt/conda/lib/libmagma.a(error.cpp.o): unrecognized relocation (0x2a) in section `.text'",
     "LINKER_OLDER_THAN_ASSEMBLER"},
    {"/usr/lib64/gcc/x86_64-suse-linux/4.8/../../../../x86_64-suse-linux/bin/ld: crti.o: unrecognized relocation (0x2a) "
     "in section `.init'\n/usr/bin/ld: final link failed: Bad value",
     "LINKER_OLDER_THAN_ASSEMBLER"},
};

INSTANTIATE_TEST_SUITE_P(All, LinkerWording, ::testing::ValuesIn(kLinkerWordings));

TEST(LinkerWording, NearMisses) {
  // ld's warning about text relocations, and an overflow of a relocation that fits no 32-bit field: no -fPIC cause.
  expect_not_named({"/usr/bin/ld: lib/libtensorpipe.a(listener_impl.cc.o): warning: relocation against `_ZTV3foo' in "
                    "read-only section `.text'",
                    "LINK_STATIC_LIB_NOT_PIC"});
  expect_not_named({"foo.o:(.text+0x6c): relocation truncated to fit: R_X86_64_PC32 against symbol `bar' defined in .bss "
                    "section in libc10.so",
                    "LINK_STATIC_LIB_NOT_PIC"});
  expect_not_named({"-- Performing Test COMPILER_SUPPORTS_FPIC - Success: recompile with -fPIC is not needed",
                    "LINK_STATIC_LIB_NOT_PIC"});
  // Not an object at all (a Git LFS pointer, a text file): another format error, not another architecture.
  expect_not_named({"lib/libfastvideo_sdk.so: file not recognized: File format not recognized", "LINK_LIBRARY_WRONG_ARCH"});
  // ld passing over a library of another architecture while it searches -l: a warning, the link goes on.
  expect_not_named({"/usr/bin/ld: skipping incompatible /usr/lib/libcuda.so when searching for -lcuda", "LINK_LIBRARY_WRONG_ARCH"});
  // A relocation type the linker names and rejects for another reason, and readelf's listing.
  expect_not_named({"/usr/bin/ld: foo.o: unsupported relocation type 0x2a against symbol bar", "LINKER_OLDER_THAN_ASSEMBLER"});
  expect_not_named({"Relocation section '.rela.text' at offset 0x2a8 contains 3 entries:", "LINKER_OLDER_THAN_ASSEMBLER"});
}

// Each linker verdict is a failure line of the linker's grammar: a log whose excerpt quotes only ld's own lines
// (no "collect2: error: ld returned 1") is a failure, not "no error found".
TEST(LinkerWording, TheLinkersVerdictIsAFailureLine) {
  for (const char* line : {"/usr/bin/ld: final link failed: Bad value",
                           "/usr/bin/ld: final link failed: Nonrepresentable section on output",
                           "../lib/libclog.a: error adding symbols: Bad value"}) {
    auto g = read_failure_line(line);
    ASSERT_TRUE(g.has_value()) << line;
    EXPECT_EQ(std::string(g->grammar->tool), "linker") << line;
  }
  EXPECT_FALSE(read_failure_line("-- Linking CXX shared library: final link step queued").has_value());
}

}  // namespace
}  // namespace ts::triage::testing
