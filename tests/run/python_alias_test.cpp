// build.python-alias (signatures.toml PY312_CONFIGPARSER_REMOVED, the build helper's TORCHSMITH_PY_ALIASES):
// a versioneer-like setup step that reads setup.cfg through configparser.SafeConfigParser() and readfp(),
// which Python 3.12 removed (neuralnet-pytorch's versioneer.py stopped there). The mechanism runs in any
// python3 on a made-up module that lacks the removed names; the real removal needs a Python >= 3.12
// (skipped where none is found). No compiler, no torch: quick.
#include <gtest/gtest.h>

#include <cstdlib>
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

// The alias table the signature carries (its env), read from the shipped signatures, so the test
// checks the data the run hands the helper and not a copy of it.
std::string signature_aliases() {
  std::vector<std::string> errors;
  const auto set = triage::load_signatures({}, errors);
  const triage::Signature* s = set.find("PY312_CONFIGPARSER_REMOVED");
  if (!s) return "";
  auto it = s->remedy.env.find("TORCHSMITH_PY_ALIASES");
  return it == s->remedy.env.end() ? "" : it->second;
}

class PythonAlias : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = tmp_.path();
    ASSERT_EQ(write_pyshim(dir_ + "/pyshim"), "");
    fs::create_directories(dir_ + "/pkg");
  }
  void touch(const std::string& rel, const std::string& text) {
    ASSERT_EQ(util::write_file_atomic(dir_ + "/pkg/" + rel, text), "");
  }
  util::RunResult python(const std::string& python, const std::string& script, const std::string& aliases) {
    util::RunOptions o;
    o.timeout = std::chrono::seconds(60);
    o.cwd = dir_ + "/pkg";
    o.extra_env["PYTHONPATH"] = dir_ + "/pyshim";
    if (!aliases.empty()) o.extra_env["TORCHSMITH_PY_ALIASES"] = aliases;
    return util::run({python, script}, o);
  }
  testkit::TempDir tmp_{"ts-pyalias"};
  std::string dir_;
};

// What an old versioneer.py's get_config_from_root does.
constexpr const char* kVersioneerPy = R"PY(import configparser
parser = configparser.SafeConfigParser()
with open("setup.cfg") as f:
    parser.readfp(f)
print("VCS", parser.get("versioneer", "VCS"))
)PY";

// A Python >= 3.12 here, or "".
std::string python312() {
  std::vector<std::string> candidates{"python3"};
  if (const char* home = std::getenv("HOME")) {  // pyenv's interpreters, before its shims (slow shell scripts)
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(fs::path(home) / ".pyenv/versions", ec))
      candidates.push_back((e.path() / "bin/python3").string());
  }
  candidates.insert(candidates.end(), {"python3.13", "python3.12"});
  for (const auto& p : candidates)
    if (util::run({p, "-c", "import sys; sys.exit(sys.version_info < (3, 12))"}, {std::chrono::seconds(20)}).ok()) return p;
  return "";
}

// The mechanism on a module that lacks the old names (as configparser does on 3.12): each is given back as
// the name it aliased, on the module and on a class. Near misses: a name the module still has keeps its
// own value; an alias of a name the module lacks too is not made.
TEST_F(PythonAlias, ARemovedNameIsGivenBackAsItsAliasOnlyWhereAbsent) {
  if (!util::run({"python3", "-c", "pass"}).ok()) GTEST_SKIP() << "no python3";
  touch("oldcfg.py", "class Parser:\n    def read_file(self, f):\n        return 'read ' + f\n"
                     "Kept = 'kept'\nOwn = 'own'\nStillHere = 'still'\n");
  touch("use.py", "import oldcfg\nprint(oldcfg.SafeParser().readfp('x'))\nprint(oldcfg.StillHere)\n"
                  "print(hasattr(oldcfg, 'Ghost'))\n");
  const std::string table = "oldcfg:SafeParser=Parser oldcfg:Parser.readfp=read_file oldcfg:StillHere=Own oldcfg:Ghost=Nowhere";
  auto plain = python("python3", "use.py", "");
  EXPECT_FALSE(plain.ok());
  EXPECT_NE(plain.err.find("has no attribute 'SafeParser'"), std::string::npos) << plain.err;
  auto given = python("python3", "use.py", table);
  ASSERT_TRUE(given.ok()) << given.err;
  EXPECT_EQ(given.out, "read x\nstill\nFalse\n");
  EXPECT_NE(given.err.find("torchsmith: [build.python-alias] oldcfg.SafeParser, which this Python removed, is "
                           "oldcfg.Parser again in this build (TORCHSMITH_PY_ALIASES)"), std::string::npos) << given.err;
  EXPECT_NE(given.err.find("oldcfg.Parser.readfp, which this Python removed, is oldcfg.Parser.read_file"), std::string::npos) << given.err;
  EXPECT_EQ(given.err.find("StillHere"), std::string::npos) << given.err;
  EXPECT_EQ(given.err.find("Ghost"), std::string::npos) << given.err;
}

// The real removal: on Python >= 3.12 the versioneer step fails in the wording triage names
// PY312_CONFIGPARSER_REMOVED, and with the signature's own table it reads setup.cfg.
TEST_F(PythonAlias, AnOldVersioneerReadsSetupCfgOnPython312WithTheSignaturesTable) {
  const std::string py = python312();
  if (py.empty()) GTEST_SKIP() << "no Python >= 3.12 here";
  const std::string table = signature_aliases();
  ASSERT_FALSE(table.empty());
  touch("setup.cfg", "[versioneer]\nVCS = git\n");
  touch("versioneer_step.py", kVersioneerPy);
  auto plain = python(py, "versioneer_step.py", "");
  EXPECT_FALSE(plain.ok());
  std::vector<std::string> errors;
  const triage::Engine engine(triage::load_signatures({}, errors));
  ASSERT_TRUE(errors.empty()) << errors.front();
  auto d = triage::diagnose_text(engine, plain.out + plain.err);
  ASSERT_NE(d.root(), nullptr) << plain.err;
  EXPECT_EQ(d.root()->id, "PY312_CONFIGPARSER_REMOVED") << plain.err;
  auto fixed = python(py, "versioneer_step.py", table);
  ASSERT_TRUE(fixed.ok()) << fixed.err;
  EXPECT_EQ(fixed.out, "VCS git\n");
  // readfp's removal alone (SafeConfigParser already gone from the script) is named too.
  touch("readfp_step.py", "import configparser\np = configparser.ConfigParser()\np.readfp(open('setup.cfg'))\n");
  auto readfp = python(py, "readfp_step.py", "");
  auto d2 = triage::diagnose_text(engine, readfp.out + readfp.err);
  ASSERT_NE(d2.root(), nullptr) << readfp.err;
  EXPECT_EQ(d2.root()->id, "PY312_CONFIGPARSER_REMOVED") << readfp.err;
}

}  // namespace
}  // namespace ts::run
