#include "run/journal.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "util/fs.h"

namespace ts::run {
namespace {

std::string temp_path(const char* name) {
  return (std::filesystem::temp_directory_path() / (std::string(name) + std::to_string(getpid()))).string();
}

TEST(Journal, RoundTripsEveryField) {
  Journal j;
  j.plan_hash = "abc";
  j.active_pgid = 4711;
  j.active_run = "run-1";
  auto& s = j.upsert("build");
  s.input_hash = "h1";
  s.status = "ok";
  s.seconds = 12.5;
  s.finished_at = "2026-11-26T05:00:00Z";
  j.upsert("verify").status = "failed";
  std::string path = temp_path("journal");
  ASSERT_EQ(save_journal(path, j), "");
  std::string err;
  Journal back = load_journal(path, &err);
  EXPECT_EQ(err, "");
  EXPECT_EQ(back.plan_hash, "abc");
  EXPECT_EQ(back.active_pgid, 4711);
  EXPECT_EQ(back.active_run, "run-1");
  ASSERT_EQ(back.steps.size(), 2u);
  ASSERT_NE(back.find("build"), nullptr);
  EXPECT_EQ(back.find("build")->input_hash, "h1");
  EXPECT_EQ(back.find("build")->seconds, 12.5);
  EXPECT_EQ(back.find("verify")->status, "failed");
  EXPECT_EQ(back.find("fetch"), nullptr);
  std::filesystem::remove(path);
}

TEST(Journal, UpsertUpdatesInPlace) {
  Journal j;
  j.upsert("build").status = "running";
  j.upsert("build").status = "ok";
  EXPECT_EQ(j.steps.size(), 1u);
  EXPECT_EQ(j.find("build")->status, "ok");
}

TEST(Journal, MissingFileIsEmptyAndDamagedFileIsNamed) {
  std::string err;
  Journal none = load_journal("/nonexistent/journal.json", &err);
  EXPECT_TRUE(none.steps.empty());
  EXPECT_EQ(err, "");
  std::string path = temp_path("journal-bad");
  ASSERT_EQ(util::write_file_atomic(path, "{\"schema\": \"torchsmith-journal/1\", \"steps\": [{\"nam"), "");
  Journal bad = load_journal(path, &err);
  EXPECT_TRUE(bad.steps.empty());
  EXPECT_NE(err.find(path), std::string::npos) << err;
  EXPECT_NE(err.find("every step will run again"), std::string::npos) << err;
  ASSERT_EQ(util::write_file_atomic(path, "{\"schema\": \"other/2\", \"steps\": []}"), "");
  err.clear();
  load_journal(path, &err);
  EXPECT_NE(err.find("unknown schema"), std::string::npos) << err;
  std::filesystem::remove(path);
}

TEST(Journal, HashPartsSeparatesBoundaries) {
  EXPECT_NE(hash_parts({"ab", "c"}), hash_parts({"a", "bc"}));
  EXPECT_EQ(hash_parts({"a", "b"}), hash_parts({"a", "b"}));
  EXPECT_EQ(hash_parts({}).size(), 64u);
}

}  // namespace
}  // namespace ts::run
