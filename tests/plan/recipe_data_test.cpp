// The shipped recipes: the fifteen packages of issue 8 resolve by name and alias, and the facts
// read from their own setup.py / CMakeLists (cited in each recipe's source) are what the data says.
#include <gtest/gtest.h>

#include "plan/recipe.h"

namespace ts::plan {
namespace {

const RecipeSet& shipped() {
  static const RecipeSet s = [] {
    std::vector<std::string> errors;
    RecipeSet r = load_recipes({}, errors);
    EXPECT_TRUE(errors.empty()) << errors.front();
    return r;
  }();
  return s;
}

const Recipe& get(std::string_view name) {
  const Recipe* r = shipped().find(name);
  if (!r) throw std::runtime_error("no recipe for " + std::string(name));
  return *r;
}

TEST(RecipeData, TheFifteenAndTheirAliasesResolve) {
  const std::pair<const char*, const char*> names[] = {
      {"torchvision", "torchvision"},      {"torchaudio", "torchaudio"},
      {"detectron2", "detectron2"},        {"pytorch3d", "pytorch3d"},
      {"apex", "apex"},                    {"flash-attn", "flash-attn"},
      {"flash-attention", "flash-attn"},   {"flash_attn", "flash-attn"},
      {"xformers", "xformers"},            {"mmcv", "mmcv"},
      {"mmcv-full", "mmcv"},               {"MMCV_Full", "mmcv"},
      {"torch-scatter", "torch-scatter"},  {"torch_scatter", "torch-scatter"},
      {"torch-cluster", "torch-cluster"},  {"torch_cluster", "torch-cluster"},
      {"torch-sparse", "torch-sparse"},    {"torch_sparse", "torch-sparse"},
      {"causal-conv1d", "causal-conv1d"},  {"causal_conv1d", "causal-conv1d"},
      {"mamba-ssm", "mamba-ssm"},          {"mamba_ssm", "mamba-ssm"},
      {"diff-gaussian-rasterization", "diff-gaussian-rasterization"},
      {"diff_gaussian_rasterization", "diff-gaussian-rasterization"},
      {"bitsandbytes", "bitsandbytes"},
  };
  for (const auto& [asked, want] : names) {
    const Recipe* r = shipped().find(asked);
    ASSERT_NE(r, nullptr) << asked;
    EXPECT_EQ(r->name, want) << asked;
  }
  EXPECT_GE(shipped().recipes.size(), 15u);
  EXPECT_EQ(shipped().find("no-such-package"), nullptr);
  EXPECT_EQ(shipped().find(""), nullptr);
}

TEST(RecipeData, EveryRecipeIsComplete) {
  for (const auto& r : shipped().recipes) {
    EXPECT_FALSE(r.source.empty()) << r.name;
    EXPECT_FALSE(r.smoke.empty()) << r.name;
    EXPECT_FALSE(r.git_url.empty()) << r.name;
    EXPECT_NE(r.smoke.find(r.import_name.substr(0, r.import_name.find('.'))), std::string::npos)
        << r.name << ": the smoke should touch the package itself";
    if (r.cuda_only) {
      EXPECT_NE(r.smoke.find("\"cuda\""), std::string::npos) << r.name << " says so on CPU";
    }
    for (const auto& [k, v] : r.cuda_env) EXPECT_FALSE(r.cpu_env.count(k) && r.cpu_env.at(k) == v) << r.name << " " << k;
  }
}

TEST(RecipeData, SerialBuildsAreTheOnesThatTurnNinjaOff) {
  EXPECT_TRUE(get("torch-scatter").serial_build);
  EXPECT_TRUE(get("torch-cluster").serial_build);
  EXPECT_TRUE(get("torch-cluster").jobs_env.empty()) << "MAX_JOBS means nothing without ninja";
  EXPECT_FALSE(get("torch-sparse").serial_build);
  EXPECT_FALSE(get("detectron2").serial_build);
}

TEST(RecipeData, FlashAttnSteersItsOwnArchListAndIsHeavy) {
  const Recipe& f = get("flash-attention");
  EXPECT_EQ(f.arch_env, "FLASH_ATTN_CUDA_ARCHS");
  EXPECT_EQ(f.arch_format, "semicolon-sm");
  EXPECT_EQ(f.nvcc_threads_env, "NVCC_THREADS");
  EXPECT_GE(f.mem_per_job, 5ull << 30) << "several GB per compile job";
  EXPECT_TRUE(f.cuda_only);
  EXPECT_EQ(f.env.at("FLASH_ATTENTION_FORCE_BUILD"), "TRUE") << "else it downloads a prebuilt wheel";
  EXPECT_EQ(tag_for(f, "2.6.3"), "v2.6.3");
}

TEST(RecipeData, HardCodedGencodeListsHaveNoArchKnob) {
  EXPECT_EQ(get("causal-conv1d").arch_env, "");
  EXPECT_EQ(get("mamba-ssm").arch_env, "");
  EXPECT_EQ(get("causal-conv1d").env.at("CAUSAL_CONV1D_FORCE_BUILD"), "TRUE");
  EXPECT_EQ(get("mamba-ssm").env.at("MAMBA_FORCE_BUILD"), "TRUE");
  EXPECT_EQ(get("mamba-ssm").env.at("MAMBA_KEEP_CUDA_BUILD"), "TRUE");
}

TEST(RecipeData, PackageKnobs) {
  EXPECT_EQ(get("mmcv-full").env.at("MMCV_WITH_OPS"), "1");
  EXPECT_EQ(get("mmcv-full").runtime_requires, std::vector<std::string>{"torchvision"});
  EXPECT_EQ(get("detectron2").cuda_env.at("FORCE_CUDA"), "1");
  EXPECT_EQ(get("detectron2").torch.original(), ">=1.8");
  EXPECT_EQ(get("apex").env.at("APEX_CPP_EXT"), "1");
  EXPECT_EQ(get("apex").cuda_env.at("APEX_CUDA_EXT"), "1");
  EXPECT_EQ(get("torchvision").cuda_env.at("FORCE_CUDA"), "1");
  EXPECT_EQ(get("torchvision").cpu_env.at("TORCHVISION_USE_NVJPEG"), "0");
  const Recipe& b = get("bitsandbytes");
  EXPECT_EQ(b.build_system, "cmake");
  EXPECT_EQ(b.arch_env, "COMPUTE_CAPABILITY");
  EXPECT_EQ(b.arch_format, "cmake");
  EXPECT_EQ(b.cuda_env.at("COMPUTE_BACKEND"), "cuda");
  EXPECT_EQ(get("xformers").torch.original(), ">=2.10");
}

// The pairing a compat table gives for a package version, or "" when none matches.
std::string torch_for(const Recipe& r, const std::string& version) {
  for (const auto& c : r.compat) {
    std::string text = c.version.original();
    auto lo = text.substr(2, text.find(',') - 2);  // ">=0.14,<0.15" -> "0.14"
    if (version.rfind(lo + ".", 0) == 0 || version == lo) return c.torch.original();
  }
  return "";
}

TEST(RecipeData, DomainLibraryPairingsFromCompatFacts) {
  EXPECT_EQ(torch_for(get("torchvision"), "0.14.1"), ">=1.13,<1.14");
  EXPECT_EQ(torch_for(get("torchvision"), "0.15.2"), ">=2.0,<2.1");
  EXPECT_EQ(torch_for(get("torchvision"), "0.26.0"), ">=2.11,<2.12");
  EXPECT_EQ(torch_for(get("torchaudio"), "0.13.1"), ">=1.13,<1.14");
  EXPECT_EQ(torch_for(get("torchaudio"), "2.4.0"), ">=2.4,<2.5");
  EXPECT_EQ(torch_for(get("torchaudio"), "2.11.0"), ">=2.11") << "stable-ABI torchaudio serves later torch";
  for (const auto& c : get("torchvision").compat) EXPECT_FALSE(c.source.empty());
}

}  // namespace
}  // namespace ts::plan
