// PEP 508 requirements from Requires-Dist and their markers, evaluated for one interpreter.
#include "verify/requirement.h"

#include <gtest/gtest.h>

namespace ts::verify {
namespace {

MarkerEnv py311() {
  return {{"python_version", "3.11"}, {"python_full_version", "3.11.7"}, {"sys_platform", "linux"},
          {"platform_system", "Linux"}, {"platform_machine", "x86_64"}, {"os_name", "posix"},
          {"implementation_name", "cpython"}, {"platform_python_implementation", "CPython"}, {"extra", ""}};
}

bool holds(const std::string& m) {
  std::string err;
  auto v = evaluate_marker(m, py311(), &err);
  EXPECT_TRUE(v.has_value()) << m << ": " << err;
  return v.value_or(false);
}

TEST(Requirement, ParsesNameSpecifierAndMarker) {
  std::string err;
  auto r = parse_requirement("PyYAML (>=5.1) ; python_version >= \"3.8\"", &err);
  ASSERT_TRUE(r) << err;
  EXPECT_EQ(r->name, "PyYAML");
  EXPECT_EQ(r->key, "pyyaml");
  EXPECT_EQ(r->specifier, "PyYAML (>=5.1)");
  EXPECT_EQ(r->marker, "python_version >= \"3.8\"");
  r = parse_requirement("fvcore<0.1.6,>=0.1.5", &err);
  ASSERT_TRUE(r) << err;
  EXPECT_EQ(r->specifier, "fvcore<0.1.6,>=0.1.5");
  EXPECT_EQ(r->marker, "");
  r = parse_requirement("pkg @ https://example.org/a;b.whl ; os_name == 'posix'", &err);
  ASSERT_TRUE(r) << err;
  EXPECT_EQ(r->specifier, "pkg @ https://example.org/a;b.whl");
  EXPECT_EQ(r->marker, "os_name == 'posix'");
  EXPECT_FALSE(parse_requirement(">=1.0", &err));
  EXPECT_NE(err.find("no distribution name"), std::string::npos);
  EXPECT_EQ(normalize_name("Torch_Scatter..X"), "torch-scatter-x");
}

TEST(Requirement, MarkersFollowTheInterpreter) {
  EXPECT_TRUE(holds("python_version >= '3.8'"));
  EXPECT_FALSE(holds("python_version < '3.8'"));
  EXPECT_TRUE(holds("python_version > '3.9'"));  // 3.11 > 3.9 as versions, not as strings
  EXPECT_TRUE(holds("python_full_version ~= '3.11.0'"));
  EXPECT_FALSE(holds("python_full_version ~= '3.12.0'"));
  EXPECT_TRUE(holds("python_version == '3.*'"));
  EXPECT_TRUE(holds("sys_platform == \"linux\" and platform_machine != 'aarch64'"));
  EXPECT_FALSE(holds("sys_platform == 'win32' or (os_name == 'nt' and python_version >= '3')"));
  EXPECT_TRUE(holds("'linux' in sys_platform"));
  EXPECT_TRUE(holds("platform_machine not in 'arm64 aarch64'"));
  EXPECT_TRUE(holds("sys.platform == 'linux'"));  // PEP 345 spelling
}

TEST(Requirement, ExtrasAreNotInstalled) {
  EXPECT_FALSE(holds("extra == 'test'"));
  EXPECT_FALSE(holds("python_version >= '3.8' and extra == \"all\""));
}

TEST(Requirement, BadMarkersSayWhy) {
  std::string err;
  EXPECT_FALSE(evaluate_marker("python_version >> '3'", py311(), &err));
  EXPECT_NE(err.find("unknown operator '>>'"), std::string::npos) << err;
  EXPECT_FALSE(evaluate_marker("favourite_colour == 'blue'", py311(), &err));
  EXPECT_NE(err.find("unknown marker variable 'favourite_colour'"), std::string::npos) << err;
  EXPECT_FALSE(evaluate_marker("(os_name == 'posix'", py311(), &err));
  EXPECT_NE(err.find("missing ')'"), std::string::npos) << err;
  EXPECT_FALSE(evaluate_marker("os_name == 'posix", py311(), &err));
  EXPECT_NE(err.find("unterminated string"), std::string::npos) << err;
}

}  // namespace
}  // namespace ts::verify
