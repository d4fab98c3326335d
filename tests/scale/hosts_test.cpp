#include "scale/hosts.h"

#include <gtest/gtest.h>

#include "testkit/temp_dir.h"
#include "util/fs.h"
#include "util/process.h"

namespace ts::scale {
namespace {

TEST(CompilerIdentity, ReadFromAnObjectsCommentSection) {
  if (access("/usr/bin/c++", X_OK) != 0) GTEST_SKIP() << "needs c++";
  testkit::TempDir d;
  ASSERT_EQ(util::write_file_atomic(d.path() + "/a.cpp", "int f() { return 1; }\n"), "");
  util::RunOptions o;
  o.cwd = d.path();
  ASSERT_TRUE(util::run({"/usr/bin/c++", "-c", "a.cpp", "-o", "a.o"}, o).ok());
  auto obj = util::read_file(d.path() + "/a.o").value_or("");
  std::string id = identity_in_object(obj);
  EXPECT_TRUE(id.rfind("GCC: ", 0) == 0 || id.find("clang version") != std::string::npos) << id;
  // -fno-ident: no .comment, no identity (the probe then says it could not tell).
  ASSERT_TRUE(util::run({"/usr/bin/c++", "-fno-ident", "-c", "a.cpp", "-o", "b.o"}, o).ok());
  EXPECT_EQ(identity_in_object(util::read_file(d.path() + "/b.o").value_or("")), "");
  EXPECT_EQ(identity_in_object("not an object"), "");
  EXPECT_EQ(identity_in_object(obj.substr(0, 100)), "");  // cut short: no crash, nothing read
}

TEST(CheckHosts, NoDistccIsSaidNotGuessed) {
  testkit::TempDir d;
  std::string err;
  auto hosts = parse_hosts("127.100.0.3/2", &err);
  HostsCheck c = check_hosts(hosts, "c++", d.path(), d.path() + "/work");  // PATH without distcc
  EXPECT_NE(c.error.find("distcc is not on the build's PATH"), std::string::npos) << c.error;
  EXPECT_EQ(c.kept_slots(), 0);
}

TEST(CheckHosts, UnreachableHostIsLeftOutWithTheReason) {
  if (access("/usr/bin/distcc", X_OK) != 0 || access("/usr/bin/c++", X_OK) != 0) GTEST_SKIP() << "needs distcc and c++";
  testkit::TempDir d;
  std::string err;
  // 127.0.0.1 port 1: nothing listens there (loopback only, refused at once).
  auto hosts = parse_hosts("127.0.0.1:1/3", &err);
  HostsCheck c = check_hosts(hosts, "c++", "/usr/bin:/bin", d.path() + "/work");
  ASSERT_EQ(c.error, "");
  EXPECT_FALSE(c.local_compiler.empty());
  ASSERT_EQ(c.hosts.size(), 1u);
  EXPECT_FALSE(c.hosts[0].kept);
  EXPECT_NE(c.hosts[0].why.find("not reachable on port 1"), std::string::npos) << c.hosts[0].why;
  EXPECT_EQ(c.kept_slots(), 0);
}

}  // namespace
}  // namespace ts::scale
