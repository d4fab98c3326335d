#include "run/tree_lock.h"
#include "testkit/temp_dir.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>

namespace ts::run {
namespace {

TEST(TreeLock, SecondHolderIsRefusedWithTheFirstNamed) {
  ::ts::testkit::TempDir tmp("ts-lock");
  const std::string& t = tmp.path();
  ASSERT_FALSE(t.empty());
  std::string err;
  TreeLock a = TreeLock::acquire(t, "torch==2.4.1", false, &err);
  ASSERT_TRUE(a.held()) << err;
  // flock conflicts between two open files even in one process: the same as two torchsmiths.
  TreeLock b = TreeLock::acquire(t, "torch==2.4.1", false, &err);
  EXPECT_FALSE(b.held());
  EXPECT_NE(err.find("another build holds " + t), std::string::npos) << err;
  EXPECT_NE(err.find("pid " + std::to_string(getpid())), std::string::npos) << err;
  EXPECT_NE(err.find("--wait"), std::string::npos) << err;
  a = TreeLock();  // released
  TreeLock c = TreeLock::acquire(t, "x", false, &err);
  EXPECT_TRUE(c.held()) << err;
}

}  // namespace
}  // namespace ts::run
