#include "report/run_record.h"
#include "report/run_text.h"

#include <gtest/gtest.h>

#include "run_sample.h"

using namespace ts::report;
using nlohmann::json;

namespace {

// The message of the exception parse_run_json throws for `text`, or "" when it did not throw.
std::string error_of(const std::string& text) {
  try {
    parse_run_json(text);
  } catch (const json::exception& e) {
    return e.what();
  }
  return "";
}

json good() { return json(sample::sample_record()); }

}  // namespace

TEST(RunRecord, JsonRoundTripKeepsEveryField) {
  RunRecord a = sample::sample_record();
  std::string text = run_json_text(a);
  RunRecord b = parse_run_json(text);
  EXPECT_EQ(run_json_text(b), text);
  EXPECT_EQ(b.what, "torch==2.4.1");
  ASSERT_EQ(b.steps.size(), 3u);
  EXPECT_EQ(b.steps[2].status, "failed");
  EXPECT_EQ(b.steps[2].exit_code, 1);
  EXPECT_DOUBLE_EQ(b.steps[2].start, 40.5);
  EXPECT_EQ(b.retries.at(0).remedy, "lower-jobs");
  EXPECT_EQ(b.governor.at(1).action, "resume");
  EXPECT_EQ(b.memory.at(1).used_bytes, 12ull << 30);
  EXPECT_EQ(b.cache.hits, 300u);
  EXPECT_DOUBLE_EQ(b.cache.hit_rate(), 0.75);
  EXPECT_EQ(b.diagnosis["root_cause"]["id"], "oom-killed");
  EXPECT_EQ(b.plan["jobs"], 4);
  EXPECT_EQ(b.verdicts, a.verdicts);
  EXPECT_EQ(b.ninja_log, a.ninja_log);
  EXPECT_EQ(b.step("build")->seconds, 1190);
  EXPECT_EQ(b.step("package"), nullptr);
}

TEST(RunRecord, MinimalRecordReadsWithDefaults) {
  RunRecord r = parse_run_json(R"({"schema":"torchsmith-run/1","outcome":"ok"})");
  EXPECT_EQ(r.outcome, "ok");
  EXPECT_TRUE(r.steps.empty());
  EXPECT_LT(r.cache.hit_rate(), 0);
  EXPECT_TRUE(r.diagnosis.is_null());
}

TEST(RunRecord, BadInputNamesTheField) {
  json j = good();
  j["steps"][2]["seconds"] = "long";
  EXPECT_NE(error_of(j.dump()).find("run.json: steps[2].seconds: expected a number, got a string"),
            std::string::npos)
      << error_of(j.dump());

  j = good();
  j["memory"][0]["used_bytes"] = -5;
  EXPECT_NE(error_of(j.dump()).find("memory[0].used_bytes"), std::string::npos);

  j = good();
  j["steps"] = {{"name", "x"}};  // an object, not an array
  EXPECT_NE(error_of(j.dump()).find("steps: expected an array, got an object"), std::string::npos);

  j = good();
  j["steps"][0] = 7;
  EXPECT_NE(error_of(j.dump()).find("steps[0]: expected an object, got a number"), std::string::npos);

  j = good();
  j["artifacts"][0] = 1;
  EXPECT_NE(error_of(j.dump()).find("artifacts[0]: expected a string"), std::string::npos);

  j = good();
  j.erase("outcome");
  EXPECT_NE(error_of(j.dump()).find("outcome: missing (required)"), std::string::npos);

  j = good();
  j["schema"] = "torchsmith-run/2";
  EXPECT_NE(error_of(j.dump()).find("newer than this torchsmith reads"), std::string::npos);

  j = good();
  j["schema"] = "torchsmith-plan/1";
  EXPECT_NE(error_of(j.dump()).find("not a torchsmith run record"), std::string::npos);

  EXPECT_NE(error_of("[1,2]").find("top level: expected an object"), std::string::npos);
  std::string text = run_json_text(sample::sample_record());
  EXPECT_NE(error_of(text.substr(0, text.size() / 2)).find("run.json is not valid JSON"),
            std::string::npos);
  EXPECT_NE(error_of("").find("not valid JSON"), std::string::npos);
}

TEST(RunRecord, InvalidUtf8IsReplacedNotThrown) {
  RunRecord r = sample::sample_record();
  r.retries[0].reason = "bad \xff\xfe byte";
  std::string text;
  ASSERT_NO_THROW(text = run_json_text(r));
  EXPECT_NE(parse_run_json(text).retries[0].reason.find("bad"), std::string::npos);
}

// verify's JSON verdicts as the lines the build summary prints, with verify's closing line.
TEST(RunRecord, CheckLinesFromVerifyJson) {
  auto checks = nlohmann::json::array(
      {{{"file", ""}, {"check", "import torch"}, {"outcome", "pass"}, {"detail", "torch 1.13"}},
       {{"file", ""}, {"check", "dependency yapf"}, {"outcome", "fail"}, {"detail", "not installable: no match"}},
       {{"file", "x.so"}, {"check", "gpu"}, {"outcome", "skip"}, {"detail", "skipped: not asked for"}}});
  auto lines = ts::report::check_lines(checks);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0], "ok    import torch     torch 1.13");
  EXPECT_EQ(lines[1], "FAIL  dependency yapf  not installable: no match");
  EXPECT_EQ(lines[2], "skip  gpu              x.so: not asked for");
  EXPECT_EQ(lines[3], "3 checks, 1 failed, 1 skipped");
  EXPECT_TRUE(ts::report::check_lines(nullptr).empty());
}

// A shared store and distcc (docs/scale.md): written only when used, read back whole.
TEST(RunRecord, SharedCacheAndDistributedRoundTrip) {
  RunRecord a = sample::sample_record();
  EXPECT_EQ(json(a).count("distributed"), 0u);  // not distributed: no section
  EXPECT_EQ(json(a)["cache"].count("store"), 0u);
  a.cache.store = "redis://127.100.0.2:6379";
  a.cache.store_ok = false;
  a.cache.warning = "shared cache redis://127.100.0.2:6379 did not answer";
  a.cache.remote_hits = 7;
  a.cache.local_hits = 2;
  a.distributed.engine = "distcc";
  a.distributed.hosts = "127.100.0.3:3632/4";
  a.distributed.remote_jobs = {{"127.100.0.3:3632", 11}};
  a.distributed.local_jobs = 3;
  a.distributed.moved = {{"a.cpp", "127.100.0.4:3632/4", "Warning: failed to distribute a.cpp"}};
  a.distributed.left_out = {"127.100.0.9:3632/4: not reachable"};
  std::string text = run_json_text(a);
  RunRecord b = parse_run_json(text);
  EXPECT_EQ(run_json_text(b), text);
  EXPECT_EQ(b.cache.remote_hits, 7u);
  EXPECT_FALSE(b.cache.store_ok);
  EXPECT_EQ(b.distributed.remote_jobs.at("127.100.0.3:3632"), 11);
  ASSERT_EQ(b.distributed.moved.size(), 1u);
  EXPECT_EQ(b.distributed.moved[0].host, "127.100.0.4:3632/4");

  json j = json::parse(text);
  j["distributed"]["remote_jobs"]["h"] = "many";
  EXPECT_NE(error_of(j.dump()).find("distributed.remote_jobs.h: expected an integer"), std::string::npos) << error_of(j.dump());
  j = json::parse(text);
  j["cache"]["store_ok"] = 1;
  EXPECT_NE(error_of(j.dump()).find("cache.store_ok: expected a boolean"), std::string::npos) << error_of(j.dump());
}
