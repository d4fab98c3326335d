// The lock's arch list: read typed once (plan_json.cpp), written back as the same string, and a
// list that does not parse is the lock's error, not a later stage's.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "plan/lock.h"
#include "plan/plan.h"

namespace ts::plan {
namespace {

nlohmann::json lock_with_arch_list(const std::string& text) {
  nlohmann::json j = Plan{};
  j["arch_list"] = text;
  return j;
}

TEST(PlanJson, ArchListIsReadTypedAndWrittenAsTheSameString) {
  std::string err;
  auto p = parse_lock(lock_with_arch_list("8.0;9.0a;12.0+PTX").dump(), &err);
  ASSERT_TRUE(p) << err;
  ASSERT_EQ(p->arch_list.size(), 3u);
  EXPECT_EQ(p->arch_list.arches()[1], CudaArch::of(9, 0, 'a'));
  EXPECT_TRUE(p->arch_list.highest()->ptx);
  EXPECT_EQ(nlohmann::json(*p)["arch_list"], "8.0;9.0a;12.0+PTX");  // old locks read and write alike
}

TEST(PlanJson, ACpuPlanHasNoArches) {
  std::string err;
  auto p = parse_lock(lock_with_arch_list("").dump(), &err);
  ASSERT_TRUE(p) << err;
  EXPECT_TRUE(p->arch_list.empty());
  EXPECT_EQ(nlohmann::json(*p)["arch_list"], "");
  nlohmann::json old = Plan{};
  old.erase("arch_list");  // a lock without the key at all
  ASSERT_TRUE(parse_lock(old.dump(), &err)) << err;
}

TEST(PlanJson, ABadArchListIsTheLocksErrorNamingIt) {
  for (const char* bad : {"8.x", "Ampere", "8.6;;+PTX"}) {
    std::string err;
    EXPECT_FALSE(parse_lock(lock_with_arch_list(bad).dump(), &err)) << bad;
    EXPECT_NE(err.find("arch_list '" + std::string(bad) + "'"), std::string::npos) << err;
    EXPECT_NE(err.find("torchsmith plan SPEC -o FILE"), std::string::npos) << err;  // the way out
  }
}

}  // namespace
}  // namespace ts::plan
