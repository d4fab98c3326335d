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

// OpenVideoEnhance's setup.py: packages=['extension'] (a folder of .cc/.cu sources, no Python file) beside
// the ove_ext.* extensions; setuptools lists both in top_level.txt, the wheel holds ove_ext/ alone.
TEST(WheelMeta, ATopLevelNameTheWheelHoldsNoFileOfIsNotImported) {
  auto w = wheel_meta_from({"ove_ext/dain/correlation.cpython-312-x86_64-linux-gnu.so",
                            "ove_ext/basicsr/dcn.cpython-312-x86_64-linux-gnu.so", "ove_ext-1.0.0.dist-info/METADATA",
                            "ove_ext-1.0.0.dist-info/top_level.txt"},
                           "Name: ove_ext\n", "extension\nove_ext\n");
  EXPECT_EQ(w.top_level, (V{"ove_ext"}));  // a namespace package (no __init__.py) is still there
  EXPECT_EQ(w.top_level_empty, (V{"extension"}));
  // Near misses: a listed package with files, a listed module file, a namespace part ("pkg/sub")
  // and a listed name only under .data/platlib each stay.
  auto k = wheel_meta_from({"extension/__init__.py", "mod.cpython-312-x86_64-linux-gnu.so", "ns/sub/x.py",
                            "p-1.data/platlib/plat/y.py", "p-1.dist-info/METADATA"},
                           "Name: p\n", "extension\nmod\nns/sub\nplat\n");
  EXPECT_EQ(k.top_level, (V{"extension", "mod", "ns", "plat"}));
  EXPECT_TRUE(k.top_level_empty.empty());
  // None of the listed names there: the wheel's own files say what imports.
  auto n = wheel_meta_from({"real/__init__.py", "p-1.dist-info/METADATA"}, "Name: p\n", "gone\n");
  EXPECT_EQ(n.top_level, (V{"real"}));
  EXPECT_EQ(n.top_level_empty, (V{"gone"}));
}

// setuptools' top_level.txt names setup()'s names, not the wheel's files: an extension without its
// ext_package (PyTorch-EMDLoss: ext_package='_emd_ext', CUDAExtension('_emd'); srrcomp: 'eden_utils'
// under ext_package='srrcomp') and a py_modules= name with no NAME.py (openretro's gln_model:
// py_modules=['gln'] for a package directory). The bare names are not imported; the package the
// extension sits in is. Near miss: a top_level.txt that lists the extension's package already.
TEST(WheelMeta, AnExtensionUnderExtPackageImportsAsItsPackageNotAsTopLevelTxtsName) {
  auto e = wheel_meta_from({"emd/__init__.py", "emd/emd_loss_layer.py", "_emd_ext/_emd.cpython-312-x86_64-linux-gnu.so",
                            "pytorch_emd-0.0.dist-info/METADATA"},
                           "Name: PyTorch EMD\n", "_emd\nemd\n");
  EXPECT_EQ(e.top_level, (V{"emd", "_emd_ext"}));
  EXPECT_EQ(e.top_level_empty, (V{"_emd"}));
  auto g = wheel_meta_from({"extlib.cpython-312-x86_64-linux-gnu.so", "extlib_cuda.cpython-312-x86_64-linux-gnu.so",
                            "gln-0.0.0.dist-info/METADATA"},
                           "Name: gln\n", "extlib\nextlib_cuda\ngln\n");
  EXPECT_EQ(g.top_level, (V{"extlib", "extlib_cuda"}));
  EXPECT_EQ(g.top_level_empty, (V{"gln"}));
  auto k = wheel_meta_from({"srrcomp/__init__.py", "srrcomp/eden_utils.cpython-312-x86_64-linux-gnu.so",
                            "srrcomp-0.1.3.dist-info/METADATA"},
                           "Name: srrcomp\n", "srrcomp\n");
  EXPECT_EQ(k.top_level, (V{"srrcomp"}));
  EXPECT_TRUE(k.top_level_empty.empty());
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

// An op library (no PyInit_, loaded by the package through torch.ops.load_library) is kept apart
// from the modules verify imports: importing a CPU and a CUDA variant into one process aborts it.
TEST(WheelMeta, ASharedLibraryWithoutPyInitIsAnOpLibrary) {
  test::TempDir t;
  auto cc = [&](const std::string& src, const std::string& out) {
    test::write(t / "s.c", src);
    return test::run({"cc", "-shared", "-fPIC", "-o", out, t / "s.c"});
  };
  auto r = cc("int PyInit__C(void) { return 0; }\n", t / "_C.so");
  if (r.not_found) GTEST_SKIP() << "no cc";
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The name PyInit__basis_cpu appears only as a prefix of another symbol: still no PyInit.
  ASSERT_EQ(cc("int spline_basis_cpu(void) { return 1; }\nint PyInit__basis_cpu_not(void) { return 0; }\n",
               t / "_basis_cpu.so").exit_code, 0);
  std::string whl = t / "p-1.0-cp311-cp311-linux_x86_64.whl";
  r = test::run({"/usr/bin/python3", "-c",
                 "import sys, zipfile\n"
                 "with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:\n"
                 "    z.writestr('p/__init__.py', '')\n"
                 "    z.write(sys.argv[2], 'p/_C.cpython-311-x86_64-linux-gnu.so')\n"
                 "    z.write(sys.argv[3], 'p/_basis_cpu.so')\n"
                 "    z.writestr('p-1.0.dist-info/METADATA', 'Name: p\\nVersion: 1.0\\n')\n",
                 whl, t / "_C.so", t / "_basis_cpu.so"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string err;
  auto w = read_wheel_meta(whl, &err);
  ASSERT_TRUE(w) << err;
  EXPECT_EQ(w->compiled, (V{"p._C", "p._basis_cpu"}));  // the wheel's names alone cannot tell
  // Where the wheel was installed, each file says what it is.
  test::write(t / "site/p/__init__.py", "");
  ASSERT_EQ(test::run({"cp", t / "_C.so", t / "site/p/_C.cpython-311-x86_64-linux-gnu.so"}).exit_code, 0);
  ASSERT_EQ(test::run({"cp", t / "_basis_cpu.so", t / "site/p/_basis_cpu.so"}).exit_code, 0);
  split_op_libraries(*w, t / "site");
  EXPECT_EQ(w->compiled, (V{"p._C"}));
  EXPECT_EQ(w->libraries, (V{"p._basis_cpu"}));
  // A file that is not there (an install that failed) stays a module: the import says why.
  auto gone = read_wheel_meta(whl, &err);
  split_op_libraries(*gone, t / "nowhere");
  EXPECT_EQ(gone->compiled, (V{"p._C", "p._basis_cpu"}));
  // Bytes that are not ELF are imported as before, never called a library.
  const unsigned char junk[] = "not an elf file at all";
  EXPECT_FALSE(elf_is_plain_library(junk, sizeof junk, "x"));
}

}  // namespace
}  // namespace ts::verify
