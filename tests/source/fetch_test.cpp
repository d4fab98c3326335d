// fetch and the submodule check against local repositories built here: a superproject with a nested
// submodule and a second one pinned at an older commit. Their .gitmodules point at an unreachable
// host, so only the mirror rewrite (url.<local>.insteadOf) makes them reachable: no network at all.
#include <gtest/gtest.h>

#include "source/fetch.h"
#include "test_tree.h"
#include "util/fs.h"

using namespace ts::source;
using namespace ts::source::testkit;

namespace {

ts::util::RunResult git(const std::vector<std::string>& args) {
  std::vector<std::string> argv{"git", "-c", "protocol.file.allow=always", "-c", "init.defaultBranch=main",
                                "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"};
  argv.insert(argv.end(), args.begin(), args.end());
  ts::util::RunOptions o;
  o.timeout = std::chrono::seconds(60);
  auto r = ts::util::run(argv, o);
  EXPECT_TRUE(r.ok()) << args[0] << " " << (args.size() > 2 ? args[2] : "") << ": " << r.err;
  return r;
}

std::string rev(const std::string& repo, const std::string& what = "HEAD") {
  return ts::util::trim(git({"-C", repo, "rev-parse", what}).out);
}

void commit_file(const std::string& repo, const std::string& file, const std::string& text) {
  spit(repo + "/" + file, text);
  git({"-C", repo, "add", file});
  git({"-C", repo, "commit", "-q", "-m", file});
}

const std::string kHost = "https://example.invalid/";

// Adds a submodule from a local path, then makes .gitmodules name it on the unreachable host.
void add_submodule(const std::string& repo, const std::string& from, const std::string& name, const std::string& path) {
  git({"-C", repo, "submodule", "add", "-q", "file://" + from, path});
  git({"-C", repo, "config", "-f", ".gitmodules", "submodule." + path + ".url", kHost + name});
  git({"-C", repo, "add", ".gitmodules"});
}

class FetchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    base = dir / "remote";
    for (const char* n : {"leaf", "mid", "lib", "super"}) git({"init", "-q", base + "/" + n});
    commit_file(base + "/leaf", "leaf.txt", "leaf\n");
    commit_file(base + "/leaf", "LICENSE", "a licence, as real submodules have\n");
    commit_file(base + "/mid", "CMakeLists.txt", "project(mid)\n");
    add_submodule(base + "/mid", base + "/leaf", "leaf", "third_party/leaf");
    git({"-C", base + "/mid", "commit", "-q", "-m", "leaf"});
    commit_file(base + "/lib", "CMakeLists.txt", "project(lib)\n");
    lib_c1 = rev(base + "/lib");
    commit_file(base + "/lib", "CMakeLists.txt", "project(lib) # v2\n");
    lib_c2 = rev(base + "/lib");
    commit_file(base + "/super", "version.txt", "1.0.0a0\n");
    add_submodule(base + "/super", base + "/mid", "mid", "third_party/mid");
    add_submodule(base + "/super", base + "/lib", "lib", "third_party/lib");
    git({"-C", base + "/super/third_party/lib", "checkout", "-q", lib_c1});
    git({"-C", base + "/super", "add", "third_party/lib"});
    git({"-C", base + "/super", "commit", "-q", "-m", "submodules"});
    git({"-C", base + "/super", "tag", "v1.0"});
    tag_commit = rev(base + "/super");
    commit_file(base + "/super", "later.txt", "after the tag\n");
  }

  FetchOptions options(const std::string& out) const {
    FetchOptions o;
    o.dir = out;
    o.git.mirrors = {{kHost, "file://" + base + "/"}};
    o.git.allow_file_protocol = true;
    o.git.timeout = std::chrono::seconds(60);
    o.retries = 1;
    o.jobs = 2;
    std::string* sink = &log;
    o.progress = [sink](const std::string& line) { *sink += line + "\n"; };
    return o;
  }

  // The superproject is fetched by its unreachable name too: the mirror carries everything.
  SourceSpec spec(const std::string& ref = "v1.0") const { return {"", "", kHost + "super", ref}; }

  std::string fetched() {
    std::string out = dir / "out";
    FetchResult r = fetch_source(spec(), options(out));
    EXPECT_TRUE(r.ok) << problems(r) << log;
    return out;
  }

  static std::string problems(const FetchResult& r) {
    std::string s;
    for (const auto& e : r.errors) s += e + "\n";
    return s;
  }
  static std::string problems(const SubmoduleReport& r) {
    std::string s;
    for (const auto& m : r.broken()) s += m.describe() + "\n";
    for (const auto& e : r.errors) s += e + "\n";
    return s;
  }

  ScratchDir dir;
  std::string base, lib_c1, lib_c2, tag_commit;
  mutable std::string log;
};

}  // namespace

TEST_F(FetchTest, FetchesTagWithNestedSubmodulesThroughTheMirror) {
  std::string out = dir / "out";
  FetchResult r = fetch_source(spec(), options(out));
  ASSERT_TRUE(r.ok) << problems(r) << log;
  EXPECT_FALSE(r.resumed);
  EXPECT_EQ(r.head, tag_commit);
  EXPECT_FALSE(fs::exists(out + "/later.txt"));  // the tag, not the branch tip
  EXPECT_EQ(slurp(out + "/third_party/mid/third_party/leaf/leaf.txt"), "leaf\n");
  EXPECT_EQ(rev(out + "/third_party/lib"), lib_c1);
  ASSERT_EQ(r.check.after.modules.size(), 3u);
  EXPECT_TRUE(r.check.after.complete());
  EXPECT_NE(log.find("cloning " + kHost + "super"), std::string::npos) << log;
  EXPECT_NE(log.find("complete: 3 submodule(s)"), std::string::npos) << log;
}

TEST_F(FetchTest, WithoutTheMirrorTheFailureIsNamed) {
  FetchOptions o = options(dir / "out");
  o.git.mirrors.clear();
  o.retries = 0;
  FetchResult r = fetch_source(spec(), o);
  EXPECT_FALSE(r.ok);
  ASSERT_FALSE(r.errors.empty());
  EXPECT_NE(r.errors[0].find("git clone"), std::string::npos) << r.errors[0];
  EXPECT_NE(r.errors[0].find("example.invalid"), std::string::npos) << r.errors[0];
  EXPECT_FALSE(fs::exists(dir / "out"));  // the partial directory it created is gone
}

TEST_F(FetchTest, CheckNamesDeletedEmptiedHalfClonedAndWrongCommitThenRepairsOnlyThose) {
  std::string out = fetched();
  GitOptions g = options(out).git;
  // mid deleted (its nested leaf goes with it); lib moved to the newer commit.
  fs::remove_all(out + "/third_party/mid");
  git({"-C", out + "/third_party/lib", "checkout", "-q", lib_c2});
  SubmoduleReport rep = check_submodules(out, g);
  auto broken = rep.broken();
  ASSERT_EQ(broken.size(), 2u) << problems(rep);
  EXPECT_EQ(broken[0].path, "third_party/mid");
  EXPECT_EQ(broken[0].problem, SubmoduleState::Problem::missing);
  EXPECT_EQ(broken[1].path, "third_party/lib");
  EXPECT_EQ(broken[1].problem, SubmoduleState::Problem::wrong_commit);
  EXPECT_NE(broken[1].describe().find("the superproject records " + lib_c1.substr(0, 10)), std::string::npos);

  RepairResult fix = check_and_repair(out, g, 1, nullptr);
  ASSERT_TRUE(fix.ok) << problems(fix.after);
  EXPECT_EQ(rev(out + "/third_party/lib"), lib_c1);
  EXPECT_EQ(slurp(out + "/third_party/mid/third_party/leaf/leaf.txt"), "leaf\n");
  EXPECT_EQ(fix.after.modules.size(), 3u);

  // The nested one emptied; lib half-cloned (a .git file pointing at nothing, files left over).
  fs::remove_all(out + "/third_party/mid/third_party/leaf");
  fs::create_directories(out + "/third_party/mid/third_party/leaf");
  fs::remove(out + "/third_party/lib/.git");
  spit(out + "/third_party/lib/.git", "gitdir: ../../.git/modules/does-not-exist\n");
  rep = check_submodules(out, g);
  broken = rep.broken();
  ASSERT_EQ(broken.size(), 2u) << problems(rep);
  EXPECT_EQ(broken[0].path, "third_party/mid/third_party/leaf");
  EXPECT_EQ(broken[0].problem, SubmoduleState::Problem::empty);
  EXPECT_EQ(broken[1].path, "third_party/lib");
  EXPECT_EQ(broken[1].problem, SubmoduleState::Problem::not_checked_out);

  fix = check_and_repair(out, g, 1, nullptr);
  ASSERT_TRUE(fix.ok) << problems(fix.after);
  EXPECT_EQ(rev(out + "/third_party/lib"), lib_c1);
  EXPECT_EQ(slurp(out + "/third_party/mid/third_party/leaf/leaf.txt"), "leaf\n");
  // The half-populated directory was kept, not deleted.
  ASSERT_FALSE(fix.moved_aside.empty());
  EXPECT_TRUE(fs::exists(fix.moved_aside[0] + "/CMakeLists.txt")) << fix.moved_aside[0];
}

TEST_F(FetchTest, LocalChangesInAWrongCommitSubmoduleAreLeftAlone) {
  std::string out = fetched();
  git({"-C", out + "/third_party/lib", "checkout", "-q", lib_c2});
  spit(out + "/third_party/lib/CMakeLists.txt", "my work\n");
  RepairResult fix = check_and_repair(out, options(out).git, 0, nullptr);
  EXPECT_FALSE(fix.ok);
  EXPECT_EQ(slurp(out + "/third_party/lib/CMakeLists.txt"), "my work\n");
  ASSERT_EQ(fix.after.broken().size(), 1u);
  EXPECT_EQ(fix.after.broken()[0].problem, SubmoduleState::Problem::dirty_wrong_commit);
}

TEST_F(FetchTest, InterruptedFetchResumes) {
  std::string out = dir / "out";
  // As if the first run died after cloning: no checkout, no submodules.
  git({"clone", "-q", "--no-checkout", "file://" + base + "/super", out});
  git({"-C", out, "remote", "set-url", "origin", kHost + "super"});
  FetchResult r = fetch_source(spec(), options(out));
  ASSERT_TRUE(r.ok) << problems(r) << log;
  EXPECT_TRUE(r.resumed);
  EXPECT_EQ(r.head, tag_commit);
  EXPECT_TRUE(r.check.after.complete());
  // Running again on the complete tree changes nothing and succeeds.
  FetchResult again = fetch_source(spec(), options(out));
  EXPECT_TRUE(again.ok) << problems(again);
  EXPECT_EQ(again.head, tag_commit);
}

TEST_F(FetchTest, CommitRefAndBranchTip) {
  std::string out = dir / "out";
  FetchResult r = fetch_source(spec(tag_commit), options(out));
  ASSERT_TRUE(r.ok) << problems(r) << log;
  EXPECT_EQ(r.head, tag_commit);
  std::string tip = dir / "tip";
  FetchResult t = fetch_source(spec(""), options(tip));
  ASSERT_TRUE(t.ok) << problems(t) << log;
  EXPECT_TRUE(fs::exists(tip + "/later.txt"));
}

TEST_F(FetchTest, RefusesANonEmptyNonGitDirAndAnotherRepository) {
  std::string out = dir / "out";
  fs::create_directories(out);
  spit(out + "/mine.txt", "keep\n");
  FetchResult r = fetch_source(spec(), options(out));
  EXPECT_FALSE(r.ok);
  EXPECT_NE(problems(r).find("exists and is not a git checkout"), std::string::npos);
  EXPECT_EQ(slurp(out + "/mine.txt"), "keep\n");

  std::string other = dir / "other";
  git({"clone", "-q", "file://" + base + "/lib", other});
  r = fetch_source(spec(), options(other));
  EXPECT_FALSE(r.ok);
  EXPECT_NE(problems(r).find("is a clone of"), std::string::npos) << problems(r);
}

TEST_F(FetchTest, CheckOnANonGitDirectorySaysSo) {
  SubmoduleReport rep = check_submodules(dir.path(), {});
  EXPECT_FALSE(rep.complete());
  ASSERT_FALSE(rep.errors.empty());
  EXPECT_NE(rep.errors[0].find("not a git checkout"), std::string::npos);
}

TEST(SourceSpec, ReleaseThroughSourcesToml) {
  std::vector<std::string> errors;
  auto sources = load_sources({}, errors);
  ASSERT_TRUE(errors.empty());
  SourceSpec s;
  std::string err;
  ASSERT_TRUE(parse_source_spec("torch==2.4.1", sources, s, err)) << err;
  EXPECT_EQ(s.url, "https://github.com/pytorch/pytorch");
  EXPECT_EQ(s.ref, "v2.4.1");
  EXPECT_FALSE(parse_source_spec("nosuch==1.0", sources, s, err));
  EXPECT_NE(err.find("no source known for 'nosuch'"), std::string::npos);
  EXPECT_FALSE(parse_source_spec("torch==banana", sources, s, err));
}

TEST(SourceSpec, UrlsWithAndWithoutRef) {
  SourceSpec s;
  std::string err;
  ASSERT_TRUE(parse_source_spec("https://github.com/pytorch/pytorch@v2.4.1", {}, s, err));
  EXPECT_EQ(s.url, "https://github.com/pytorch/pytorch");
  EXPECT_EQ(s.ref, "v2.4.1");
  ASSERT_TRUE(parse_source_spec("git@github.com:pytorch/pytorch.git", {}, s, err));
  EXPECT_EQ(s.url, "git@github.com:pytorch/pytorch.git");
  EXPECT_EQ(s.ref, "");
  ASSERT_TRUE(parse_source_spec("git@github.com:pytorch/pytorch.git@release/2.4", {}, s, err));
  EXPECT_EQ(s.ref, "release/2.4");
  ASSERT_TRUE(parse_source_spec("https://user@host.example/repo", {}, s, err));
  EXPECT_EQ(s.url, "https://user@host.example/repo");
  ASSERT_TRUE(parse_source_spec("/srv/git/pytorch@abc123", {}, s, err));
  EXPECT_EQ(s.ref, "abc123");
  EXPECT_FALSE(parse_source_spec("pytorch", {}, s, err));
  EXPECT_FALSE(parse_source_spec("https://h/r@", {}, s, err));
}

TEST(SourceSpec, BadSourcesFileNamesTheLine) {
  std::vector<SourceEntry> out;
  auto e = parse_sources_text("sources.toml", "[[source]]\npackage = \"x\"\nrepo = \"r\"\ntag = \"v1\"\nsource = \"s\"\n", out);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_NE(e[0].find("sources.toml:1: source 'x': tag must contain {version}"), std::string::npos) << e[0];
}

TEST_F(FetchTest, ArchiveTreesAreCheckedByTheirFiles) {
  std::string out = fetched();
  // What a release archive holds: the files, no git metadata.
  std::string tar = dir / "src.tar.gz";
  auto r = ts::util::run({"tar", "-czf", tar, "--exclude=.git", "-C", dir.path(), "out"});
  ASSERT_TRUE(r.ok()) << r.err;
  std::string why;
  std::string tree = extract_archive(tar, dir / "unpacked", &why);
  ASSERT_EQ(tree, dir / "unpacked/out") << why;
  SubmoduleReport rep = check_submodules(tree, {});
  EXPECT_TRUE(rep.archive);
  EXPECT_TRUE(rep.complete()) << problems(rep);
  EXPECT_EQ(rep.modules.size(), 3u);
  // An emptied nested one and a lib without any of the marker files are named; repair says why not.
  fs::remove_all(tree + "/third_party/mid/third_party/leaf");
  fs::create_directories(tree + "/third_party/mid/third_party/leaf");
  fs::remove(tree + "/third_party/lib/CMakeLists.txt");
  spit(tree + "/third_party/lib/partial.o", "");
  rep = check_submodules(tree, {});
  ASSERT_EQ(rep.broken().size(), 2u) << problems(rep);
  EXPECT_NE(rep.broken()[1].describe().find("none of CMakeLists.txt"), std::string::npos);
  RepairResult fix = check_and_repair(tree, {}, 0, nullptr);
  EXPECT_FALSE(fix.ok);
  EXPECT_NE(fix.errors[0].find("has no git metadata"), std::string::npos) << fix.errors[0];
  EXPECT_TRUE(extract_archive(tar, dir / "unpacked", &why).empty());  // never over a non-empty dir
}

namespace {

// Issue 21: `fetch REPO@--upload-pack=CMD;git-upload-pack` ran CMD. The ref is refused by its
// grammar before git runs, whoever calls fetch_source; CMD would have created the marker.
TEST_F(FetchTest, ARefThatIsAnOptionNeverReachesGit) {
  std::string marker = dir / "marker";
  SourceSpec s = spec("--upload-pack=touch " + marker + ";git-upload-pack");
  FetchResult r = fetch_source(s, options(dir / "out"));
  EXPECT_FALSE(r.ok);
  ASSERT_FALSE(r.errors.empty());
  EXPECT_NE(r.errors[0].find("starts with '-'"), std::string::npos) << r.errors[0];
  EXPECT_FALSE(std::filesystem::exists(marker));
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));  // refused before the clone
}

TEST(SourceSpec, RefsAndUrlsAreCheckedAgainstTheirGrammar) {
  SourceSpec s;
  std::string err;
  EXPECT_FALSE(parse_source_spec("https://h/r@--upload-pack=touch /tmp/x;git-upload-pack", {}, s, err));
  EXPECT_NE(err.find("starts with '-'"), std::string::npos) << err;
  EXPECT_FALSE(parse_source_spec("https://h/r@a..b", {}, s, err));
  EXPECT_FALSE(parse_source_spec("ssh://-oProxyCommand=x/r@main", {}, s, err));
  EXPECT_NE(err.find("host starts with '-'"), std::string::npos) << err;
  EXPECT_FALSE(parse_source_spec("ftp://h/r@main", {}, s, err));
  // Accepted forms keep working.
  EXPECT_TRUE(parse_source_spec("https://u:tok@h/r@v1.0", {}, s, err)) << err;
  EXPECT_EQ(s.ref, "v1.0");
}

// git's own message repeats the URL it was given: what torchsmith reports is redacted.
TEST(Git, FailuresAreReportedWithoutCredentials) {
  GitOptions o;
  o.timeout = std::chrono::seconds(30);
  std::vector<std::string> args{"clone", "--", "https://user:SECRET@127.0.0.1:9/x.git", "/nonexistent/dir"};
  ts::util::RunResult r;
  r.exit_code = 128;
  r.err = "fatal: unable to access 'https://user:SECRET@127.0.0.1:9/x.git/': Failed to connect";
  std::string d = describe_failure(args, r, o);
  EXPECT_EQ(d.find("SECRET"), std::string::npos) << d;
  EXPECT_NE(d.find("https://user:***@127.0.0.1:9/x.git"), std::string::npos) << d;
}

}  // namespace
