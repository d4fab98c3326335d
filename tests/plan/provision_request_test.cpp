#include <gtest/gtest.h>

#include "plan/provision_request.h"

namespace ts::plan {
namespace {

TEST(ProvisionCatalog, EmbeddedCatalogReadsAndFindsBySeries) {
  std::vector<std::string> errors;
  auto cat = load_provision_catalog({}, errors);
  ASSERT_TRUE(errors.empty()) << errors.front();
  const ToolRelease* t = cat.find("cuda", "13.0");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->version.rfind("13.0.", 0), 0u);
  EXPECT_TRUE(t->complete);
  ASSERT_NE(cat.find("cuda", "12.4"), nullptr);
  EXPECT_FALSE(cat.find("cuda", "12.4")->complete);  // PyPI's cu12 nvcc wheels carry ptxas only
  EXPECT_FALSE(cat.of_kind("cmake").empty());
  for (const auto* c : cat.of_kind("cmake")) EXPECT_FALSE(c->source.empty());
}

TEST(ProvisionCatalog, BadPinIsAFileLineError) {
  ProvisionCatalog cat;
  std::vector<std::string> errors;
  EXPECT_FALSE(read_provision_text(cat, "p.toml", "[[cmake]]\nversion = \"3.31.6\"\nwheels = [\"cmake 3.31\"]\nsource = \"x\"\n", errors));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("p.toml:"), std::string::npos) << errors[0];
  EXPECT_NE(errors[0].find("NAME==VERSION"), std::string::npos) << errors[0];
}

TEST(ProvisionRequest, DirIsContentAddressedByPinsAndPlatform) {
  std::vector<WheelPin> a{{"cmake", "3.31.6", ""}}, b{{"cmake", "3.31.5", ""}};
  auto da = provisioned_dir("/c", "cmake", "3.31.6", a, "manylinux2014_x86_64");
  EXPECT_EQ(da.rfind("/c/toolkits/cmake-3.31.6-", 0), 0u) << da;
  EXPECT_EQ(da, provisioned_dir("/c", "cmake", "3.31.6", a, "manylinux2014_x86_64"));
  EXPECT_NE(da, provisioned_dir("/c", "cmake", "3.31.6", b, "manylinux2014_x86_64"));
  EXPECT_NE(da, provisioned_dir("/c", "cmake", "3.31.6", a, "manylinux2014_aarch64"));
}

TEST(ProvisionRequest, ToolkitChoiceSpellings) {
  std::string err;
  EXPECT_EQ(parse_toolkit_choice("pip", &err)->kind, ToolkitChoice::Kind::pip);
  EXPECT_EQ(parse_toolkit_choice("system", &err)->kind, ToolkitChoice::Kind::system);
  auto w = parse_toolkit_choice("wheelhouse:/w", &err);
  EXPECT_EQ(w->kind, ToolkitChoice::Kind::wheelhouse);
  EXPECT_EQ(w->dir, "/w");
  EXPECT_EQ(parse_toolkit_choice("/opt/cuda-13.0", &err)->kind, ToolkitChoice::Kind::path);
  EXPECT_EQ(parse_toolkit_choice("redist", &err)->kind, ToolkitChoice::Kind::redist);
  EXPECT_EQ(parse_toolkit_choice("conda", &err)->kind, ToolkitChoice::Kind::conda);
  EXPECT_FALSE(parse_toolkit_choice("brew", &err));
  EXPECT_NE(err.find("redist, conda"), std::string::npos) << err;
}

// Every series a torch of 11.8-13.x was built with has a [[redist]] entry: its manifest URL is its
// source, nvcc's version is the catalog's, the components name a whole compiler and runtime.
TEST(ProvisionCatalog, RedistEntriesFromTheirManifests) {
  std::vector<std::string> errors;
  auto cat = load_provision_catalog({}, errors);
  ASSERT_TRUE(errors.empty()) << errors.front();
  for (const char* mm : {"11.8", "12.1", "12.4", "12.6", "12.8", "13.0"}) {
    const ToolRelease* t = cat.find("cuda", mm, "redist");
    ASSERT_NE(t, nullptr) << mm;
    EXPECT_EQ(t->via, "redist");
    EXPECT_EQ(t->source, t->manifest);
    EXPECT_EQ(t->manifest, "https://developer.download.nvidia.com/compute/cuda/redist/redistrib_" + t->release + ".json");
    EXPECT_EQ(t->release.rfind(mm, 0), 0u) << t->release;
    ASSERT_FALSE(t->wheels.empty());
    EXPECT_EQ(t->wheels[0].name, "cuda_nvcc");
    EXPECT_EQ(t->wheels[0].version, t->version);  // the one version a plan knows before the manifest
    bool cudart = false, cublas = false;
    for (const auto& w : t->wheels) cudart |= w.name == "cuda_cudart";
    for (const auto& w : t->torch_parts) cublas |= w.name == "libcublas";
    EXPECT_TRUE(cudart && cublas) << mm;
  }
  // find() keeps to one provider: PyPI's 12.4 stays the incomplete wheel set.
  EXPECT_EQ(cat.find("cuda", "12.4")->via, "pip");
}

TEST(ProvisionCatalog, RedistEntryErrorsAreFileLineErrors) {
  ProvisionCatalog cat;
  std::vector<std::string> errors;
  EXPECT_FALSE(read_provision_text(cat, "p.toml", "[[redist]]\nversion = \"12.4.131\"\ncomponents = [\"cuda nvcc\"]\nsource = \"x\"\n", errors));
  ASSERT_FALSE(errors.empty());
  std::string all;
  for (const auto& e : errors) all += e + "\n";
  EXPECT_NE(all.find("p.toml:"), std::string::npos) << all;
  EXPECT_NE(all.find("a manifest component"), std::string::npos) << all;
  EXPECT_NE(all.find("manifest"), std::string::npos) << all;
}

}  // namespace
}  // namespace ts::plan
