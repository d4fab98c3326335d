// The matrix index: --torch lists read (and refused with the way out), one directory per torch and
// CUDA, the table and JSON say what each cell built and whether it verified.
#include "package/matrix_index.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace ts::package {
namespace {

TEST(MatrixIndex, TorchListIsMinorOrExactReleases) {
  std::string err;
  auto l = parse_torch_list("2.4, 2.5.1", &err);
  ASSERT_TRUE(l) << err;
  ASSERT_EQ(l->size(), 2u);
  EXPECT_EQ((*l)[0].requirement, "torch==2.4.*");  // the newest 2.4.x
  EXPECT_EQ((*l)[1].requirement, "torch==2.5.1");
  for (const char* bad : {"2", "2.x", "2.5.", "", "2.4,,2.5", "latest", "2.4;rm"}) {
    EXPECT_FALSE(parse_torch_list(bad, &err)) << bad;
    EXPECT_NE(err.find("--torch"), std::string::npos) << err;
  }
  EXPECT_FALSE(parse_torch_list("2.4,2.4", &err));
  EXPECT_NE(err.find("named twice"), std::string::npos) << err;
}

TEST(MatrixIndex, OneDirectoryPerTorchAndCuda) {
  EXPECT_EQ(cell_dir("2.5.1", ""), "torch-2.5.1+cpu");
  EXPECT_EQ(cell_dir("2.5.1", "12.4"), "torch-2.5.1+cu124");
  EXPECT_EQ(cell_dir("2.15.0", "13.2"), "torch-2.15.0+cu132");
}

TEST(MatrixIndex, TableAndJsonTellEachCell) {
  MatrixCell ok;
  ok.asked = "2.5";
  ok.torch_version = "2.5.1";
  ok.wheels = {"pkg_x-1.0-cp311-cp311-linux_x86_64.whl"};
  ok.bytes = 3 << 20;
  ok.ok = true;
  ok.result = "verified: 4 checks passed";
  MatrixCell cuda = ok;
  cuda.torch_version = "2.6.0", cuda.cuda = "12.6", cuda.arches = "8.0;9.0";
  MatrixCell failed;
  failed.asked = "2.4";
  failed.result = "torch not installed: pip install torch==2.4.* failed: <no match>";
  std::string html = render_matrix_html("pkg-x", {ok, cuda, failed});
  EXPECT_NE(html.find("<a href=\"torch-2.5.1+cpu/pkg_x-1.0-cp311-cp311-linux_x86_64.whl\">"), std::string::npos)
      << html;
  EXPECT_NE(html.find("href=\"torch-2.6.0+cu126/pkg_x"), std::string::npos) << html;
  EXPECT_NE(html.find("<td>8.0;9.0</td>"), std::string::npos);
  EXPECT_NE(html.find("<td>3.0 MiB</td>"), std::string::npos) << html;
  EXPECT_NE(html.find("class=\"failed\"><td>2.4 (not installed)</td>"), std::string::npos) << html;
  EXPECT_NE(html.find("&lt;no match&gt;"), std::string::npos);  // escaped, never markup
  auto j = matrix_json("pkg-x", {ok, cuda, failed});
  EXPECT_EQ(j["cells"][0]["dir"], "torch-2.5.1+cpu");
  EXPECT_EQ(j["cells"][1]["dir"], "torch-2.6.0+cu126");
  EXPECT_EQ(j["cells"][1]["cuda"], "12.6");
  EXPECT_EQ(j["cells"][2]["ok"], false);
  EXPECT_EQ(j["cells"][2]["dir"], "");
}

}  // namespace
}  // namespace ts::package
