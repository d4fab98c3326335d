// What a package directory reaches above itself through quoted includes (fairseq's lightconv_layer:
// `#include "../cuda_utils.cu"`), in turn through what those files include; near misses reach nothing.
#include "source/outside_reach.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "testkit/temp_dir.h"

namespace ts::source {
namespace {

namespace fs = std::filesystem;

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

TEST(OutsideReach, AnIncludeAboveThePackageAndWhatItIncludesAreFound) {
  testkit::TempDir t;
  fs::path repo = fs::path(t.path()) / "fairseq/modules";
  write(repo / "lightconv_layer/lightconv_cuda_kernel.cu", "#include \"lightconv_cuda.cuh\"\n#include \"../cuda_utils.cu\"\n");
  write(repo / "lightconv_layer/lightconv_cuda.cuh", "#pragma once\n");
  write(repo / "cuda_utils.cu", "#include \"common/limits.h\"\n");
  write(repo / "common/limits.h", "#pragma once\n");
  write(repo / "unrelated.cu", "int x;\n");
  auto r = find_outside_reach((repo / "lightconv_layer").string());
  EXPECT_EQ(r.depth, 1);
  EXPECT_EQ(r.files, (std::vector<std::string>{"../cuda_utils.cu", "../common/limits.h"}));
  ASSERT_FALSE(r.why.empty());
  EXPECT_EQ(r.why[0], "lightconv_cuda_kernel.cu:2: #include \"../cuda_utils.cu\"");
  EXPECT_EQ(tail_components((repo / "lightconv_layer").string(), r.depth), "lightconv_layer");
  EXPECT_EQ(tail_components("/a/b/c", 2), "b/c");
}

TEST(OutsideReach, IncludesThatStayInsideOrFindNothingReachNothing) {
  testkit::TempDir t;
  fs::path pkg = fs::path(t.path()) / "pkg";
  write(pkg / "src/a.cpp", "#include \"../include/a.h\"\n#include \"../../missing.h\"\n// #include \"../../x.h\" is a comment\n");
  write(pkg / "include/a.h", "#pragma once\n");
  write(fs::path(t.path()) / "x.h", "\n");
  write(fs::path(t.path()) / "far/away/deep.h", "\n");
  write(pkg / "b.cpp", "#include <../system.h>\n");
  auto r = find_outside_reach(pkg.string());
  EXPECT_EQ(r.depth, 0);
  EXPECT_TRUE(r.files.empty());
}

// NeuralTracking's csrc/setup.py: include_dirs holds os.path.join(os.path.dirname(__file__), '..',
// 'external', 'eigen3'), a directory of the repository beside csrc that no quoted include names.
TEST(OutsideReach, ADirectoryTheSetupPyNamesAboveThePackageIsCarriedWhole) {
  testkit::TempDir t;
  fs::path repo = fs::path(t.path()) / "NeuralTracking";
  write(repo / "csrc/setup.py",
        "import os\n"
        "# eigen = os.path.join('..', 'not', 'this')\n"
        "def get_extensions():\n"
        "    eigen_include_dir = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', 'external', 'eigen3'))\n"
        "    srcs = ['main.cpp', '../shared/util.cpp']\n"
        "    return [eigen_include_dir, srcs]\n");
  write(repo / "csrc/main.cpp", "#include <Eigen/Dense>\n");
  write(repo / "external/eigen3/Eigen/Dense", "#include \"Core\"\n");
  write(repo / "external/eigen3/Eigen/Core", "\n");
  write(repo / "shared/util.cpp", "#include \"util.h\"\n");
  write(repo / "shared/util.h", "\n");
  write(repo / "not/this/x.h", "\n");
  write(repo / "experiments/model.pt", "weights");
  auto r = find_outside_reach((repo / "csrc").string());
  EXPECT_EQ(r.depth, 1);
  // setup.py's first, in its order (a directory's files sorted), then what a file it names includes.
  EXPECT_EQ(r.files, (std::vector<std::string>{"../external/eigen3/Eigen/Core", "../external/eigen3/Eigen/Dense",
                                               "../shared/util.cpp", "../shared/util.h"}));
  ASSERT_EQ(r.why.size(), 4u);
  EXPECT_EQ(r.why[0].rfind("setup.py:4: eigen_include_dir = os.path.abspath(os.path.join(", 0), 0u) << r.why[1];
  EXPECT_TRUE(r.left.empty());
}

TEST(OutsideReach, SetupPyPathsAboveAreJoinedOnlyWhereTheyJoin) {
  using P = std::vector<std::pair<std::string, int>>;
  EXPECT_EQ(setup_py_paths_above("d = os.path.join(here, os.pardir, 'third_party',\n    'cub')\n"), (P{{"../third_party/cub", 1}}));
  EXPECT_EQ(setup_py_paths_above("p = Path(__file__).parent / '..' / 'include'\n"), (P{{"../include", 1}}));
  // A list of sources is no join; a join back inside, an absolute path, an f-string and a docstring reach nothing.
  EXPECT_EQ(setup_py_paths_above("s = ['../a.cpp', '../b.cpp']\n"), (P{{"../a.cpp", 1}, {"../b.cpp", 1}}));
  EXPECT_TRUE(setup_py_paths_above("x = osp.join(d, 'sub', '..', 'inc')\ny = '/usr/../include'\n"
                                   "z = f'../{name}'\n\"\"\"\nsee '../docs'\n\"\"\"\n").empty());
}

// Near misses: the repository root itself (a sys.path entry), a path above that does not exist (CAFI's
// compiler_args.json, written by a script), one more levels up than the copy takes: nothing carried.
TEST(OutsideReach, SetupPyPathsThatHoldThePackageOrAreNotThereReachNothing) {
  testkit::TempDir t;
  fs::path repo = fs::path(t.path()) / "a/b/c/repo";
  write(repo / "pkg/setup.py",
        "import sys, os\nsys.path.append(os.path.abspath(os.path.join(os.path.dirname(__file__), '..')))\n"
        "args = open('../../compiler_args.json')\ninc = '../../../../far'\n");
  write(repo / "pkg/k.cpp", "int k;\n");
  write(fs::path(t.path()) / "far/x.h", "\n");
  auto r = find_outside_reach((repo / "pkg").string());
  EXPECT_EQ(r.depth, 0);
  EXPECT_TRUE(r.files.empty());
  ASSERT_EQ(r.left.size(), 1u);
  EXPECT_EQ(r.left[0].rfind("..: holds the package itself (setup.py:2: ", 0), 0u) << r.left[0];
}

// AudioStyleNet's op/setup.py finds its sources as `Path(__file__).parent / '..' / 'op'`: the package
// itself by its folder's name, so the copy keeps that name (depth 1, nothing above to copy); two levels
// back (`'../../models/op'`) keep two. Near miss: a parent path naming a sibling that is not there.
TEST(OutsideReach, ThePackagesOwnFolderByNameKeepsItsName) {
  testkit::TempDir t;
  fs::path repo = fs::path(t.path()) / "AudioStyleNet";
  write(repo / "op/setup.py", "from pathlib import Path\nrootdir = (Path(__file__).parent / '..' / 'op').resolve()\n"
                              "srcs = [str(rootdir / 'upfirdn2d.cpp')]\n");
  write(repo / "op/upfirdn2d.cpp", "int k;\n");
  auto r = find_outside_reach((repo / "op").string());
  EXPECT_EQ(r.depth, 1);
  EXPECT_TRUE(r.files.empty());
  EXPECT_TRUE(r.left.empty());
  ASSERT_EQ(r.own_name.size(), 1u);
  EXPECT_EQ(r.own_name[0], "../op: the package's own folder by its name (setup.py:2: rootdir = (Path(__file__).parent "
                           "/ '..' / 'op').resolve())");
  EXPECT_EQ(tail_components((repo / "op").string(), r.depth), "op");

  write(repo / "models/op/setup.py", "import os\nd = os.path.join(os.path.dirname(__file__), '../../models/op')\n");
  auto two = find_outside_reach((repo / "models/op").string());
  EXPECT_EQ(two.depth, 2);
  EXPECT_EQ(tail_components((repo / "models/op").string(), two.depth), "models/op");

  write(repo / "near/setup.py", "from pathlib import Path\nrootdir = Path(__file__).parent / '..' / 'op2'\n");
  auto near = find_outside_reach((repo / "near").string());
  EXPECT_EQ(near.depth, 0);
  EXPECT_TRUE(near.own_name.empty());
}

}  // namespace
}  // namespace ts::source
