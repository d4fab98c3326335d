// port.python2-tabs's detector and rewrite (source/py_tabs.h): TabError exactly where Python 3's
// compile() raises it, checked against python3 itself where there is one; the rewrite only in a file
// Python 3 refuses, tabs in strings untouched, and what Python 2 read (a tab to the next 8 columns).
#include "source/py_tabs.h"

#include <gtest/gtest.h>

#include "testkit/temp_dir.h"
#include "util/fs.h"
#include "util/process.h"

namespace ts::source {
namespace {

struct Snippet {
  const char* why;
  const char* text;
  bool tab_error;
};

// X-Temporal's temporal_helper.py in small: a block indented with a tab, its next line with 8 spaces.
const char* kMixed = "def f(x):\n\tif x:\n\t\treturn 1\n        return 2\n";

const Snippet kSnippets[] = {
    {"tab, then 8 spaces at the same level", kMixed, true},
    {"a tab-indented body, then spaces one level deeper", "if a:\n\tb = 1\n\tif c:\n\t    d = 2\n", false},
    {"8 spaces, then a tab at the same level", "if a:\n        b = 1\n\tc = 2\n", true},
    {"tabs only (compiles: a near miss)", "if a:\n\tif b:\n\t\tc = 1\n\td = 2\n", false},
    {"spaces only", "if a:\n    b = 1\n", false},
    {"the odd line inside brackets is no indentation", "x = [1,\n\t     2,\n        3]\nif x:\n    y = 1\n", false},
    {"after a backslash", "x = 1 + \\\n\t\t2\nif x:\n    y = 1\n", false},
    {"inside a triple-quoted string", "if a:\n    s = '''\n\tx\n        y'''\n    t = 1\n", false},
    {"a comment-only line with a tab", "if a:\n    b = 1\n\t# note\n    c = 2\n", false},
    {"a # in a string is no comment", "if a:\n    s = '#'\n\tb = 1\n", true},
    {"a bracket in a string is no bracket", "if a:\n    s = '('\n\tb = 1\n", true},
    {"a tab then spaces deeper, then 8 spaces back", "if a:\n\tif b:\n\t    c = 1\n        d = 2\n", true},
};

TEST(PythonTabs, TabErrorWhereTheTokenizerRaisesIt) {
  for (const auto& s : kSnippets) EXPECT_EQ(python_tab_error(s.text), s.tab_error) << s.why;
}

// The table above against python3's own compile(), where this machine has one (one process for all).
TEST(PythonTabs, TheSnippetsAgreeWithPython3) {
  testkit::TempDir t("ts-pytabs");
  std::vector<std::string> argv{"python3", "-c",
                                "import sys\nfor f in sys.argv[1:]:\n try:\n  compile(open(f).read(), f, 'exec'); print('ok')\n"
                                " except TabError:\n  print('tab')\n except SyntaxError as e:\n  print('syntax', e)\n"};
  std::size_t n = 0;
  for (const auto& s : kSnippets) {
    std::string f = t / ("m" + std::to_string(n++) + ".py");
    ASSERT_EQ(util::write_file_atomic(f, s.text), "");
    argv.push_back(f);
  }
  auto r = util::run(argv, {std::chrono::seconds(30)});
  if (!r.ok() && r.out.empty()) GTEST_SKIP() << "no python3: " << r.err;
  std::vector<std::string> said;
  for (std::size_t a = 0, b; (b = r.out.find('\n', a)) != std::string::npos; a = b + 1) said.push_back(r.out.substr(a, b - a));
  ASSERT_EQ(said.size(), n) << r.out << r.err;
  for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(said[i], kSnippets[i].tab_error ? "tab" : "ok") << kSnippets[i].why;
}

TEST(PythonTabs, ExpandsAsPython2ReadIt) {
  auto out = expand_python2_tabs(kMixed);
  ASSERT_TRUE(out);
  EXPECT_EQ(*out, "def f(x):\n        if x:\n                return 1\n        return 2\n");
  EXPECT_FALSE(python_tab_error(*out));
  // A tab after spaces goes to the next multiple of 8, not 8 further; a tab after the indentation stays.
  out = expand_python2_tabs("if a:\n        b = 1\n  \tc =\t2\n");
  ASSERT_TRUE(out);
  EXPECT_EQ(*out, "if a:\n        b = 1\n        c =\t2\n");
}

TEST(PythonTabs, AStringsTabsAndAFileThatCompilesAreLeftAlone) {
  auto out = expand_python2_tabs("if a:\n\ts = '''\n\tkept\n'''\n        b = 1\n");
  ASSERT_TRUE(out);
  EXPECT_EQ(*out, "if a:\n        s = '''\n\tkept\n'''\n        b = 1\n");
  EXPECT_FALSE(expand_python2_tabs("if a:\n\tif b:\n\t\tc = 1\n"));
  EXPECT_FALSE(expand_python2_tabs("x = 1\n"));
}

}  // namespace
}  // namespace ts::source
