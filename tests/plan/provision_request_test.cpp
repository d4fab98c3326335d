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
  EXPECT_FALSE(parse_toolkit_choice("conda", &err));
  EXPECT_NE(err.find("wheelhouse:DIR"), std::string::npos);
}

}  // namespace
}  // namespace ts::plan
