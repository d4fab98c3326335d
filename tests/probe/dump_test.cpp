// TS_DUMP_FIXTURE=<name> prints what the probe reads from a fixture (to write or check tests).
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>

#include "fixture_util.h"

TEST(Dump, FixtureWhenAsked) {
  const char* name = std::getenv("TS_DUMP_FIXTURE");
  if (!name) GTEST_SKIP() << "set TS_DUMP_FIXTURE=<fixture name> to print its facts";
  std::cout << nlohmann::json(ts::probe::testing::probe_fixture(name)).dump(2) << "\n";
}
