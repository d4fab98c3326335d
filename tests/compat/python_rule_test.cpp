// The Python-vs-torch rules (python.target, numpy.target) the torch planner and doctor share.
#include "compat/python_rule.h"
#include "testkit/version_of.h"

#include <gtest/gtest.h>

namespace ts::compat {
namespace {

kb::TorchRelease release() {
  kb::TorchRelease r;
  r.version = testkit::version_of("2.4.1");
  r.python = *VersionRange::parse(">=3.8,<3.13");
  r.numpy = *VersionRange::parse(">=1.22,<2");
  return r;
}

TEST(PythonRule, SupportedByMajorMinor) {
  auto r = release();
  EXPECT_TRUE(python_supported(r, "3.8.20"));
  EXPECT_TRUE(python_supported(r, "3.12.3"));
  EXPECT_FALSE(python_supported(r, "3.13.0"));
  EXPECT_FALSE(python_supported(r, "3.7.17"));
  EXPECT_FALSE(python_supported(r, "not a version"));
}

TEST(PythonRule, NumpyFit) {
  auto r = release();
  PythonFacts py;
  EXPECT_EQ(numpy_fit(r, py), NumpyFit::missing);
  py.packages["numpy"] = "1.23.5";
  EXPECT_EQ(numpy_fit(r, py), NumpyFit::fits);
  py.packages["numpy"] = "2.1.0";
  EXPECT_EQ(numpy_fit(r, py), NumpyFit::outside);
  py.packages["numpy"] = "garbled";  // unreadable: the build will tell
  EXPECT_EQ(numpy_fit(r, py), NumpyFit::fits);
}

}  // namespace
}  // namespace ts::compat
