// The arch judgement: missing SASS fails, PTX that JIT-compiles for it warns, extras are a note.
#include <gtest/gtest.h>

#include "arch_testkit.h"
#include "verify/arch_check.h"

namespace ts::verify {
namespace {


TEST(ArchCheck, AllPresentPassesWithExtrasAsANote) {
  EXPECT_EQ(lines(code({"80", "90"}, {"90"}), "8.0;9.0"),
            (std::vector<std::string>{"pass: has 8.0;9.0", "note: not asked for: compute_90"}));
  EXPECT_EQ(lines(code({"80", "90"}, {"90"}), "8.0 9.0+PTX"), (std::vector<std::string>{"pass: has 8.0;9.0+PTX"}));
}

TEST(ArchCheck, MissingArchFails) {
  EXPECT_EQ(lines(code({"90"}, {"90"}), "8.0"),
            (std::vector<std::string>{"fail: missing sm_80", "note: not asked for: sm_90, compute_90"}));
  EXPECT_EQ(lines(code({"80", "90"}, {}), "9.0+PTX"),
            (std::vector<std::string>{"fail: missing compute_90", "note: not asked for: sm_80"}));
  // An arch-specific target is not met by the plain one.
  EXPECT_EQ(lines(code({"90"}, {}), "9.0a"), (std::vector<std::string>{"fail: missing sm_90a", "note: not asked for: sm_90"}));
}

TEST(ArchCheck, PtxOnlyWarns) {
  EXPECT_EQ(lines(code({}, {"80"}), "8.6"),
            (std::vector<std::string>{"warn: sm_86 only as PTX compute_80 (JIT-compiled at first load)",
                                      "note: not asked for: compute_80"}));
}

}  // namespace
}  // namespace ts::verify
