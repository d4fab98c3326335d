// port.merge-conflict-same-code's transform (source/merge_conflict.h): a committed conflict block is
// resolved only where its two sides are the same Python code. The blocks are DCNv2_latest@ae6ecce's
// (setup.py's two, dcn_v2.py's one); near misses: sides that differ in code, in indentation, in a
// one-item tuple's comma, a nested or unclosed block, and a file with no block.
#include "source/merge_conflict.h"

#include <gtest/gtest.h>

#include "source/port.h"
#include "testkit/temp_dir.h"
#include "util/fs.h"
#include "util/process.h"

namespace ts::source {
namespace {

constexpr const char* kSetupPy =
    "    source_cuda = glob.glob(os.path.join(extensions_dir, \"cuda\", \"*.cu\"))\n"
    "<<<<<<< HEAD\n"
    "    \n"
    "=======\n"
    "\n"
    ">>>>>>> 977dfd39b3536ba20baee06d1055d2bd5a5e9593\n"
    "    os.environ[\"CC\"] = \"g++\"\n"
    "    if torch.cuda.is_available():\n"
    "        extension = CUDAExtension\n"
    "    else:\n"
    "<<<<<<< HEAD\n"
    "        #raise NotImplementedError('Cuda is not available')\n"
    "        pass\n"
    "    \n"
    "=======\n"
    "        # raise NotImplementedError('Cuda is not available')\n"
    "        pass\n"
    ">>>>>>> 977dfd39b3536ba20baee06d1055d2bd5a5e9593\n"
    "\n"
    "    sources = [os.path.join(extensions_dir, s) for s in sources]\n";

constexpr const char* kDcnPy =
    "        # only roi_align\n"
    "<<<<<<< HEAD\n"
    "        return dcn_v2_pooling(input, rois, offset,\n"
    "                              self.spatial_scale,\n"
    "                              self.trans_std)\n"
    "=======\n"
    "        return dcn_v2_pooling(\n"
    "            input,\n"
    "            rois,\n"
    "            offset,\n"
    "            self.spatial_scale,\n"
    "            self.trans_std,\n"
    "        )\n"
    ">>>>>>> 977dfd39b3536ba20baee06d1055d2bd5a5e9593\n";

TEST(MergeConflict, TwoReformattingsOfTheSameCodeKeepTheFirstSide) {
  auto setup = resolve_same_code_conflicts(kSetupPy);
  ASSERT_TRUE(setup.has_value());
  EXPECT_EQ(*setup,
            "    source_cuda = glob.glob(os.path.join(extensions_dir, \"cuda\", \"*.cu\"))\n"
            "    \n"
            "    os.environ[\"CC\"] = \"g++\"\n"
            "    if torch.cuda.is_available():\n"
            "        extension = CUDAExtension\n"
            "    else:\n"
            "        #raise NotImplementedError('Cuda is not available')\n"
            "        pass\n"
            "    \n"
            "\n"
            "    sources = [os.path.join(extensions_dir, s) for s in sources]\n");
  auto dcn = resolve_same_code_conflicts(kDcnPy);
  ASSERT_TRUE(dcn.has_value());
  EXPECT_EQ(*dcn,
            "        # only roi_align\n"
            "        return dcn_v2_pooling(input, rois, offset,\n"
            "                              self.spatial_scale,\n"
            "                              self.trans_std)\n");
  // diff3's merge base between the sides is not compared.
  auto diff3 = resolve_same_code_conflicts("<<<<<<< ours\nx = f(a, b)\n||||||| base\nx = 1\n=======\nx = f(a,\n      b,)\n>>>>>>> theirs\n");
  ASSERT_TRUE(diff3.has_value());
  EXPECT_EQ(*diff3, "x = f(a, b)\n");
}

TEST(MergeConflict, SidesThatDifferInCodeOrAMalformedBlockLeaveTheFile) {
  // Another argument; another string; a statement moved out of the if (indentation); a one-item tuple
  // against a parenthesised name; a comment that is a string on the other side.
  for (const char* text : {"<<<<<<< a\nf(x, y)\n=======\nf(x, z)\n>>>>>>> b\n",
                           "<<<<<<< a\nprint('Cuda is not available')\n=======\nprint(\"Cuda is not available\")\n>>>>>>> b\n",
                           "if x:\n<<<<<<< a\n    a()\n    b()\n=======\n    a()\nb()\n>>>>>>> b\n",
                           "<<<<<<< a\nt = (x,)\n=======\nt = (x)\n>>>>>>> b\n",
                           "<<<<<<< a\ns = '# n'\n=======\ns = ''\n>>>>>>> b\n"})
    EXPECT_FALSE(resolve_same_code_conflicts(text).has_value()) << text;
  // One block the same and one not: the file is left whole.
  EXPECT_FALSE(resolve_same_code_conflicts("<<<<<<< a\nx = 1\n=======\nx  =  1\n>>>>>>> b\n"
                                           "<<<<<<< a\ny = 1\n=======\ny = 2\n>>>>>>> b\n")
                   .has_value());
  // Nested, unclosed, no separator, no block at all.
  EXPECT_FALSE(resolve_same_code_conflicts("<<<<<<< a\n<<<<<<< c\nx\n=======\nx\n>>>>>>> d\n=======\n>>>>>>> b\n").has_value());
  EXPECT_FALSE(resolve_same_code_conflicts("<<<<<<< a\nx = 1\n=======\nx = 1\n").has_value());
  EXPECT_FALSE(resolve_same_code_conflicts("<<<<<<< a\nx = 1\n>>>>>>> b\n").has_value());
  EXPECT_FALSE(resolve_same_code_conflicts("x = 1\n=======\n").has_value());
}

TEST(MergeConflict, TokensKeepWhatPythonReads) {
  EXPECT_EQ(python_code_tokens("f(a,\n  b,)  # c\n"), python_code_tokens("f(a, b)\n"));
  // One item keeps its comma whatever the bracket (a list's would not matter, a subscript's does).
  EXPECT_NE(python_code_tokens("[a,]"), python_code_tokens("[a]"));
  EXPECT_NE(python_code_tokens("x[a,]"), python_code_tokens("x[a]"));  // a one-item tuple index
  EXPECT_NE(python_code_tokens("if x:\n    y\n"), python_code_tokens("if x:\n  y\n"));
  EXPECT_EQ(python_code_tokens("s = '''a  #\n  b'''\n"), (std::vector<std::string>{"\n", "s", "=", "'''a  #\n  b'''"}));
  EXPECT_EQ(python_code_tokens("x = rb'\\'' # q\n"), (std::vector<std::string>{"\n", "x", "=", "rb'\\''"}));
}

// The port as ports.toml ships it, on a copy of a tree: DCNv2_latest's files resolved (python3 compiles
// them where it has one), a file whose sides differ left byte for byte, and the revert restores both.
TEST(MergeConflict, ThePortResolvesACopyAndRevertsByteForByte) {
  std::vector<std::string> errors;
  auto set = load_ports({}, errors);
  ASSERT_TRUE(errors.empty()) << errors.front();
  const Port* p = set.find("port.merge-conflict-same-code");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->answers, std::vector<std::string>{"SOURCE_MERGE_CONFLICT_MARKERS"});
  PortSet one;
  one.ports.push_back(*p);
  testkit::TempDir tmp{"ts-conflict"};
  const std::string setup = std::string("import glob, os, torch\ndef get_extensions():\n") + kSetupPy +
                            "    return sources\n";
  const std::string other = "<<<<<<< a\nx = 1\n=======\nx = 2\n>>>>>>> b\n";
  ASSERT_EQ(util::write_file_atomic(tmp.path() + "/setup.py", setup), "");
  ASSERT_EQ(util::write_file_atomic(tmp.path() + "/other.py", other), "");
  auto r = apply_ports(tmp.path(), one);
  ASSERT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors.front());
  ASSERT_EQ(r.files.size(), 1u);
  EXPECT_EQ(r.files[0].path, "setup.py");
  auto now = util::read_file(tmp.path() + "/setup.py");
  ASSERT_TRUE(now.has_value());
  EXPECT_EQ(now->find("<<<<<<<"), std::string::npos);
  if (util::run({"python3", "-c", "pass"}).ok()) {
    auto c = util::run({"python3", "-c", "import sys; compile(open(sys.argv[1]).read(), 'setup.py', 'exec')",
                        tmp.path() + "/setup.py"});
    EXPECT_TRUE(c.ok()) << c.err;
  }
  EXPECT_EQ(util::read_file(tmp.path() + "/other.py").value_or(""), other);
  EXPECT_EQ(revert_ports(tmp.path()), "");
  EXPECT_EQ(util::read_file(tmp.path() + "/setup.py").value_or(""), setup);
}

}  // namespace
}  // namespace ts::source
