// BuildSpec from the command line and torchsmith.toml: what is accepted, and one clear line when not.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/arch_list.h"
#include "spec/raw_spec.h"
#include "spec/spec_file.h"

namespace ts::spec {
namespace {

RawSpec cli(std::map<std::string, std::string> f) {
  RawSpec r;
  std::map<std::string, RawField RawSpec::*> m{{"req", &RawSpec::requirement}, {"--cuda", &RawSpec::cuda},
                                               {"--arch", &RawSpec::arch},     {"--python", &RawSpec::python},
                                               {"--jobs", &RawSpec::jobs},     {"--mem-budget", &RawSpec::mem_budget},
                                               {"--package", &RawSpec::packages}, {"--with", &RawSpec::with},
                                               {"--without", &RawSpec::without}, {"--source", &RawSpec::source},
                                               {"--build-type", &RawSpec::build_type}, {"--facts", &RawSpec::facts},
                                               {"--root", &RawSpec::root}};
  for (auto& [k, v] : f) r.*m.at(k) = {v, k == "req" ? "the requirement" : k, true};
  return r;
}

std::string error_of(const RawSpec& r) {
  std::string e;
  EXPECT_FALSE(check(r, e));
  return e;
}

TEST(Spec, FullCommandLine) {
  std::string e;
  auto s = check(cli({{"req", "torch==2.4.1"}, {"--cuda", "12.8"}, {"--arch", "8.9;12.0+PTX"}, {"--python", "3.8"},
                      {"--with", "cudnn,test"}, {"--without", "magma"}, {"--jobs", "6"}, {"--mem-budget", "16G"},
                      {"--package", "wheel,conda"}, {"--source", "https://github.com/pytorch/pytorch@v2.4.1"},
                      {"--build-type", "relwithdebinfo"}}),
                 e);
  ASSERT_TRUE(s) << e;
  EXPECT_EQ(s->version, "2.4.1");
  ASSERT_TRUE(s->cuda);
  EXPECT_EQ(s->cuda->str(), "12.8");
  EXPECT_EQ(s->arch, "8.9;12.0+PTX");
  EXPECT_EQ(ArchList(s->arch_numbers).torch_cuda_arch_list(), "8.9;12.0+PTX");
  EXPECT_TRUE(s->python.path.empty());
  ASSERT_TRUE(s->python.version);
  EXPECT_EQ(s->python.version->major_minor(), "3.8");
  EXPECT_EQ(s->with, (std::vector<std::string>{"cudnn", "test"}));
  EXPECT_EQ(s->jobs, 6);
  EXPECT_EQ(s->mem_budget_bytes, 16ull << 30);
  EXPECT_TRUE(s->wants("conda"));
  EXPECT_EQ(s->build_type, BuildType::relwithdebinfo);
  EXPECT_EQ(s->origin_of("arch"), "--arch");
  EXPECT_EQ(s->origin_of("cuda"), "--cuda");
  EXPECT_EQ(s->origin_of("python"), "--python");
  auto src = parse_source(s->source);
  EXPECT_EQ(src.url, "https://github.com/pytorch/pytorch");
  EXPECT_EQ(src.ref, "v2.4.1");
}

TEST(Spec, Defaults) {
  std::string e;
  auto s = check(cli({{"req", "torch==1.13.0"}}), e);
  ASSERT_TRUE(s) << e;
  EXPECT_EQ(s->arch, "native");
  EXPECT_TRUE(s->arch_numbers.empty());
  EXPECT_FALSE(s->cuda);
  EXPECT_TRUE(s->python.empty());
  EXPECT_EQ(s->packages, std::vector<std::string>{"wheel"});
  EXPECT_EQ(s->jobs, 0);
  EXPECT_EQ(s->root, "/");
  EXPECT_EQ(s->origin_of("arch"), "default");
}

TEST(Spec, BadInputsSayWhatAndWhere) {
  EXPECT_NE(error_of(cli({})).find("no release named"), std::string::npos);
  EXPECT_NE(error_of(cli({{"req", "torch>=2.0"}})).find("names no single release"), std::string::npos);
  EXPECT_NE(error_of(cli({{"req", "torch==2.*"}})).find("names no single release"), std::string::npos);
  EXPECT_NE(error_of(cli({{"req", "torchvision==0.19"}})).find("only torch"), std::string::npos);
  EXPECT_NE(error_of(cli({{"req", "torch==2.4.1"}, {"--cuda", "12,8"}})).find("--cuda: '12,8' is not a CUDA version"),
            std::string::npos);
  EXPECT_NE(error_of(cli({{"req", "torch==2.4.1"}, {"--arch", "8.6.1"}})).find("--arch"), std::string::npos);
  EXPECT_NE(error_of(cli({{"req", "torch==2.4.1"}, {"--jobs", "0"}})).find("--jobs"), std::string::npos);
  EXPECT_NE(error_of(cli({{"req", "torch==2.4.1"}, {"--jobs", "many"}})).find("or auto"), std::string::npos);
  EXPECT_NE(error_of(cli({{"req", "torch==2.4.1"}, {"--mem-budget", "lots"}})).find("not a size"), std::string::npos);
  EXPECT_NE(error_of(cli({{"req", "torch==2.4.1"}, {"--package", "rpm"}})).find("'rpm'"), std::string::npos);
  EXPECT_NE(error_of(cli({{"req", "torch==2.4.1"}, {"--with", "test"}, {"--without", "test"}})).find("'test'"),
            std::string::npos);
  EXPECT_NE(error_of(cli({{"req", "torch==2.4.1"}, {"--python", "three"}})).find("--python"), std::string::npos);
  EXPECT_NE(error_of(cli({{"req", "torch==2.4.1"}, {"--facts", "f.json"}, {"--root", "/x"}})).find("give one"),
            std::string::npos);
}

TEST(Spec, JobsAutoAndSizes) {
  std::string e;
  auto s = check(cli({{"req", "2.4.1"}, {"--jobs", "auto"}}), e);
  ASSERT_TRUE(s) << e;
  EXPECT_EQ(s->version, "2.4.1");
  EXPECT_EQ(s->jobs, 0);
  EXPECT_EQ(parse_size("512M"), 512ull << 20);
  EXPECT_EQ(parse_size("1.5GiB"), 3ull << 29);
  EXPECT_EQ(parse_size("2t"), 2ull << 40);
  EXPECT_EQ(parse_size("100"), 100u);
  EXPECT_FALSE(parse_size("G"));
  EXPECT_FALSE(parse_size("16Q"));
  EXPECT_FALSE(parse_size("0"));
}

TEST(Spec, JobsParseStrictly) {
  EXPECT_EQ(parse_jobs("auto"), 0);
  EXPECT_EQ(parse_jobs("AUTO"), 0);
  EXPECT_EQ(parse_jobs("4"), 4);
  EXPECT_EQ(parse_jobs("9999"), 9999);
  for (const char* bad : {"4x", "0", "-1", "", " 4", "+4", "4.0", "10000", "0x4"})
    EXPECT_FALSE(parse_jobs(bad)) << bad;
}

TEST(SpecFile, ReadsEveryFieldWithItsLine) {
  RawSpec r;
  std::string e;
  ASSERT_TRUE(read_spec_text("# a project\n[build]\ntorch = \"2.4.1\"\ncuda = \"12.8\"\narch = [\"8.9\", \"12.0+PTX\"]\n"
                             "jobs = 4\nwithout = [\"test\", \"magma\"]\nmem_budget = \"16G\"\n",
                             "torchsmith.toml", r, e))
      << e;
  auto s = check(r, e);
  ASSERT_TRUE(s) << e;
  EXPECT_EQ(s->version, "2.4.1");
  EXPECT_EQ(s->arch, "8.9,12.0+PTX");
  EXPECT_EQ(s->jobs, 4);
  EXPECT_EQ(s->without, (std::vector<std::string>{"test", "magma"}));
  EXPECT_EQ(s->origin_of("arch"), "torchsmith.toml:5");
  EXPECT_EQ(s->origin_of("cuda"), "torchsmith.toml:4");
}

TEST(SpecFile, ErrorsNameFileLineAndKey) {
  RawSpec r;
  std::string e;
  EXPECT_FALSE(read_spec_text("torch = \"2.4.1\"\ncudaa = \"12.8\"\n", "p/torchsmith.toml", r, e));
  EXPECT_EQ(e.rfind("p/torchsmith.toml:2: cudaa: unknown key", 0), 0u) << e;
  EXPECT_FALSE(read_spec_text("torch = [\"2.4.1\"]\n", "t.toml", r, e));
  EXPECT_NE(e.find("t.toml:1: torch:"), std::string::npos) << e;
  EXPECT_FALSE(read_spec_text("torch = \n", "t.toml", r, e));
  EXPECT_NE(e.find("t.toml:1"), std::string::npos) << e;
  RawSpec ok;
  ASSERT_TRUE(read_spec_text("torch = \"2.4.1\"\n\ncuda = \"12,8\"\n", "t.toml", ok, e));
  EXPECT_FALSE(check(ok, e));
  EXPECT_EQ(e.rfind("t.toml:3: cuda: '12,8'", 0), 0u) << e;
}

TEST(SpecFile, CommandLineWinsOverTheFile) {
  RawSpec file;
  std::string e;
  ASSERT_TRUE(read_spec_text("torch = \"2.4.1\"\narch = \"portable\"\ncuda = \"12.8\"\n", "t.toml", file, e));
  auto s = check(merge(file, cli({{"--arch", "native"}})), e);
  ASSERT_TRUE(s) << e;
  EXPECT_EQ(s->arch, "native");
  EXPECT_EQ(s->origin_of("arch"), "--arch");
  EXPECT_EQ(s->origin_of("cuda"), "t.toml:3");
}

// The request's values are typed where it is checked: the plan reads a CUDA version, the arches
// written as numbers (names resolve in the plan) and a Python path or version, never the text.
TEST(Spec, RequestValuesAreTypedWhereChecked) {
  std::string e;
  auto s = check(cli({{"req", "torch==1.13.0"}, {"--cuda", "11.8.0"}, {"--arch", "ada;8.6 +PTX,sm_75"},
                      {"--python", "/opt/py/bin/python3.10"}}),
                 e);
  ASSERT_TRUE(s) << e;
  EXPECT_EQ(s->cuda->major_minor(), "11.8");
  EXPECT_EQ(s->cuda->str(), "11.8.0");  // the lock keeps what was asked
  EXPECT_EQ(ArchList(s->arch_numbers).torch_cuda_arch_list(), "7.5;8.6+PTX");  // "ada" adds nothing here
  EXPECT_EQ(s->python.path, "/opt/py/bin/python3.10");
  EXPECT_FALSE(s->python.version);  // the 3.10 in a path's name is not a version asked for
  EXPECT_EQ(s->python.text(), "/opt/py/bin/python3.10");
  // Near misses stay refused at the edge: nothing half-parsed reaches the plan.
  for (const char* bad : {"12", "12.x", "v12.8", "12.8 ", ""})
    EXPECT_NE(error_of(cli({{"req", "torch==2.4.1"}, {"--cuda", bad}})).find("is not a CUDA version"), std::string::npos)
        << bad;
  EXPECT_EQ(arch_numbers("portable"), std::vector<CudaArch>{});
  EXPECT_EQ(arch_numbers("8.6;8.6.1"), std::vector<CudaArch>{});  // not a list: nothing
  // A bare name is a path to probe (--torch python3), never a version.
  EXPECT_EQ(PythonAsk::of("python3").path, "python3");
  EXPECT_EQ(PythonAsk::of("3.12").text(), "3.12");
  EXPECT_TRUE(PythonAsk::of("").empty());
}

TEST(Spec, JsonRoundTrip) {
  std::string e;
  auto s = check(cli({{"req", "torch==2.4.1"}, {"--arch", "ada"}, {"--build-type", "debug"}, {"--mem-budget", "8G"}}), e);
  ASSERT_TRUE(s) << e;
  nlohmann::json j = *s;
  BuildSpec back = j.get<BuildSpec>();
  EXPECT_EQ(nlohmann::json(back), j);
  EXPECT_EQ(back.build_type, BuildType::debug);
  // The typed fields travel as their text and come back typed.
  auto t = check(cli({{"req", "torch==2.4.1"}, {"--cuda", "12.4"}, {"--arch", "8.6;9.0+PTX"}, {"--python", "3.11"}}), e);
  ASSERT_TRUE(t) << e;
  nlohmann::json tj = *t;
  EXPECT_EQ(tj["cuda"], "12.4");
  EXPECT_EQ(tj["python"], "3.11");
  EXPECT_EQ(tj["arch"], "8.6;9.0+PTX");
  EXPECT_FALSE(tj.contains("arch_numbers"));
  BuildSpec tb = tj.get<BuildSpec>();
  EXPECT_EQ(tb.cuda->major_minor(), "12.4");
  EXPECT_EQ(tb.python.version->major_minor(), "3.11");
  EXPECT_EQ(tb.arch_numbers, t->arch_numbers);
  EXPECT_EQ(nlohmann::json(tb), tj);
  EXPECT_EQ(nlohmann::json(BuildSpec{})["cuda"], "");
}

TEST(Spec, SourceSpellings) {
  EXPECT_EQ(parse_source("/src/pytorch").dir, "/src/pytorch");
  auto g = parse_source("git@github.com:me/pytorch.git@my-branch");
  EXPECT_EQ(g.url, "git@github.com:me/pytorch.git");
  EXPECT_EQ(g.ref, "my-branch");
  EXPECT_EQ(parse_source("https://github.com/pytorch/pytorch").ref, "");
}

}  // namespace
}  // namespace ts::spec

namespace ts::spec {
namespace {

// Issue 21: `--spec DIR` read a directory as an empty, valid torchsmith.toml.
TEST(SpecFile, ADirectoryIsNotASpecFile) {
  RawSpec r;
  std::string err;
  EXPECT_FALSE(read_spec_file("/tmp", r, err));
  EXPECT_NE(err.find("a directory, not a torchsmith.toml file"), std::string::npos) << err;
}

// A torch build's --source URL@REF reaches git: the ref and URL are checked at plan time.
TEST(SpecSource, RefsAndUrlsThatGitWouldReadAsOptionsAreRefused) {
  RawSpec raw;
  raw.requirement = {"torch==2.4.1", "the requirement", true};
  raw.source = {"https://github.com/pytorch/pytorch@--upload-pack=touch /tmp/x;git-upload-pack", "--source", true};
  std::string err;
  EXPECT_FALSE(check(raw, err));
  EXPECT_NE(err.find("--source: "), std::string::npos) << err;
  EXPECT_NE(err.find("starts with '-'"), std::string::npos) << err;
  raw.source = {"ssh://-oProxyCommand=x/r@main", "--source", true};
  EXPECT_FALSE(check(raw, err));
  raw.source = {"https://github.com/pytorch/pytorch@v2.4.1", "--source", true};
  EXPECT_TRUE(check(raw, err)) << err;
}

}  // namespace
}  // namespace ts::spec
