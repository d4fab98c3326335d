// build.source-name (signatures.toml EXTENSION_SOURCE_MISSING, the build helper's TORCHSMITH_SOURCE_NAME)
// on a tiny package whose setup.py lists a source the tree renamed, as depth-from-focus's gauss_psf
// (gauss_psf_kernel.cu listed, gauss_psf_cuda_kernel.cu there). The choice alone runs in a plain python3
// on made-up extensions (no setuptools, no compiler: quick); the build runs torch's cpp_extension with
// Debian's torch (g++: the slow tier).
#include <gtest/gtest.h>

#include <filesystem>

#include "run/pyshim.h"
#include "testkit/temp_dir.h"
#include "triage/engine.h"
#include "triage/scanner.h"
#include "util/fs.h"
#include "util/process.h"

namespace ts::run {
namespace {

namespace fs = std::filesystem;

class SourceName : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = tmp_.path();
    ASSERT_EQ(write_pyshim(dir_ + "/pyshim"), "");
    fs::create_directories(dir_ + "/pkg/src");
  }
  void touch(const std::string& rel, const std::string& text = "") {
    ASSERT_EQ(util::write_file_atomic(dir_ + "/pkg/" + rel, text), "");
  }
  util::RunResult python(const std::string& python, std::vector<std::string> args, bool remedy) {
    util::RunOptions o;
    o.timeout = std::chrono::seconds(240);
    o.cwd = dir_ + "/pkg";
    o.extra_env["PYTHONPATH"] = dir_ + "/pyshim";
    if (remedy) o.extra_env["TORCHSMITH_SOURCE_NAME"] = "1";
    args.insert(args.begin(), python);
    return util::run(args, o);
  }
  testkit::TempDir tmp_{"ts-srcname"};
  std::string dir_;
};

// The helper's choice for each missing source, on extensions as setup.py would make them.
constexpr const char* kChoosePy = R"PY(import os, types, sitecustomize as s
E = types.SimpleNamespace
exts = [E(name="renamed", sources=["src/gauss_psf_cuda.cpp", "src/gauss_psf_kernel.cu"]),
        E(name="two", sources=["src/a_b.cu"]),
        E(name="listed", sources=["src/k.cu"]), E(name="other", sources=["src/listed_k_z.cu"]),
        E(name="words", sources=["src/nomatch.cu"]),
        E(name="shared", sources=["src/p_q.cu", "src/q_p.cu"]),
        E(name="oneword", sources=["src/m_i_cudae_cuda.cpp"]), E(name="twowords", sources=["src/u_v_w_x.cu"]),
        E(name="twoshort", sources=["src/c_d_e.cu"]), E(name="whole", sources=["src/s_t_u.cu"])]
s._rename_missing_sources(exts, os.getcwd())
for e in exts:
    print(e.name, " ".join(e.sources))
)PY";

TEST_F(SourceName, TheOneFileBesideItWithItsWordsAndSuffixAndOnlyThat) {
  if (!util::run({"python3", "-c", "pass"}).ok()) GTEST_SKIP() << "no python3";
  for (const char* f : {"src/gauss_psf_cuda.cpp", "src/gauss_psf_cuda_kernel.cu", "src/a_b_x.cu", "src/a_b_y.cu",
                        "src/listed_k_z.cu", "src/k_z.cpp", "src/nomatch.cpp", "src/other.cu", "src/p_q_r.cu",
                        "src/m_i_cuda.cpp", "src/u_v.cu", "src/c_d.cu", "src/d_e.cu", "src/s_t_u_v.cu", "src/s_t.cu"})
    touch(f);
  touch("choose.py", kChoosePy);
  auto r = python("python3", {"choose.py"}, false);
  ASSERT_TRUE(r.ok()) << r.err;
  // Renamed: the one .cu beside it whose name holds gauss, psf and kernel. Near misses, each left as it
  // was: two candidates; the only one with its words is another extension's source (k_z.cpp: another
  // suffix); no file holds its words (nomatch.cpp: another suffix); one file two missing names would take.
  EXPECT_EQ(r.out, "renamed src/gauss_psf_cuda.cpp src/gauss_psf_cuda_kernel.cu\ntwo src/a_b.cu\nlisted src/k.cu\n"
                   "other src/listed_k_z.cu\nwords src/nomatch.cu\nshared src/p_q.cu src/q_p.cu\n"
                   "oneword src/m_i_cuda.cpp\ntwowords src/u_v_w_x.cu\ntwoshort src/c_d_e.cu\nwhole src/s_t_u_v.cu\n");
  EXPECT_NE(r.err.find("torchsmith: [build.source-name] renamed: src/gauss_psf_kernel.cu, a listed source, does not "
                       "exist; src/gauss_psf_cuda_kernel.cu, the one .cu file beside it that no extension lists and whose "
                       "name holds gauss+psf+kernel, built in its place (TORCHSMITH_SOURCE_NAME)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("two: src/a_b.cu, a listed source, does not exist, and 2 files beside it could be it "
                       "(a_b_x.cu, a_b_y.cu): left as it is"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("listed: src/k.cu, a listed source, does not exist, and no .cu file beside it that no extension "
                       "lists has a name holding k: left as it is"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("words: src/nomatch.cu, a listed source, does not exist, and no .cu file"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("shared: src/q_p.cu, a listed source, does not exist, and p_q_r.cu is the only match of 2 "
                       "missing sources: left as it is"), std::string::npos) << r.err;
  // A listed name with one word too many (fast-snarf's check_sign: mesh_intersection_cudae_cuda.cpp listed,
  // mesh_intersection_cuda.cpp there), which no file holds every word of: the one file whose words it
  // holds with one more. Near misses: two words more (u_v.cu), two such files (c_d.cu, d_e.cu), and a
  // file holding every word (s_t_u_v.cu) wins over one lacking one (s_t.cu).
  EXPECT_NE(r.err.find("oneword: src/m_i_cudae_cuda.cpp, a listed source, does not exist; src/m_i_cuda.cpp, the one "
                       ".cpp file beside it that no extension lists and whose name holds m+i+cuda (all but cudae, a "
                       "word too many in the listed name), built in its place"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("twowords: src/u_v_w_x.cu, a listed source, does not exist, and no .cu file beside it that no "
                       "extension lists has a name holding u+v+w+x: left as it is"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("twoshort: src/c_d_e.cu, a listed source, does not exist, and no .cu file beside it that no "
                       "extension lists has a name holding c+d+e (2 hold all of its words but one: c_d.cu, d_e.cu): "
                       "left as it is"), std::string::npos) << r.err;
}

// ml3d_msn's MDS/setup.py lists its sources by absolute paths of the author's machine
// ('/content/ml3d_msn/MDS/MDS.cpp'): each is this tree's file at the longest tail of that path that
// names one. Near misses: a foreign path whose tails name nothing here, an absolute path inside the tree
// (left to the renamed-source rule), and one outside it that exists are left as they are.
constexpr const char* kForeignPy = R"PY(import os, types, sitecustomize as s
E = types.SimpleNamespace
here = os.getcwd()
exts = [E(name="MDS", sources=["/content/ml3d_msn/MDS/MDS_cuda.cu", "/content/ml3d_msn/MDS/src/k.cu"]),
        E(name="gone", sources=["/home/me/proj/absent.cu"]),
        E(name="inside", sources=[here + "/src/nothere.cu"]),
        E(name="there", sources=["/dev/null"])]
s._take_foreign_sources(exts, here)
for e in exts:
    print(e.name, " ".join(x.replace(here, "HERE") for x in e.sources))
)PY";

TEST_F(SourceName, AnAbsolutePathOfTheAuthorsMachineIsTheTreesFileAtItsTail) {
  if (!util::run({"python3", "-c", "pass"}).ok()) GTEST_SKIP() << "no python3";
  touch("MDS_cuda.cu");
  touch("src/k.cu");
  touch("foreign.py", kForeignPy);
  auto r = python("python3", {"foreign.py"}, false);
  ASSERT_TRUE(r.ok()) << r.err;
  EXPECT_EQ(r.out, "MDS HERE/MDS_cuda.cu HERE/src/k.cu\ngone /home/me/proj/absent.cu\ninside HERE/src/nothere.cu\n"
                   "there /dev/null\n");
  EXPECT_NE(r.err.find("[build.source-name] MDS: /content/ml3d_msn/MDS/MDS_cuda.cu, a listed source outside this tree "
                       "(a path of the author's machine), does not exist; MDS_cuda.cu, this tree's file at the same "
                       "path's tail, built in its place"), std::string::npos) << r.err;
}

// The build: without the remedy the compile stops on the missing source, in a wording triage names
// EXTENSION_SOURCE_MISSING; with it the extension builds from the renamed file and answers.
TEST_F(SourceName, APackageListingARenamedSourceBuildsWithTheRemedy) {
  const std::string py = "/usr/bin/python3";
  if (!util::run({py, "-c", "import torch.utils.cpp_extension"}, {std::chrono::seconds(60)}).ok())
    GTEST_SKIP() << "/usr/bin/python3 has no torch (python3-torch)";
  // pybind11 alone (torch's copy, on cpp_extension's include path): torch/extension.h would cost ~20 s more.
  touch("src/value_cpu_ops.cpp", "#include <pybind11/pybind11.h>\nint value() { return 42; }\n"
                                 "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def(\"value\", &value); }\n");
  touch("setup.py", "from setuptools import setup\nfrom torch.utils.cpp_extension import BuildExtension, CppExtension\n"
                    "setup(name='lt_srcname', ext_modules=[CppExtension('lt_srcname_ext', ['src/value_ops.cpp'])],\n"
                    "      cmdclass={'build_ext': BuildExtension})\n");
  auto plain = python(py, {"setup.py", "build_ext", "--inplace"}, false);
  EXPECT_FALSE(plain.ok());
  std::vector<std::string> errors;
  const triage::Engine engine(triage::load_signatures({}, errors));
  ASSERT_TRUE(errors.empty()) << errors.front();
  auto d = triage::diagnose_text(engine, plain.out + plain.err);
  ASSERT_NE(d.root(), nullptr) << plain.out << plain.err;
  EXPECT_EQ(d.root()->id, "EXTENSION_SOURCE_MISSING") << plain.out << plain.err;
  EXPECT_NE(d.root()->cause.find("src/value_ops.cpp"), std::string::npos) << d.root()->cause;
  auto fixed = python(py, {"setup.py", "build_ext", "--inplace"}, true);
  ASSERT_TRUE(fixed.ok()) << fixed.out << fixed.err;
  EXPECT_NE(fixed.err.find("[build.source-name] lt_srcname_ext: src/value_ops.cpp, a listed source, does not exist; "
                           "src/value_cpu_ops.cpp"), std::string::npos) << fixed.err;
  auto value = python(py, {"-c", "import torch, lt_srcname_ext as m; print(m.value())"}, false);
  EXPECT_EQ(value.out, "42\n") << value.err;
  // The package's files are not changed: setup.py still lists the name the tree lacks.
  EXPECT_FALSE(fs::exists(dir_ + "/pkg/src/value_ops.cpp"));
}

}  // namespace
}  // namespace ts::run
