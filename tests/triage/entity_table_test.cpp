// Loading the entity tables (data/kb/headers.toml, modules.toml, triton.toml, ptx.toml): the built-in ones
// load clean and name existing signatures; bad entries are refused with file:line; lookups.
#include "test_util.h"
#include "kb/citation.h"
#include "triage/entity_table.h"

namespace ts::triage::testing {
namespace {

TEST(EntityTable, BuiltInTablesLoadCleanAndNameExistingSignatures) {
  std::vector<std::string> errors;
  EntityTables t = load_entity_tables({}, errors);
  EXPECT_TRUE(errors.empty()) << errors.front();
  EXPECT_GE(t.headers.size(), 30u);
  EXPECT_GE(t.modules.size(), 5u);
  EXPECT_GE(t.triton_arches.size(), 3u);
  EXPECT_FALSE(t.triton_min_capability.empty());
  ASSERT_NE(t.find_triton_fp8("fp8e4nv"), nullptr);
  EXPECT_EQ(t.find_triton_fp8("fp8e4nv")->capability, "8.9");
  EXPECT_EQ(t.find_triton_fp8("fp8e4"), nullptr);  // exactly, not a prefix
  EXPECT_GE(t.ptx_isas.size(), 20u);
  EXPECT_GE(t.glibcxx.size(), 15u);
  std::vector<std::string> ids;
  for (const auto& s : engine().set().signatures) ids.push_back(s.id);
  EXPECT_TRUE(check_entity_signatures(t, ids).empty());
  // Every source is one a user can open (kb check's rule for every KB file).
  EXPECT_GE(t.programs.size(), 5u);
  EXPECT_GE(t.dependencies.size(), 5u);
  for (const char* f : {"headers.toml", "modules.toml", "triton.toml", "ptx.toml", "libstdcxx.toml", "programs.toml", "dependencies.toml"}) {
    std::vector<kb::KbError> bad;
    kb::check_citations(f, read_file(std::filesystem::path(TS_SOURCE_DIR) / "data/kb" / f), bad);
    for (const auto& b : bad) ADD_FAILURE() << b.str();
  }
}

TEST(EntityTable, BadEntriesAreRefusedWithTheirLine) {
  EntityTables t;
  auto e = load_entity_text("headers.toml", "h.toml",
                            "[[header]]\nheader = \"x.h\"\nprovider = \"X\"\nkind = \"system\"\nsource = \"https://example.org/x\"\n"
                            "\n[[header]]\nheader = \"y.h\"\nprovider = \"Y\"\nkind = \"planet\"\ndebian = \"y-dev\"\nsource = \"https://example.org/y\"\n"
                            "\n[[header]]\nheader = \"z.h\"\nprovider = \"Z\"\nkind = \"system\"\ndebian = \"z-dev\"\nsorce = \"typo\"\n",
                            t);
  ASSERT_EQ(e.size(), 4u);
  EXPECT_NE(e[0].find("h.toml:1: header 'x.h': name a package"), std::string::npos) << e[0];
  EXPECT_NE(e[1].find("h.toml:7: unknown kind 'planet'"), std::string::npos) << e[1];
  EXPECT_NE(e[2].find("missing 'source'"), std::string::npos) << e[2];
  EXPECT_NE(e[3].find("unknown key 'sorce'"), std::string::npos) << e[3];
  EXPECT_TRUE(t.headers.empty());
  auto m = load_entity_text("modules.toml", "m.toml", "[[module]]\nname = \"torch.utils\"\npypi = \"torch\"\nbuild_signature = \"X\"\nsource = \"s\"\n", t);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_NE(m[0].find("name a top-level module"), std::string::npos);
  auto r = load_entity_text("modules.toml", "m.toml",
                            "[[removed]]\nmodule = \"huggingface_hub.file_download\"\nname = \"cached_download\"\nremoved_in = \"0.26.0\"\nsource = \"s\"\n"
                            "\n[[removed]]\nmodule = \"numpy\"\nname = \"float_\"\nsource = \"s\"\n",
                            t);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_NE(r[0].find("m.toml:1: name a top-level module"), std::string::npos) << r[0];
  EXPECT_NE(r[1].find("missing 'removed_in'"), std::string::npos) << r[1];
  EXPECT_TRUE(t.removed_names.empty());
  auto s = load_entity_text("triton.toml", "t.toml", "[[arch]]\narch = \"8.9\"\nfirst_triton = \"2.1.0\"\nsource = \"s\"\n", t);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_NE(s[0].find("arch must be sm_NN"), std::string::npos);
  EXPECT_FALSE(load_entity_text("triton.toml", "t.toml", "[[arch]\n", t).empty());  // a syntax error, not a crash
  auto p = load_entity_text("ptx.toml", "p.toml",
                            "[[isa]]\nversion = \"8.4\"\ncuda = \"12\"\nsource = \"s\"\n"
                            "\n[[isa]]\nversion = \"8.5\"\nsource = \"s\"\n",
                            t);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_NE(p[0].find("p.toml:1: '12' must be MAJOR.MINOR"), std::string::npos) << p[0];
  EXPECT_NE(p[1].find("missing 'cuda'"), std::string::npos) << p[1];
  EXPECT_TRUE(t.ptx_isas.empty());
}

// Every table goes through the one entry loader: a field of the wrong type (at its line), each required
// field missing (at the entry's line), then each unknown key (at its line), and the entry is left out.
// A top-level key no file's table names is reported in any file; another file's table is not read here.
TEST(EntityTable, EveryTableReportsItsFieldsTheSameWay) {
  const std::pair<const char*, const char*> tables[] = {
      {"headers.toml", "header"},   {"modules.toml", "module"},           {"modules.toml", "removed"},
      {"triton.toml", "arch"},      {"triton.toml", "fp8"},               {"ptx.toml", "isa"},
      {"libstdcxx.toml", "glibcxx"},
      {"programs.toml", "program"}, {"dependencies.toml", "dependency"}, {"dependencies.toml", "distribution"},
      {"stdlib.toml", "member"},    {"cuda_api.toml", "entry_point"}, {"programs.toml", "prefix"},
      {"dependencies.toml", "library"}};
  for (const auto& [file, key] : tables) {
    EntityTables t;
    auto e = load_entity_text(file, "f.toml", std::string("[[") + key + "]]\nsource = 3\nbogus = \"x\"\n", t);
    ASSERT_GE(e.size(), 3u) << file << " " << key;
    EXPECT_EQ(e[0], "f.toml:2: 'source' must be a string") << key;
    std::size_t last_missing = 0, unknown = 0;
    for (std::size_t i = 0; i < e.size(); ++i) {
      if (e[i].find("f.toml:1: missing '") == 0) last_missing = i;
      if (e[i] == "f.toml:3: unknown key 'bogus'") unknown = i;
    }
    EXPECT_GT(last_missing, 0u) << key;
    EXPECT_GT(unknown, last_missing) << key;
    EXPECT_TRUE(t.headers.empty() && t.modules.empty() && t.removed_names.empty() && t.triton_arches.empty() &&
                t.triton_fp8.empty() && t.ptx_isas.empty() && t.glibcxx.empty() && t.programs.empty() && t.dependencies.empty() &&
                t.distributions.empty() && t.std_members.empty() && t.target_vendors.empty())
        << key;
  }
  EntityTables t;
  EXPECT_EQ(load_entity_text("ptx.toml", "f.toml", "[[nope]]\nx = \"y\"\n", t),
            std::vector<std::string>{"f.toml:1: unknown table 'nope'"});
  EXPECT_TRUE(load_entity_text("ptx.toml", "f.toml", "[[arch]]\narch = \"sm_90\"\n", t).empty());  // triton.toml's
  EXPECT_TRUE(t.triton_arches.empty());
}

TEST(EntityTable, LookupsTakeTheLongestEntryAndTheBaseArch) {
  EntityTables t;
  ASSERT_TRUE(load_entity_text("headers.toml", "h.toml",
                               "[[header]]\nheader = \"google/protobuf/\"\nprovider = \"P\"\nkind = \"system\"\ndebian = \"p\"\nsource = \"s\"\n"
                               "[[header]]\nheader = \"glm/\"\nprovider = \"G\"\nkind = \"submodule\"\nsource = \"s\"\n"
                               "[[header]]\nheader = \"omp.h\"\nprovider = \"O\"\nkind = \"system\"\ndebian = \"o\"\nsource = \"s\"\n",
                               t).empty());
  EXPECT_EQ(t.find_header("google/protobuf/port_def.inc")->header, "google/protobuf/");
  EXPECT_EQ(t.find_header("third_party/glm/glm/glm.hpp")->header, "glm/");
  EXPECT_EQ(t.find_header("omp.h")->header, "omp.h");
  EXPECT_EQ(t.find_header("libomp.h"), nullptr);       // a longer name ending the same way
  EXPECT_EQ(t.find_header("google/dense_hash_map"), nullptr);
  ASSERT_TRUE(load_entity_text("triton.toml", "t.toml", "[[arch]]\narch = \"sm_12\"\nfirst_triton = \"1\"\nsource = \"s\"\n"
                                                        "[[arch]]\narch = \"sm_120\"\nfirst_triton = \"3.3.0\"\nsource = \"s\"\n", t).empty());
  EXPECT_EQ(t.find_triton_arch("sm_120a")->first_triton, "3.3.0");
  EXPECT_EQ(t.find_triton_arch("sm_121"), nullptr);
  ASSERT_TRUE(load_entity_text("modules.toml", "m.toml", "[[module]]\nname = \"torch\"\npypi = \"torch\"\nbuild_signature = \"X\"\nsource = \"s\"\n", t).empty());
  EXPECT_EQ(t.find_module("torch.utils.cpp_extension")->name, "torch");
  EXPECT_EQ(t.find_module("torchvision"), nullptr);
  ASSERT_TRUE(load_entity_text("modules.toml", "m.toml",
                               "[[removed]]\nmodule = \"huggingface_hub\"\nname = \"cached_download\"\nremoved_in = \"0.26.0\"\nsource = \"s\"\n", t)
                  .empty());
  EXPECT_EQ(t.find_removed("huggingface_hub.file_download", "cached_download")->removed_in, "0.26.0");
  EXPECT_EQ(t.find_removed("huggingface_hub", "hf_hub_download"), nullptr);
  ASSERT_TRUE(load_entity_text("ptx.toml", "p.toml", "[[isa]]\nversion = \"8.5\"\ncuda = \"12.5\"\nsource = \"s\"\n", t).empty());
  EXPECT_EQ(t.find_ptx_isa("8.5")->cuda, "12.5");
  EXPECT_EQ(t.find_ptx_isa("8"), nullptr);  // exact versions only
}

TEST(EntityTable, AnOverlayEntryReplacesTheBuiltInOne) {
  EntityTables t;
  load_entity_text("headers.toml", "a.toml", "[[header]]\nheader = \"x.h\"\nprovider = \"A\"\nkind = \"system\"\ndebian = \"a\"\nsource = \"s\"\n", t);
  load_entity_text("headers.toml", "b.toml", "[[header]]\nheader = \"x.h\"\nprovider = \"B\"\nkind = \"system\"\ndebian = \"b\"\nsource = \"s\"\n", t);
  ASSERT_EQ(t.headers.size(), 1u);
  EXPECT_EQ(t.headers[0].provider, "B");
}

TEST(EntityTable, KbCheckValidatesEachFileByItsTable) {
  std::vector<kb::KbError> errors;
  kHeaderTable.spec.validate("over/headers.toml", "[[header]]\nheader = \"x.h\"\n", errors);
  ASSERT_FALSE(errors.empty());
  EXPECT_EQ(errors[0].origin.file, "over/headers.toml");
  EXPECT_EQ(errors[0].origin.line, 1);
  EXPECT_NE(errors[0].str().find("missing 'provider'"), std::string::npos) << errors[0].str();
  errors.clear();
  kTritonTable.spec.validate("triton.toml", read_file(std::filesystem::path(TS_SOURCE_DIR) / "data/kb/triton.toml"), errors);
  kModuleTable.spec.validate("modules.toml", read_file(std::filesystem::path(TS_SOURCE_DIR) / "data/kb/modules.toml"), errors);
  kPtxTable.spec.validate("ptx.toml", read_file(std::filesystem::path(TS_SOURCE_DIR) / "data/kb/ptx.toml"), errors);
  kLibstdcxxTable.spec.validate("libstdcxx.toml", read_file(std::filesystem::path(TS_SOURCE_DIR) / "data/kb/libstdcxx.toml"), errors);
  kProgramTable.spec.validate("programs.toml", read_file(std::filesystem::path(TS_SOURCE_DIR) / "data/kb/programs.toml"), errors);
  kDependencyTable.spec.validate("dependencies.toml", read_file(std::filesystem::path(TS_SOURCE_DIR) / "data/kb/dependencies.toml"), errors);
  kStdlibTable.spec.validate("stdlib.toml", read_file(std::filesystem::path(TS_SOURCE_DIR) / "data/kb/stdlib.toml"), errors);
  kCudaApiTable.spec.validate("cuda_api.toml", read_file(std::filesystem::path(TS_SOURCE_DIR) / "data/kb/cuda_api.toml"), errors);
  EXPECT_TRUE(errors.empty());
  // cuda_api.toml: a release that is not MAJOR.MINOR, names that are not RE2, a port that is no port id.
  EntityTables t;
  auto bad = load_entity_text("cuda_api.toml", "c.toml",
                              "[[entry_point]]\nlibrary = \"cuSPARSE\"\nnames = \"cusparse[SD\"\nremoved_in = \"12\"\n"
                              "use = \"x\"\nport = \"gthr\"\nsource = \"s\"\n", t);
  ASSERT_EQ(bad.size(), 3u);
  EXPECT_NE(bad[0].find("removed_in '12' must be MAJOR.MINOR"), std::string::npos) << bad[0];
  EXPECT_NE(bad[1].find("names is not RE2"), std::string::npos) << bad[1];
  EXPECT_NE(bad[2].find("port names a port id"), std::string::npos) << bad[2];
  EXPECT_TRUE(t.removed_entry_points.empty());
}

// stdlib.toml: a name of namespace std and the header that declares it, each from cppreference,
// looked up exactly; a header written with its <> or a name that is not one identifier is refused.
TEST(EntityTable, StdMembersNameTheirHeader) {
  std::vector<std::string> errors;
  EntityTables built = load_entity_tables({}, errors);
  EXPECT_TRUE(errors.empty());
  ASSERT_NE(built.find_std_member("cout"), nullptr);
  EXPECT_EQ(built.find_std_member("cout")->header, "iostream");
  EXPECT_EQ(built.find_std_member("uintptr_t")->header, "cstdint");
  EXPECT_EQ(built.find_std_member("memcpy")->header, "cstring");
  EXPECT_EQ(built.find_std_member("numeric_limits")->header, "limits");
  EXPECT_EQ(built.find_std_member("std::cout"), nullptr);
  EXPECT_EQ(built.find_std_member("Cout"), nullptr);
  // Thrust's and CUB's names: by namespace and name, the header's relative path, for nvcc only.
  ASSERT_NE(built.find_member("thrust", "device"), nullptr);
  EXPECT_EQ(built.find_member("thrust", "device")->header, "thrust/execution_policy.h");
  EXPECT_EQ(built.find_member("thrust", "device")->compiler, "nvcc");
  EXPECT_EQ(built.find_member("thrust::cuda", "par")->header, "thrust/system/cuda/execution_policy.h");
  EXPECT_EQ(built.find_member("cub", "DeviceRadixSort")->header, "cub/device/device_radix_sort.cuh");
  EXPECT_EQ(built.find_member("std", "device"), nullptr);  // thrust::device's row is not std's
  EXPECT_EQ(built.find_member("std", "sort")->header, "algorithm");  // nor is thrust::sort's
  EXPECT_EQ(built.find_member("thrust_utils", "device"), nullptr);
  EXPECT_TRUE(built.knows_namespace("thrust"));
  EXPECT_FALSE(built.knows_namespace("thrust_utils"));
  EXPECT_EQ(built.find_std_member("cout")->compiler, "");
  for (const auto& m : built.std_members) {
    if (m.ns.empty())
      EXPECT_EQ(m.source.rfind("https://en.cppreference.com/w/cpp/", 0), 0u) << m.name;
    else  // CCCL's header in its repository at the release CUDA 13.0 ships
      EXPECT_EQ(m.source, "NVIDIA/cccl@v3.0.1:" + m.ns.substr(0, m.ns.find("::")) + "/" + m.header) << m.name;
  }
  EntityTables t;
  auto bad = load_entity_text("stdlib.toml", "s.toml", "[[member]]\nname = \"cout\"\nheader = \"<iostream>\"\nsource = \"s\"\n", t);
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_NE(bad[0].find("s.toml:1: header is a header's name without <>"), std::string::npos) << bad[0];
  for (const char* wrong : {"namespace = \"thrust::\"\nname = \"device\"\nheader = \"thrust/execution_policy.h\"\n",
                            "namespace = \"thrust\"\nname = \"device\"\nheader = \"../thrust/execution_policy.h\"\n",
                            "namespace = \"thrust\"\nname = \"device\"\nheader = \"thrust/execution_policy.h\"\ncompiler = \"g++\"\n"}) {
    EntityTables w;
    EXPECT_EQ(load_entity_text("stdlib.toml", "s.toml", std::string("[[member]]\n") + wrong + "source = \"s\"\n", w).size(), 1u) << wrong;
    EXPECT_TRUE(w.std_members.empty()) << wrong;
  }
  bad = load_entity_text("stdlib.toml", "s.toml", "[[member]]\nname = \"std::cout\"\nheader = \"iostream\"\nsource = \"s\"\n", t);
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_TRUE(t.std_members.empty());
}

// libstdcxx.toml: a GLIBCXX version and the first GCC whose libstdc++ exports it, looked up exactly;
// a version written with its GLIBCXX_ prefix, or without its GCC, is refused with its line.
TEST(EntityTable, GlibcxxVersionsNameTheirFirstGcc) {
  std::vector<std::string> errors;
  EntityTables built = load_entity_tables({}, errors);
  ASSERT_NE(built.find_glibcxx("3.4.32"), nullptr);
  EXPECT_EQ(built.find_glibcxx("3.4.32")->gcc, "13.2.0");
  EXPECT_EQ(built.find_glibcxx("3.4.30")->gcc, "12.1.0");
  EXPECT_EQ(built.find_glibcxx("3.4"), nullptr);
  EntityTables t;
  auto e = load_entity_text("libstdcxx.toml", "l.toml", "[[glibcxx]]\nversion = \"GLIBCXX_3.4.32\"\ngcc = \"13.2.0\"\nsource = \"s\"\n", t);
  ASSERT_FALSE(e.empty());
  EXPECT_NE(e[0].find("l.toml:1"), std::string::npos) << e[0];
  EXPECT_TRUE(t.glibcxx.empty());
  EXPECT_FALSE(load_entity_text("libstdcxx.toml", "l.toml", "[[glibcxx]]\nversion = \"3.4.32\"\nsource = \"s\"\n", t).empty());
}

// programs.toml: a program as a log names it (Windows' "cl.EXE" is cl) finds its entry; a name with a
// path or ".exe", or an entry naming no signature the signatures have, is refused with its line.
TEST(EntityTable, ProgramsAreFoundAsLogsNameThem) {
  std::vector<std::string> errors;
  EntityTables built = load_entity_tables({}, errors);
  ASSERT_NE(built.find_provided("program", "cl.EXE"), nullptr);
  EXPECT_EQ(built.find_provided("program", "cl.EXE")->signature, "MSVC_CL_NOT_FOUND");
  EXPECT_EQ(built.find_provided("program", "nvcc")->signature, "NVCC_NOT_FOUND");
  EXPECT_EQ(built.find_provided("program", "clang-format"), nullptr);
  EXPECT_EQ(built.find_provided("program", "nvc"), nullptr);
  EntityTables t;
  auto e = load_entity_text("programs.toml", "p.toml",
                            "[[program]]\nname = \"nvcc.exe\"\nprovider = \"CUDA\"\nsignature = \"NVCC_NOT_FOUND\"\nsource = \"s\"\n"
                            "\n[[program]]\nname = \"/usr/bin/cmake\"\nprovider = \"CMake\"\nsignature = \"CMAKE_NOT_INSTALLED\"\nsource = \"s\"\n"
                            "\n[[program]]\nname = \"nvcc\"\nprovider = \"CUDA\"\nsource = \"s\"\n",
                            t);
  ASSERT_EQ(e.size(), 3u);
  EXPECT_NE(e[0].find("p.toml:1: name the program as run"), std::string::npos) << e[0];
  EXPECT_NE(e[1].find("p.toml:7:"), std::string::npos) << e[1];
  EXPECT_NE(e[2].find("missing 'signature'"), std::string::npos) << e[2];
  EXPECT_TRUE(t.programs.empty());
  load_entity_text("programs.toml", "p.toml", "[[program]]\nname = \"nvcc\"\nprovider = \"CUDA\"\nsignature = \"NO_SUCH_ID\"\nsource = \"s\"\n", t);
  auto bad = check_entity_signatures(t, {"NVCC_NOT_FOUND"});
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_NE(bad[0].find("program 'nvcc' names unknown signature 'NO_SUCH_ID'"), std::string::npos) << bad[0];
}

// A GNU target-prefixed program (triplet, '-', tool) is the tool; the triplet's vendor field finds its [[prefix]]
// entry. Near misses: no OS field (not a triplet), a tool the table lacks, a bare name, a bad vendor entry.
TEST(EntityTable, TargetPrefixedProgramsAreTheirTool) {
  std::vector<std::string> errors;
  EntityTables built = load_entity_tables({}, errors);
  PrefixedProgram conda = built.find_prefixed_program("x86_64-conda_cos6-linux-gnu-c++");
  ASSERT_NE(conda.program, nullptr);
  EXPECT_EQ(conda.program->name, "c++");
  EXPECT_EQ(conda.prefix, "x86_64-conda_cos6-linux-gnu");
  ASSERT_NE(conda.vendor, nullptr);
  EXPECT_EQ(conda.vendor->vendor, "conda");
  PrefixedProgram debian = built.find_prefixed_program("aarch64-linux-gnu-g++");
  ASSERT_NE(debian.program, nullptr);
  EXPECT_EQ(debian.program->name, "g++");
  EXPECT_EQ(debian.vendor, nullptr);
  EXPECT_EQ(built.find_prefixed_program("x86_64-conda-linux-gnu-nvcc").program->name, "nvcc");
  EXPECT_EQ(built.find_prefixed_program("my-own-c++").program, nullptr);                 // no OS field
  EXPECT_EQ(built.find_prefixed_program("x86_64-linux-gnu-clang-format").program, nullptr);  // not in the table
  EXPECT_EQ(built.find_prefixed_program("c++").program, nullptr);                        // no prefix
  EXPECT_EQ(built.find_prefixed_program("").program, nullptr);
  EntityTables t;
  auto e = load_entity_text("programs.toml", "p.toml", "[[prefix]]\nvendor = \"conda-forge\"\nprovider = \"X\"\nsource = \"s\"\n", t);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_NE(e[0].find("p.toml:1: vendor is one field"), std::string::npos) << e[0];
  EXPECT_TRUE(t.target_vendors.empty());
}

// dependencies.toml: a dependency as a finder prints it ("CuDNN", "CUDNN") finds its entry; a name that
// is not one lower-case word, or an entry naming no signature the signatures have, is refused with its line.
TEST(EntityTable, DependenciesAreFoundAsFindersNameThem) {
  std::vector<std::string> errors;
  EntityTables built = load_entity_tables({}, errors);
  ASSERT_NE(built.find_provided("dependency", "CuDNN"), nullptr);
  EXPECT_EQ(built.find_provided("dependency", "CUDNN")->signature, "CUDNN_NOT_FOUND");
  EXPECT_EQ(built.find_provided("dependency", "Torch")->signature, "TORCHCONFIG_NOT_FOUND");
  EXPECT_EQ(built.find_provided("dependency", "compiler"), nullptr);
  EXPECT_EQ(built.find_provided("dependency", "cudnn.h"), nullptr);
  // One lookup serves both tables; the kind picks the table and how a name is written: a dependency keeps
  // a ".exe" (it has no file name), a program is not a dependency, and another kind has no table.
  EXPECT_EQ(built.find_provided("dependency", "cudnn.exe"), nullptr);
  EXPECT_EQ(built.find_provided("dependency", "nvcc"), nullptr);
  EXPECT_EQ(built.find_provided("program", "CUDNN"), nullptr);
  EXPECT_EQ(built.find_provided("header", "nvcc"), nullptr);
  EXPECT_EQ(built.find_provided("header", "cudnn"), nullptr);
  EntityTables t;
  auto e = load_entity_text("dependencies.toml", "d.toml",
                            "[[dependency]]\nname = \"CuDNN\"\nprovider = \"cuDNN\"\nsignature = \"CUDNN_NOT_FOUND\"\nsource = \"s\"\n"
                            "\n[[dependency]]\nname = \"nccl\"\nprovider = \"NCCL\"\nsource = \"s\"\n",
                            t);
  ASSERT_EQ(e.size(), 2u);
  EXPECT_NE(e[0].find("d.toml:1: name the dependency as one lower-case word"), std::string::npos) << e[0];
  EXPECT_NE(e[1].find("missing 'signature'"), std::string::npos) << e[1];
  EXPECT_TRUE(t.dependencies.empty());
  load_entity_text("dependencies.toml", "d.toml", "[[dependency]]\nname = \"nccl\"\nprovider = \"NCCL\"\nsignature = \"NO_SUCH_ID\"\nsource = \"s\"\n", t);
  auto bad = check_entity_signatures(t, {"NCCL_NOT_FOUND"});
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_NE(bad[0].find("dependency 'nccl' names unknown signature 'NO_SUCH_ID'"), std::string::npos) << bad[0];
}

// dependencies.toml's [[distribution]]: a distribution as a requirement names it ("Torch", PEP 503's
// equivalents) finds its entry; another distribution or a dependency's name finds none, torch the CMake
// package is the dependency table's, and a name written otherwise than PEP 503 normalizes it is refused,
// with its line.
TEST(EntityTable, LibrariesAreFoundAsLinkersNameThem) {
  std::vector<std::string> errors;
  EntityTables built = load_entity_tables({}, errors);
  ASSERT_NE(built.find_provided("library", "cudart"), nullptr);
  EXPECT_EQ(built.find_provided("library", "cudart")->signature, "CUDA_LINK_LIB_NOT_FOUND");
  // A file name, the static variant and a CMake package's placeholder for the dependency are the library.
  EXPECT_NE(built.find_provided("library", "libcudart.so.12"), nullptr);
  EXPECT_NE(built.find_provided("library", "cudart_static"), nullptr);
  EXPECT_NE(built.find_provided("library", "opencv_dep_cudart"), nullptr);
  EXPECT_NE(built.find_provided("library", "cublasLt"), nullptr);
  // Near misses: a library no entry names, and a CUDA-looking word that is not one of its libraries.
  EXPECT_EQ(built.find_provided("library", "opencv_dep_ippicv"), nullptr);
  EXPECT_EQ(built.find_provided("library", "cudnn_frontend"), nullptr);
  EntityTables t;
  auto e = load_entity_text("dependencies.toml", "d.toml",
                            "[[library]]\nname = \"libcudart.so\"\nprovider = \"CUDA\"\nsignature = \"X\"\nsource = \"s\"\n", t);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_NE(e[0].find("d.toml:1: name the library as -l names it"), std::string::npos) << e[0];
}

TEST(EntityTable, DistributionsAreFoundByTheirNormalizedNames) {
  std::vector<std::string> errors;
  EntityTables built = load_entity_tables({}, errors);
  ASSERT_NE(built.find_provided("distribution", "torch"), nullptr);
  EXPECT_EQ(built.find_provided("distribution", "Torch")->signature, "TORCH_WHEEL_UNAVAILABLE_FOR_PYTHON");
  EXPECT_EQ(built.find_provided("distribution", "torchvision"), nullptr);
  EXPECT_EQ(built.find_provided("distribution", "cudnn"), nullptr);
  // The kind picks the table: torch the CMake package a build's finder looks for is another cause.
  EXPECT_EQ(built.find_provided("dependency", "torch")->signature, "TORCHCONFIG_NOT_FOUND");
  EntityTables t;
  auto e = load_entity_text("dependencies.toml", "d.toml",
                            "[[distribution]]\nname = \"torch_scatter\"\nprovider = \"PyG\"\nsignature = \"X\"\nsource = \"s\"\n"
                            "\n[[distribution]]\nname = \"torch-scatter\"\nprovider = \"PyG\"\nsignature = \"X\"\nsource = \"s\"\n",
                            t);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_NE(e[0].find("d.toml:1: name the distribution as PEP 503 normalizes it"), std::string::npos) << e[0];
  ASSERT_EQ(t.distributions.size(), 1u);
  EXPECT_NE(t.find_provided("distribution", "Torch_Scatter"), nullptr);
  EXPECT_NE(t.find_provided("distribution", "torch.scatter"), nullptr);
  auto bad = check_entity_signatures(t, {"NCCL_NOT_FOUND"});
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_NE(bad[0].find("distribution 'torch-scatter' names unknown signature 'X'"), std::string::npos) << bad[0];
}

}  // namespace
}  // namespace ts::triage::testing
