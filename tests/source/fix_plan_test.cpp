#include "source/fix_plan.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

using namespace ts::source;
using nlohmann::json;

namespace {

// n fixes with long ids sharing a prefix (as real ids do: "torch-cmake-..."), and a lock pinning all.
struct Pinned {
  FixSet set;
  json lock;
};

Pinned pinned(int n) {
  Pinned p;
  p.set.fixes.reserve(n);
  json order = json::array(), hashes = json::object();
  for (int i = 0; i < n; ++i) {
    char id[64];
    std::snprintf(id, sizeof id, "torch-some-package-needs-this-change-%06d", i);
    Fix f;
    f.id = id;
    f.env = {{"VAR_" + std::to_string(i), "1"}};
    p.set.fixes.push_back(f);
  }
  // The plan's order is the reverse of the KB's, so order comes from the lock.
  for (int i = n - 1; i >= 0; --i) {
    order.push_back({{"id", p.set.fixes[i].id}});
    hashes[p.set.fixes[i].id] = fix_hash(p.set.fixes[i]);
  }
  p.lock = {{"fixes", order}, {"lock", {{"fix_hashes", hashes}}}};
  return p;
}

}  // namespace

TEST(FixPlan, PinnedFixesInThePlansOrder) {
  Pinned p = pinned(3);
  std::vector<const Fix*> out;
  std::string err;
  ASSERT_TRUE(planned_fixes(p.lock, p.set, out, err)) << err;
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0]->id, p.set.fixes[2].id);
  EXPECT_EQ(out[2]->id, p.set.fixes[0].id);
}

TEST(FixPlan, UnknownOrChangedFixAndNonLockAreRefused) {
  Pinned p = pinned(2);
  std::vector<const Fix*> out;
  std::string err;
  json changed = p.lock;
  changed["lock"]["fix_hashes"][p.set.fixes[1].id] = "0000";
  EXPECT_FALSE(planned_fixes(changed, p.set, out, err));
  EXPECT_NE(err.find("changed since the plan was made"), std::string::npos) << err;
  json unknown = p.lock;
  unknown["lock"]["fix_hashes"]["no-such-fix"] = "abcd";
  EXPECT_FALSE(planned_fixes(unknown, p.set, out, err));
  EXPECT_NE(err.find("'no-such-fix', which this knowledge base lacks"), std::string::npos) << err;
  EXPECT_FALSE(planned_fixes(json::array(), p.set, out, err));
  EXPECT_NE(err.find("write one with `torchsmith plan"), std::string::npos) << err;
}

// Issue 21 (9): `fix --plan` was quadratic in the lock's fix ids (a find over the ids for every
// hash, and a scan of the KB for every id). 20k ids on a 2-core machine at load 15: 49 s before,
// 0.47 s after; the bound sits 10x from each.
TEST(FixPlan, TwentyThousandIdsAreLinear) {
  Pinned p = pinned(20000);
  std::vector<const Fix*> out;
  std::string err;
  auto t0 = std::chrono::steady_clock::now();
  ASSERT_TRUE(planned_fixes(p.lock, p.set, out, err)) << err;
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("planned_fixes: 20000 ids in %.3f s\n", s);
  EXPECT_EQ(out.size(), 20000u);
  EXPECT_LT(s, 5.0);
}
