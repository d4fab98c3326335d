#include "scale/distcc_log.h"

#include <gtest/gtest.h>

namespace ts::scale {
namespace {

// Lines as distcc 3.4 writes them with DISTCC_VERBOSE=1 (trimmed to those that matter and a few
// that must not count): a and b remote, c refused by its host and run here, d run here with every
// host backed off, e timed out on one host and retried on the other, and a link ("(null)").
constexpr const char* kLog =
    "distcc[100] (main) compiler name is \"c++\"\n"
    "distcc[100] compile from a.cpp to a.o\n"
    "distcc[100] exec on 127.100.0.3:3632/4: x86_64-linux-gnu-g++ -c a.cpp -o a.o\n"
    "distcc[100] cpp a.cpp on localhost completed ok\n"
    "distcc[100] 185 bytes from a.cpp compiled on 127.100.0.3 in 0.0923s, rate 2kB/s\n"
    "distcc[100] compile a.cpp on 127.100.0.3:3632/4 completed ok\n"
    "distcc[101] compile from b.cpp to b.o\n"
    "distcc[101] exec on 127.100.0.4:3632/4: x86_64-linux-gnu-g++ -c b.cpp -o b.o\n"
    "distcc[101] compile b.cpp on 127.100.0.4:3632/4 completed ok\n"
    "distcc[102] compile from c.cpp to c.o\n"
    "distcc[102] exec on 127.100.0.4:3632/4: x86_64-linux-gnu-g++ -c c.cpp -o c.o\n"
    "distcc[102] ERROR: nonblocking connect to 127.100.0.4:3632 failed: Connection refused\n"
    "distcc[102] Warning: failed to distribute c.cpp to 127.100.0.4:3632/4, running locally instead\n"
    "distcc[102] exec on localhost: x86_64-linux-gnu-g++ -c c.cpp -o c.o\n"
    "distcc[102] compile c.cpp on localhost completed ok\n"
    "distcc[103] compile from d.cpp to d.o\n"
    "distcc[103] (dcc_build_somewhere) Warning: failed to distribute, running locally instead\n"
    "distcc[103] compile d.cpp on localhost completed ok\n"
    "distcc[104] compile from e.cpp to e.o\n"
    "distcc[104] exec on 127.100.0.3:3632/4: g++ -c e.cpp -o e.o\n"
    "distcc[104] (dcc_r_result_header) ERROR: server provided no answer.\n"
    "distcc[104] 13612383 bytes from e.cpp compiled on 127.100.0.3 in 311.2758s, rate 43kB/s\n"
    "distcc[104] exec on 127.100.0.4:3632/4: g++ -c e.cpp -o e.o\n"
    "distcc[104] compile e.cpp on 127.100.0.4:3632/4 completed ok\n"
    "distcc[105] compile (null) on localhost completed ok\n"
    "not a distcc line: compile x.cpp on 127.100.0.9:1/1 completed ok\n";

TEST(DistccLog, CountsUnitsWhereTheyFinallyCompiledAndTheMovedOnes) {
  DistccSummary s = parse_distcc_log(kLog);
  EXPECT_EQ(s.remote.at("127.100.0.3:3632"), 1);
  EXPECT_EQ(s.remote.at("127.100.0.4:3632"), 2);
  EXPECT_EQ(s.remote.size(), 2u);
  EXPECT_EQ(s.local, 2);
  EXPECT_EQ(s.total(), 5);
  ASSERT_EQ(s.moved.size(), 2u);
  EXPECT_EQ(s.moved[0].source, "c.cpp");
  EXPECT_EQ(s.moved[0].host, "127.100.0.4:3632/4");
  EXPECT_NE(s.moved[0].why.find("running locally"), std::string::npos) << s.moved[0].why;
  EXPECT_EQ(s.moved[1].source, "e.cpp");
  EXPECT_EQ(s.moved[1].host, "127.100.0.3:3632/4");
  EXPECT_NE(s.moved[1].why.find("server provided no answer"), std::string::npos) << s.moved[1].why;
}

TEST(DistccLog, EmptyAndForeignText) {
  EXPECT_EQ(parse_distcc_log("").total(), 0);
  EXPECT_EQ(parse_distcc_log("distcc[x\n]] garbage\ndistcc[1]\ndistcc[2] compile  completed ok\n").total(), 0);
}

}  // namespace
}  // namespace ts::scale
