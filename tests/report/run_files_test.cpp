#include "report/run_files.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <sys/mount.h>
#include <unistd.h>

#include "build/ninja_log.h"
#include "report/run_html.h"
#include "report/run_text.h"
#include "report/trace.h"
#include "run_sample.h"
#include "util/fs.h"

using namespace ts::report;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("ts_run_files_" + std::to_string(::getpid()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
};

}  // namespace

TEST(RunFiles, WritesRunJsonReportAndTrace) {
  TempDir d;
  RunRecord r = sample::sample_record();
  r.run_dir = d.path.string();
  r.ninja_log = std::string(TS_SOURCE_DIR) + "/tests/fixtures/ninja_logs/two_runs.v5.ninja_log";
  RunFiles f = write_run_files(r);
  ASSERT_TRUE(f.ok()) << f.error;
  EXPECT_EQ(f.written.size(), 3u);
  EXPECT_TRUE(f.notes.empty());
  auto json_text = ts::util::read_file((d.path / "run.json").string());
  ASSERT_TRUE(json_text);
  EXPECT_EQ(parse_run_json(*json_text).what, r.what);
  auto html = ts::util::read_file((d.path / "report.html").string());
  ASSERT_TRUE(html);
  EXPECT_NE(html->find("<svg id=\"timeline\""), std::string::npos);
  auto trace = ts::util::read_file((d.path / "trace.json").string());
  ASSERT_TRUE(trace);
  EXPECT_TRUE(nlohmann::json::parse(*trace).contains("traceEvents"));
}

TEST(RunFiles, MissingNinjaLogIsANoteNotAFailure) {
  TempDir d;
  RunRecord r = sample::sample_record();
  r.run_dir = d.path.string();
  r.ninja_log = (d.path / "nope" / ".ninja_log").string();
  RunFiles f = write_run_files(r);
  ASSERT_TRUE(f.ok()) << f.error;
  EXPECT_EQ(f.written.size(), 2u);
  ASSERT_EQ(f.notes.size(), 1u);
  EXPECT_NE(f.notes[0].find("no trace.json"), std::string::npos);
  EXPECT_FALSE(fs::exists(d.path / "trace.json"));
}

TEST(RunFiles, UnwritableDirectoryIsAnError) {
  RunRecord r = sample::sample_record();
  r.run_dir = "/nonexistent/run";
  RunFiles f = write_run_files(r);
  EXPECT_FALSE(f.ok());
  EXPECT_NE(f.error.find("/nonexistent/run/run.json"), std::string::npos) << f.error;
  r.run_dir.clear();
  EXPECT_NE(write_run_files(r).error.find("no run directory"), std::string::npos);
}

// Issue 21 (8): a full disk. A 64 KiB tmpfs (root only; skipped elsewhere) is filled, then the
// run's files are written: the error says "no space", nothing is claimed written, no temp file is
// left, and the summary points to no file.
TEST(RunFiles, AFullDiskIsNamedAndTheSummaryPointsToNothingUnwritten) {
  TempDir d;
  fs::path mnt = d.path / "tiny";
  fs::create_directories(mnt);
  if (::mount("tmpfs", mnt.c_str(), "tmpfs", 0, "size=64k") != 0)
    GTEST_SKIP() << "cannot mount a tmpfs here (not root, or no CAP_SYS_ADMIN): " << std::strerror(errno);
  struct Unmount {
    fs::path p;
    ~Unmount() { ::umount2(p.c_str(), MNT_DETACH); }
  } unmount{mnt};
  fs::create_directories(mnt / "run");
  {
    std::ofstream fill(mnt / "fill", std::ios::binary);
    std::string block(4096, 'x');
    for (int i = 0; i < 64 && fill.write(block.data(), block.size()); ++i) fill.flush();
  }
  RunRecord r = sample::sample_record();
  r.run_dir = (mnt / "run").string();
  r.ninja_log.clear();
  RunFiles f = write_run_files(r);
  EXPECT_FALSE(f.ok());
  EXPECT_NE(f.error.find("no space left on the device holding " + r.run_dir + "/run.json"), std::string::npos) << f.error;
  EXPECT_TRUE(f.written.empty());
  EXPECT_TRUE(fs::is_empty(mnt / "run"));  // no half-written file or temp file left
  std::string summary = render_run_text(r, {}, f.written);
  EXPECT_EQ(summary.find(r.run_dir + "/run.json"), std::string::npos) << summary;
  EXPECT_NE(summary.find("run.json:    not written"), std::string::npos) << summary;
}

// PyTorch-sized: 12000 jobs on 16 lanes. Prints the figures; bounds keep the report usable.
TEST(RunFiles, PyTorchSizedLogStaysSmallAndFast) {
  std::string t = "# ninja log v5\n";
  std::int64_t lane_end[16] = {};
  std::vector<std::pair<std::int64_t, std::string>> lines;
  for (int i = 0; i < 12000; ++i) {
    std::int64_t d = 200 + (i * 7919) % 60000, s = lane_end[i % 16], e = s + d;
    lane_end[i % 16] = e;
    lines.push_back({e, std::to_string(s) + "\t" + std::to_string(e) + "\t1\tcaffe2/CMakeFiles/torch_cuda.dir/f" +
                            std::to_string(i) + (i % 3 ? ".cpp.o" : ".cu.o") + "\t" + std::to_string(1000 + i) + "\n"});
  }
  std::sort(lines.begin(), lines.end());
  for (const auto& l : lines) t += l.second;
  auto t0 = std::chrono::steady_clock::now();
  auto log = ts::build::parse_ninja_log(t);
  auto t1 = std::chrono::steady_clock::now();
  std::string html = render_run_html(sample::sample_record(), &log);
  auto t2 = std::chrono::steady_clock::now();
  std::string trace = chrome_trace_text(log, nullptr);
  auto t3 = std::chrono::steady_clock::now();
  auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
  std::printf("12000 jobs: parse %.1f ms, html %.1f ms (%zu KiB), trace %.1f ms (%zu KiB)\n", ms(t0, t1),
              ms(t1, t2), html.size() / 1024, ms(t2, t3), trace.size() / 1024);
  EXPECT_EQ(log.entries.size(), 12000u);
  EXPECT_LT(html.size(), 2u << 20);
  EXPECT_LT(ms(t1, t2), 2000);
}
