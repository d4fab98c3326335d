#include "util/url.h"

#include <gtest/gtest.h>

namespace ts::util {
namespace {

TEST(GitRef, AcceptsTagsBranchesAndCommits) {
  for (const char* r : {"main", "v2.4.1", "release/2.4", "ciflow/trunk/123", "3a6b8e1f", "HEAD", "FETCH_HEAD",
                        "v1.0-rc1", "feature_x.y"})
    EXPECT_EQ(check_git_ref(r), "") << r;
}

TEST(GitRef, RefusesOptionsAndWhatGitRefuses) {
  // The injection of issue 21: a ref that git fetch would read as --upload-pack.
  EXPECT_NE(check_git_ref("--upload-pack=touch /tmp/x;git-upload-pack").find("starts with '-'"), std::string::npos);
  for (const char* r : {"", "-x", "a..b", "a b", "a\tb", "a~1", "a^", "a:b", "a?", "a*", "a[", "a\\b", "@", "a@{1}",
                        "/a", "a/", "a//b", ".a", "a/.b", "a.lock", "a/b.lock/c", "a.", "a\x1b[31m"})
    EXPECT_NE(check_git_ref(r), "") << r;
}

TEST(GitUrl, AcceptsTheSchemesAndFormsGitUsers) {
  for (const char* u : {"https://github.com/pytorch/pytorch", "http://host/x.git", "ssh://git@host:22/org/r.git",
                        "git://host/r", "file:///srv/repo", "git@github.com:org/repo.git", "host:repo",
                        "/abs/path", "./rel", "../up", "https://user:tok@host/r"})
    EXPECT_EQ(check_git_url(u), "") << u;
}

TEST(GitUrl, RefusesOptionsHelpersAndOtherSchemes) {
  EXPECT_NE(check_git_url("--upload-pack=x").find("starts with '-'"), std::string::npos);
  EXPECT_NE(check_git_url("ext::sh -c touch% /tmp/x"), "");
  EXPECT_NE(check_git_url("ext::true").find("transports are not allowed"), std::string::npos);
  EXPECT_NE(check_git_url("fd::3"), "");
  EXPECT_NE(check_git_url("ssh://-oProxyCommand=touch%20x/r").find("host starts with '-'"), std::string::npos);
  EXPECT_NE(check_git_url("-oProxyCommand=x:r"), "");
  EXPECT_NE(check_git_url("ftp://host/r").find("scheme 'ftp'"), std::string::npos);
  EXPECT_NE(check_git_url("relative/dir"), "");
  EXPECT_NE(check_git_url("https://host/a b"), "");
  EXPECT_NE(check_git_url(""), "");
  // The error never repeats a credential.
  EXPECT_EQ(check_git_url("ftp://u:SECRET@h/r").find("SECRET"), std::string::npos);
}

TEST(Redact, PasswordsTokensAndQueryStrings) {
  EXPECT_EQ(redact_url("https://user:TOKEN@github.com/o/r.git"), "https://user:***@github.com/o/r.git");
  EXPECT_EQ(redact_url("https://TOKEN@github.com/o/r"), "https://***@github.com/o/r");  // a bare user is a token
  EXPECT_EQ(redact_url("ssh://git@host/r"), "ssh://git@host/r");                      // ssh's user is not a secret
  EXPECT_EQ(redact_url("ssh://git:pw@host/r"), "ssh://git:***@host/r");
  EXPECT_EQ(redact_url("https://h/r.git?token=abc&ref=main"), "https://h/r.git?token=***&ref=main");
  EXPECT_EQ(redact_url("https://h/r?Access_Token=abc#frag"), "https://h/r?Access_Token=***#frag");
  EXPECT_EQ(redact_url("https://h/r?private_token=a&x=1&password=b"), "https://h/r?private_token=***&x=1&password=***");
  EXPECT_EQ(redact_url("https://github.com/pytorch/pytorch"), "https://github.com/pytorch/pytorch");
  EXPECT_EQ(redact_url("https://u:p@h/r@v2.4.1"), "https://u:***@h/r@v2.4.1");  // URL@REF keeps its ref
  EXPECT_EQ(redact_url("git@github.com:o/r.git"), "git@github.com:o/r.git");
}

TEST(Redact, EveryUrlInsideText) {
  EXPECT_EQ(redact_text("git clone -- https://u:SECRET@h/r.git /out: exit 128: fatal: 'https://u:SECRET@h/r.git' "
                        "not found; see http://x/?token=T"),
            "git clone -- https://u:***@h/r.git /out: exit 128: fatal: 'https://u:***@h/r.git' not found; see "
            "http://x/?token=***");
  EXPECT_EQ(redact_text("{\"url\": \"https://tok@h/x\"}"), "{\"url\": \"https://***@h/x\"}");
  EXPECT_EQ(redact_text("no urls here: a://"), "no urls here: a://");
  EXPECT_EQ(redact_text(""), "");
}

}  // namespace
}  // namespace ts::util
