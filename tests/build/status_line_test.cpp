// The live status line: plain words, what compiles, a moving ETA, "stopping" on a failure, fitted
// to 40, 80 and 200 columns; and on a real pseudo-terminal, redrawn in place at its width and
// again at the new width after SIGWINCH.
#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "build/runner.h"

namespace ts::build {
namespace {

Status busy() {
  Status s;
  s.phase = "build";
  s.elapsed = 250;
  s.progress = NinjaProgress{312, 1800, 4.0, 78, "scatter_cpu.cpp"};
  s.eta_seconds = 372;
  s.what = "scatter_cpu.cpp";
  s.mem.available = (178ull << 30) / 10;
  s.governor = GovernorState{3, 1, 0, 0};
  return s;
}

TEST(StatusLine, PlainWordsAtTwoHundredColumns) {
  std::string l = format_status(busy(), 200);
  EXPECT_EQ(l, "build 4m10s | 312/1800 17% ETA 6m12s | compiling scatter_cpu.cpp | memory: 17.8 GiB free, 1 job paused");
  EXPECT_EQ(l.find("gov"), std::string::npos);
}

TEST(StatusLine, FitsFortyAndEightyColumnsKeepingTheMostUseful) {
  Status s = busy();
  s.what = "a_rather_long_directory_name/and_a_kernel_file_name_that_goes_on.cu";
  for (int w : {40, 80, 200}) {
    std::string l = format_status(s, w);
    EXPECT_LT(l.size(), std::size_t(w)) << w << ": " << l;  // never the last column: no wrap
    EXPECT_EQ(l.rfind("build 4m10s | 312/1800 17% ETA 6m12s", 0), 0u) << w << ": " << l;
  }
  EXPECT_EQ(format_status(s, 40).find("memory"), std::string::npos);
  std::string l80 = format_status(s, 80);
  EXPECT_NE(l80.find("goes_on.cu"), std::string::npos) << l80;  // shortened from the front
  EXPECT_NE(format_status(s, 200).find("memory: 17.8 GiB free"), std::string::npos);
}

TEST(StatusLine, EtaCountsDownBetweenProgressLines) {
  Status s = busy();
  std::string now = format_status(s);
  s.elapsed += 120;
  s.progress_age = 120;
  std::string later = format_status(s);
  EXPECT_NE(now.find("ETA 6m12s"), std::string::npos) << now;
  EXPECT_NE(later.find("ETA 4m12s"), std::string::npos) << later;
  s.progress_age = 1000;
  EXPECT_NE(format_status(s).find("ETA soon"), std::string::npos);
}

TEST(StatusLine, StoppingIsNeverAHundredPercent) {
  Status s = busy();
  s.progress->done = 1800;
  s.stopping = "failed: CXX_SYNTAX_ERROR";
  std::string l = format_status(s, 80);
  EXPECT_NE(l.find("stopping: failed: CXX_SYNTAX_ERROR"), std::string::npos) << l;
  EXPECT_EQ(l.find('%'), std::string::npos) << l;
}

TEST(StatusLine, SerialAndSideBySideBuildsSayWhatCompiles) {
  Status serial;
  serial.phase = "build";
  serial.elapsed = 30;
  serial.what = compile_subject("x86_64-linux-gnu-gcc -Wall -fPIC -I/usr/include -c hello_ext.cpp -o build/temp/hello_ext.o");
  serial.compiles_seen = 3;
  EXPECT_EQ(format_status(serial), "build 0m30s | 3 compiled | compiling hello_ext.cpp");

  Status side;
  side.phase = "build";
  side.elapsed = 61;
  auto e = parse_extension_status(
      "[ext 3/8] c++ -MMD -MF /o/src/build/temp.linux-x86_64-cpython-311/ts-torch_scatter._scatter_cpu/csrc/scatter.o.d "
      "-c /o/src/csrc/cpu/scatter_cpu.cpp -o /o/src/build/temp.linux-x86_64-cpython-311/ts-torch_scatter._scatter_cpu/csrc/cpu/scatter_cpu.o");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->name, "torch_scatter._scatter_cpu");
  EXPECT_EQ(e->done, 3);
  EXPECT_EQ(e->total, 8);
  side.extensions = {*e, {"torch_scatter._segment_csr_cpu", 8, 8, ""}};
  EXPECT_EQ(format_status(side), "build 1m01s | compiling scatter_cpu.cpp (torch_scatter._scatter_cpu 3/8)");
}

TEST(StatusLine, CompileSubjects) {
  EXPECT_EQ(compile_subject("Building CXX object caffe2/CMakeFiles/torch_cpu.dir/aten/src/ATen/Context.cpp.o"), "Context.cpp");
  EXPECT_EQ(compile_subject("Linking CXX shared library lib/libtorch_cpu.so"), "linking libtorch_cpu.so");
  EXPECT_EQ(compile_subject("/usr/local/cuda/bin/nvcc --generate-dependencies-with-compile -I/x -c /s/k.cu -o /b/k.o"), "k.cu");
  EXPECT_EQ(compile_subject("ccache g++ -c a.cc"), "a.cc");
  EXPECT_EQ(compile_subject("running build_ext"), "");
  EXPECT_EQ(compile_subject("g++ -shared build/a.o -o build/lib/x.so"), "");
  auto p = parse_ninja_status("[ts 4/9 1.0/s 4.0s] Building CXX object CMakeFiles/x.dir/src/y.cpp.o");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->what, "y.cpp");
}

// A real terminal: the printer redraws one line in place (no newline) at the pty's 40 columns,
// and at 200 after the window grows and SIGWINCH arrives.
TEST(StatusLine, RedrawsOnAPtyAtItsWidthAndAfterSigwinch) {
  int master = -1, slave = -1;
  winsize ws{};
  ws.ws_row = 24, ws.ws_col = 40;
  ASSERT_EQ(openpty(&master, &slave, nullptr, nullptr, &ws), 0);
  auto printer = tty_status_printer(slave);
  ASSERT_TRUE(printer);
  auto drain = [&] {
    std::string got;
    char buf[4096];
    pollfd pf{master, POLLIN, 0};
    while (poll(&pf, 1, 200) > 0) {
      ssize_t n = read(master, buf, sizeof buf);
      if (n <= 0) break;
      got.append(buf, std::size_t(n));
    }
    return got;
  };
  Status s = busy();
  printer(s);
  printer(s);
  std::string out = drain();
  EXPECT_EQ(out.find('\n'), std::string::npos) << out;
  std::size_t redraws = 0;
  for (std::size_t at = out.find("\r\x1b[K"); at != std::string::npos; at = out.find("\r\x1b[K", at + 1)) {
    std::size_t next = out.find("\r\x1b[K", at + 1);
    std::string line = out.substr(at + 4, (next == std::string::npos ? out.size() : next) - at - 4);
    EXPECT_LT(line.size(), 40u) << line;
    ++redraws;
  }
  EXPECT_EQ(redraws, 2u) << out;

  ws.ws_col = 200;
  ASSERT_EQ(ioctl(master, TIOCSWINSZ, &ws), 0);
  raise(SIGWINCH);
  printer(s);
  out = drain();
  EXPECT_NE(out.find("memory: 17.8 GiB free, 1 job paused"), std::string::npos) << out;
  close(master);
  close(slave);
}

}  // namespace
}  // namespace ts::build
