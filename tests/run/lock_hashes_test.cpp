#include "run/lock_hashes.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "provision/provision.h"
#include "testkit/temp_dir.h"
#include "util/fs.h"

namespace ts::run {
namespace {

TEST(LockHashes, ManifestHashesFillTheLocksEmptyOnesOnly) {
  testkit::TempDir t;
  std::string dir = t / "toolkits/cmake-4.1.2-abc";
  std::filesystem::create_directories(dir);
  std::string sum(64, 'a');
  ASSERT_EQ(util::write_file_atomic(dir + "/" + provision::kManifest,
                                    R"({"kind":"cmake","version":"4.1.2","wheels":[{"name":"cmake","version":"4.1.2",)"
                                    R"("sha256":")" + sum + R"(","file":"cmake-4.1.2-py3-none-manylinux2014_x86_64.whl"}]})"),
            "");
  nlohmann::json lock = {{"provisioned",
                          {{{"kind", "cmake"}, {"version", "4.1.2"}, {"dir", dir},
                            {"wheels", {{{"name", "cmake"}, {"version", "4.1.2"}, {"file", ""}, {"sha256", ""}}}}},
                           {{"kind", "cuda"}, {"version", "13.0.88"}, {"dir", t / "toolkits/none"},
                            {"wheels", {{{"name", "nvidia-cuda-nvcc"}, {"version", "13.0.88"}, {"file", ""}, {"sha256", ""}}}}}}}};
  EXPECT_EQ(record_provisioned_hashes(lock), 1);
  EXPECT_EQ(lock["provisioned"][0]["wheels"][0]["sha256"], sum);
  EXPECT_EQ(lock["provisioned"][0]["wheels"][0]["file"], "cmake-4.1.2-py3-none-manylinux2014_x86_64.whl");
  EXPECT_EQ(lock["provisioned"][1]["wheels"][0]["sha256"], "");  // not provisioned yet: left as it is
  // A hash the lock already pins is not overwritten (the provision step checked it against that one).
  lock["provisioned"][0]["wheels"][0]["sha256"] = std::string(64, 'b');
  EXPECT_EQ(record_provisioned_hashes(lock), 0);
  EXPECT_EQ(lock["provisioned"][0]["wheels"][0]["sha256"], std::string(64, 'b'));
  nlohmann::json none = {{"env", nlohmann::json::object()}};
  EXPECT_EQ(record_provisioned_hashes(none), 0);
}

}  // namespace
}  // namespace ts::run
