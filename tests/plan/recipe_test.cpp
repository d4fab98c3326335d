// Recipes: the shipped data loads clean and says what the packages' own files say; bad recipe
// files are refused with file:line; overlays replace by name; the generic recipe's defaults.
#include <gtest/gtest.h>

#include "plan/recipe.h"

#include <filesystem>
#include <fstream>

#include "kb/check.h"
#include "plan/build_kb.h"

namespace ts::plan {
namespace {

namespace fs = std::filesystem;

RecipeSet shipped() {
  std::vector<std::string> errors;
  RecipeSet s = load_recipes({}, errors);
  EXPECT_TRUE(errors.empty()) << errors.front();
  return s;
}

const char* kMinimal = R"T(
[[package]]
name = "demo-ext"
aliases = ["demo_ext_alias"]
import = "demo_ext"
git = "https://example.org/demo"
build_system = "setuptools"
smoke = "import torch, demo_ext; demo_ext.op(torch.ones(2, device=device))"
source = "test"
)T";

std::string with(const std::string& extra_line) {
  std::string s = kMinimal;
  return s + extra_line + "\n";
}

TEST(Recipe, NormalizeIsPep503) {
  EXPECT_EQ(normalize_name("Torch_Scatter"), "torch-scatter");
  EXPECT_EQ(normalize_name("a._-b"), "a-b");
  EXPECT_EQ(normalize_name("mmcv-full"), "mmcv-full");
}

TEST(Recipe, EveryShippedRecipeLoadsWithSourceAndSmoke) {
  RecipeSet s = shipped();
  ASSERT_FALSE(s.recipes.empty());
  for (const auto& r : s.recipes) {
    EXPECT_FALSE(r.source.empty()) << r.name;
    EXPECT_NE(r.smoke.find("import"), std::string::npos) << r.name;
    EXPECT_NE(r.smoke.find("device"), std::string::npos) << r.name;
    EXPECT_FALSE(r.import_name.empty()) << r.name;
    EXPECT_EQ(r.name, normalize_name(r.name));
  }
}

TEST(Recipe, TorchScatterIsSerialAndForcesCuda) {
  RecipeSet s = shipped();
  const Recipe* r = s.find("torch_scatter");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->name, "torch-scatter");
  EXPECT_TRUE(r->serial_build);
  EXPECT_TRUE(r->jobs_env.empty());
  EXPECT_EQ(r->cuda_env.at("FORCE_CUDA"), "1");
  EXPECT_EQ(tag_for(*r, "2.1.0"), "2.1.0");
  EXPECT_EQ(s.find("PyTorch.Scatter"), r);
}

TEST(Recipe, ParsesEveryField) {
  std::vector<Recipe> out;
  auto errs = parse_recipes_text("x.toml", with(R"T(arch_env = "FLASH_ATTN_CUDA_ARCHS"
arch_format = "semicolon-sm"
jobs_env = ["MAX_JOBS", "OTHER_JOBS"]
nvcc_threads_env = "NVCC_THREADS"
mem_per_job = "4G"
cuda_only = true
torch = ">=2.0"
tag = "v{version}"
recalled = ["mem_per_job"]
runtime_requires = ["torchvision", "scipy>=1.4; python_version >= '3.8'"]
[[package.compat]]
version = ">=0.1,<0.2"
torch = ">=2.0,<2.1"
source = "readme"
[package.env]
A_B = "1"
[package.cuda_env]
FORCE_CUDA = "1"
[package.cpu_env]
SKIP_CUDA = "TRUE")T"),
                                  out);
  ASSERT_TRUE(errs.empty()) << errs.front();
  ASSERT_EQ(out.size(), 1u);
  const Recipe& r = out[0];
  EXPECT_EQ(r.arch_env, "FLASH_ATTN_CUDA_ARCHS");
  EXPECT_EQ(r.arch_format, "semicolon-sm");
  EXPECT_EQ(r.jobs_env, (std::vector<std::string>{"MAX_JOBS", "OTHER_JOBS"}));
  EXPECT_EQ(r.nvcc_threads_env, "NVCC_THREADS");
  EXPECT_EQ(r.mem_per_job, 4ull << 30);
  EXPECT_TRUE(r.cuda_only);
  EXPECT_EQ(r.env.at("A_B"), "1");
  EXPECT_EQ(r.cuda_env.at("FORCE_CUDA"), "1");
  EXPECT_EQ(r.cpu_env.at("SKIP_CUDA"), "TRUE");
  ASSERT_EQ(r.compat.size(), 1u);
  EXPECT_EQ(r.compat[0].torch.original(), ">=2.0,<2.1");  // parsed at load, the file's text kept
  EXPECT_TRUE(r.compat[0].torch.contains(*Version::parse("2.0.1")));
  EXPECT_FALSE(r.compat[0].torch.contains(*Version::parse("2.1.0")));
  EXPECT_TRUE(r.is_recalled("mem_per_job"));
  EXPECT_EQ(r.runtime_requires, (std::vector<std::string>{"torchvision", "scipy>=1.4; python_version >= '3.8'"}));
  EXPECT_EQ(tag_for(r, "0.1.5"), "v0.1.5");
  EXPECT_EQ(r.origin.file, "x.toml");
  EXPECT_EQ(r.origin.line, 2);
}

TEST(Recipe, Defaults) {
  std::vector<Recipe> out;
  ASSERT_TRUE(parse_recipes_text("x.toml", kMinimal, out).empty());
  EXPECT_EQ(out[0].arch_env, "TORCH_CUDA_ARCH_LIST");
  EXPECT_EQ(out[0].arch_format, "torch");
  EXPECT_EQ(out[0].jobs_env, std::vector<std::string>{"MAX_JOBS"});
  EXPECT_FALSE(out[0].serial_build);
  EXPECT_EQ(out[0].mem_per_job, 0u);
  EXPECT_TRUE(out[0].runtime_requires.empty());
}

void expect_error(const std::string& text, const std::string& where, const std::string& what) {
  std::vector<Recipe> out;
  auto errs = parse_recipes_text("bad.toml", text, out);
  ASSERT_FALSE(errs.empty()) << "accepted: " << text;
  EXPECT_EQ(errs[0].rfind(where, 0), 0u) << errs[0];
  EXPECT_NE(errs[0].find(what), std::string::npos) << errs[0];
  EXPECT_TRUE(out.empty()) << "a file with errors contributes nothing";
}

TEST(Recipe, BadFilesNameFileAndLine) {
  expect_error(with("colour = \"red\""), "bad.toml:10:", "unknown key 'colour'");
  expect_error(with("torch = \">=2.0,<<3\""), "bad.toml:10:", "torch");
  expect_error(with("torch = \"*\""), "bad.toml:10:", "allows every version");
  expect_error(with("mem_per_job = \"lots\""), "bad.toml:10:", "mem_per_job");
  expect_error(with("mem_per_job = \"12\""), "bad.toml:10:", "between 64M and 1T");
  expect_error(with("build_system = \"make\""), "bad.toml:10:", "build_system");
  expect_error(with("arch_format = \"sm\""), "bad.toml:10:", "arch_format");
  expect_error(with("tag = \"v1\""), "bad.toml:10:", "{version}");
  expect_error(with("[package.env]\nlower = \"1\""), "bad.toml:11:", "environment variable name");
  expect_error(with("[package.env]\nserial_build = true"), "bad.toml:11:", "move it above [package.env]");
  expect_error(with("env = \"FORCE_CUDA=1\""), "bad.toml:10:", "expected a table");
  expect_error(with("[[package.compat]]\nversion = \">=1\"\ntorch = \"bad range!\"\nsource = \"s\""), "bad.toml:12:",
               "torch");
  expect_error(with("recalled = [\"nope\"]"), "bad.toml:10:", "recalled");
  expect_error(with("runtime_requires = \"torchvision\""), "bad.toml:10:", "runtime_requires");
  expect_error(with("runtime_requires = [\">=1.0\"]"), "bad.toml:10:", "does not start with a distribution name");
  expect_error(with("runtime_requires = [\"torch vision\"]"), "bad.toml:10:", "'v' after its name");
  expect_error(std::string(kMinimal) + "[[other]]\nx = 1\n", "bad.toml:10:", "unknown top-level key");
  expect_error("[[package]]\nname = \"Demo_Ext\"\n", "bad.toml:", "normalized");
  expect_error("[[package", "bad.toml:1:", "TOML syntax error");
  expect_error("", "bad.toml", "no [[package]] entry");
}

TEST(Recipe, RequirementNameProblem) {
  for (const char* ok : {"torchvision", "scipy>=1.4", "a.b_c-d [x] ; os_name == 'posix'", "pkg @ https://x/y.whl", "x (>=1)"})
    EXPECT_EQ(requirement_name_problem(ok), "") << ok;
  EXPECT_NE(requirement_name_problem(""), "");
  EXPECT_NE(requirement_name_problem("-dash"), "");
  EXPECT_NE(requirement_name_problem("name-"), "");
  EXPECT_NE(requirement_name_problem("two words"), "");
}

TEST(Recipe, SmokeMustUseDevice) {
  std::string t = kMinimal;
  t.replace(t.find("device=device"), 13, "");
  expect_error(t, "bad.toml:8:", "device");
}

TEST(Recipe, DuplicateAliasAcrossFilesIsAnError) {
  std::vector<Recipe> out;
  ASSERT_TRUE(parse_recipes_text("a.toml", kMinimal, out).empty());
  std::string other = kMinimal;
  other.replace(other.find("\"demo-ext\""), 10, "\"other-ext\"");
  auto errs = parse_recipes_text("b.toml", other, out);
  ASSERT_FALSE(errs.empty());
  EXPECT_EQ(errs[0].rfind("b.toml:2:", 0), 0u) << errs[0];
  EXPECT_NE(errs[0].find("demo_ext_alias"), std::string::npos) << errs[0];
  EXPECT_NE(errs[0].find("a.toml:2"), std::string::npos) << errs[0];
  EXPECT_EQ(out.size(), 1u);
  // The same name twice in one set.
  errs = parse_recipes_text("c.toml", kMinimal, out);
  ASSERT_FALSE(errs.empty());
  EXPECT_NE(errs[0].find("defined twice"), std::string::npos) << errs[0];
}

class RecipeOverlay : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ts_recipe_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_ / "packages");
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / "packages" / name) << text;
  }
  fs::path dir_;
};

TEST_F(RecipeOverlay, ReplacesByName) {
  write("scatter.toml", R"T([[package]]
name = "torch-scatter"
import = "torch_scatter"
git = "https://example.org/fork"
build_system = "cmake"
smoke = "import torch_scatter; torch_scatter.scatter_add(torch.ones(1, device=device), torch.zeros(1, dtype=torch.long, device=device))"
source = "my fork"
)T");
  std::vector<std::string> errors;
  RecipeSet s = load_recipes({dir_.string()}, errors);
  ASSERT_TRUE(errors.empty()) << errors.front();
  const Recipe* r = s.find("torch-scatter");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->git_url, "https://example.org/fork");
  EXPECT_EQ(r->build_system, "cmake");
  EXPECT_FALSE(r->serial_build);
  EXPECT_EQ(std::count_if(s.recipes.begin(), s.recipes.end(), [](const Recipe& x) { return x.name == "torch-scatter"; }), 1);
  EXPECT_EQ(s.find("pytorch_scatter"), nullptr) << "the overlay's recipe has no such alias";
}

TEST_F(RecipeOverlay, BadOverlayReportsPathAndKeepsBuiltIn) {
  write("scatter.toml", "[[package]]\nname = \"torch-scatter\"\nsmoke = 3\n");
  std::vector<std::string> errors;
  RecipeSet s = load_recipes({dir_.string()}, errors);
  ASSERT_FALSE(errors.empty());
  EXPECT_EQ(errors[0].rfind((dir_ / "packages" / "scatter.toml").string() + ":", 0), 0u) << errors[0];
  ASSERT_NE(s.find("torch-scatter"), nullptr);
  EXPECT_TRUE(s.find("torch-scatter")->serial_build) << "the built-in recipe stays";
}

TEST_F(RecipeOverlay, AliasTakingAnotherPackagesNameIsRefused) {
  write("mine.toml", std::string(kMinimal).replace(std::string(kMinimal).find("demo_ext_alias"), 14, "torch_scatter"));
  std::vector<std::string> errors;
  RecipeSet s = load_recipes({dir_.string()}, errors);
  ASSERT_FALSE(errors.empty());
  EXPECT_NE(errors[0].find("torch_scatter"), std::string::npos) << errors[0];
  EXPECT_EQ(s.find("demo-ext"), nullptr);
  EXPECT_EQ(s.find("torch_scatter")->name, "torch-scatter");
}

TEST_F(RecipeOverlay, KbCheckRunsTheValidator) {
  write("bad.toml", with("colour = \"red\""));
  write("a.toml", kMinimal);
  write("dup.toml", std::string(kMinimal).replace(std::string(kMinimal).find("\"demo-ext\""), 10, "\"dup-ext\""));
  auto errs = kb::check_kb({dir_.string()}, false, {kRecipeTable.spec});
  bool unknown = false, dup = false;
  for (const auto& e : errs) {
    unknown |= e.str().find("bad.toml:10:") != std::string::npos && e.message.find("colour") != std::string::npos;
    dup |= e.str().find("dup.toml:2:") != std::string::npos && e.message.find("demo_ext_alias") != std::string::npos;
  }
  EXPECT_TRUE(unknown);
  EXPECT_TRUE(dup);
}

TEST(Recipe, KbCheckPassesOnShippedData) {
  auto errs = kb::check_kb({}, true, {kBuildTable.spec, kRecipeTable.spec});
  std::string all;
  for (const auto& e : errs) all += e.str() + "\n";
  EXPECT_TRUE(errs.empty()) << all;
}

TEST(Recipe, GenericDefaults) {
  Recipe g = recipe_generic("My_Ext");
  EXPECT_EQ(g.name, "my-ext");
  EXPECT_EQ(g.import_name, "my_ext");
  EXPECT_EQ(g.build_system, "setuptools");
  EXPECT_EQ(g.arch_env, "TORCH_CUDA_ARCH_LIST");
  EXPECT_EQ(g.jobs_env, std::vector<std::string>{"MAX_JOBS"});
  EXPECT_EQ(g.cuda_env.at("FORCE_CUDA"), "1");
  EXPECT_FALSE(g.cuda_only);
  EXPECT_FALSE(g.serial_build);
  EXPECT_EQ(g.smoke, "import my_ext");
  EXPECT_FALSE(g.source.empty());
}

}  // namespace
}  // namespace ts::plan
