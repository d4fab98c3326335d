// A wheel's Requires-Dist, top-level modules and compiled modules, from member names and from a
// real zip.
#include "verify/wheel_meta.h"

#include <gtest/gtest.h>

#include "verify_test_util.h"

namespace ts::verify {
namespace {

using V = std::vector<std::string>;

TEST(WheelMeta, RequiresDistFromTheHeadersOnly) {
  auto w = wheel_meta_from({}, "Metadata-Version: 2.1\nName: detectron2\nVersion: 0.6\n"
                               "Requires-Dist: Pillow>=7.1\r\nRequires-Dist: fvcore<0.1.6,>=0.1.5\n"
                               "Requires-Dist: pytest; extra == \"dev\"\n\n"
                               "Requires-Dist: not-a-header, the long description\n", "");
  EXPECT_EQ(w.name, "detectron2");
  EXPECT_EQ(w.version, "0.6");
  EXPECT_EQ(w.requires_dist, (V{"Pillow>=7.1", "fvcore<0.1.6,>=0.1.5", "pytest; extra == \"dev\""}));
}

TEST(WheelMeta, ModulesFromTheFileListWhenNoTopLevelTxt) {
  auto w = wheel_meta_from({"simple_knn/_C.cpython-311-x86_64-linux-gnu.so", "simple_knn/__init__.py",
                            "simple_knn-0.0.0.dist-info/METADATA", "fused_ssim_cuda.cpython-311-x86_64-linux-gnu.so",
                            "six.py", "simple_knn.libs/libfoo-1a2b3c.so.1", "pkg-1.data/platlib/pkg/ops/_x.so",
                            "pkg-1.data/scripts/tool", "pkg/libplain.so"},
                           "Name: simple_knn\n", "");
  EXPECT_EQ(w.top_level, (V{"simple_knn", "fused_ssim_cuda", "six", "pkg"}));
  EXPECT_EQ(w.compiled, (V{"simple_knn._C", "fused_ssim_cuda", "pkg.ops._x", "pkg.libplain"}));
}

TEST(WheelMeta, TopLevelTxtWins) {
  auto w = wheel_meta_from({"detectron2/_C.so", "tools/train_net.py"}, "Name: detectron2\n",
                           "detectron2\ntools\n\nbad-name\n");
  EXPECT_EQ(w.top_level, (V{"detectron2", "tools"}));
  EXPECT_EQ(w.compiled, (V{"detectron2._C"}));
}

TEST(WheelMeta, ReadsARealWheel) {
  test::TempDir t;
  std::string whl = t / "x-1.0-py3-none-any.whl";
  auto r = test::run({"/usr/bin/python3", "-c",
                      "import sys, zipfile\n"
                      "with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:\n"
                      "    z.writestr('x/__init__.py', '')\n"
                      "    z.writestr('x-1.0.dist-info/METADATA', 'Name: x\\nVersion: 1.0\\nRequires-Dist: addict\\n')\n"
                      "    z.writestr('x-1.0.dist-info/top_level.txt', 'x\\n')\n",
                      whl});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string err;
  auto w = read_wheel_meta(whl, &err);
  ASSERT_TRUE(w) << err;
  EXPECT_EQ(w->requires_dist, (V{"addict"}));
  EXPECT_EQ(w->top_level, (V{"x"}));
  test::write(t / "bad.whl", "not a zip at all, long enough to be looked at........");
  EXPECT_FALSE(read_wheel_meta(t / "bad.whl", &err));
  EXPECT_NE(err.find("not a zip archive"), std::string::npos) << err;
}

}  // namespace
}  // namespace ts::verify
