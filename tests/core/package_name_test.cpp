// PEP 503 names, the one normalization recipes, wheels, requirements, constraints and the index use:
// re.sub(r"[-_.]+", "-", name).lower().
#include "core/package_name.h"

#include <gtest/gtest.h>

#include "core/version_range.h"

namespace ts {
namespace {

TEST(PackageName, Pep503) {
  EXPECT_EQ(normalize_name("Torch_Scatter"), "torch-scatter");
  EXPECT_EQ(normalize_name("Zope.Interface__x"), "zope-interface-x");
  EXPECT_EQ(normalize_name("a._-b"), "a-b");
  EXPECT_EQ(normalize_name("-a_"), "-a-");  // the regex keeps a leading or trailing run, as one '-'
  EXPECT_EQ(normalize_name(""), "");
}

TEST(PackageName, ConstraintsAskTheSameRule) {
  for (const char* n : {"Typing_Extensions", "zope.interface", "A--B"})
    EXPECT_EQ(Constraint::parse(std::string(n) + ">=1")->normalized_name(), normalize_name(n)) << n;
}

}  // namespace
}  // namespace ts
