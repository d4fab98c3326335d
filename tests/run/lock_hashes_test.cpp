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

// A redist entry: the plan knew cuda_nvcc's version only; the run fills each archive's version,
// URL and sha256 from what it fetched and checked.
TEST(LockHashes, RedistComponentsGetTheirVersionUrlAndHash) {
  testkit::TempDir t;
  std::string dir = t / "toolkits/cuda-12.4.131-abc";
  std::filesystem::create_directories(dir);
  std::string url = "https://mirror/cuda_cudart/linux-x86_64/cuda_cudart-linux-x86_64-12.4.127-archive.tar.xz";
  ASSERT_EQ(util::write_file_atomic(dir + "/" + provision::kManifest,
                                    R"({"kind":"cuda","version":"12.4.131","provider":"redist","wheels":[)"
                                    R"({"name":"cuda_nvcc","version":"12.4.131","sha256":")" + std::string(64, 'a') + R"(","file":"u1"},)"
                                    R"({"name":"cuda_cudart","version":"12.4.127","sha256":")" + std::string(64, 'c') +
                                        R"(","file":")" + url + R"("}]})"),
            "");
  nlohmann::json lock = {{"provisioned",
                          {{{"kind", "cuda"}, {"version", "12.4.131"}, {"provider", "redist"}, {"dir", dir},
                            {"wheels", {{{"name", "cuda_nvcc"}, {"version", "12.4.131"}, {"file", ""}, {"sha256", ""}},
                                        {{"name", "cuda_cudart"}, {"version", ""}, {"file", ""}, {"sha256", ""}}}}}}}};
  EXPECT_EQ(record_provisioned_hashes(lock), 2);
  const auto& w = lock["provisioned"][0]["wheels"][1];
  EXPECT_EQ(w["version"], "12.4.127");
  EXPECT_EQ(w["file"], url);
  EXPECT_EQ(w["sha256"], std::string(64, 'c'));
}

}  // namespace
}  // namespace ts::run
