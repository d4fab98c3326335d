#include "scale/request.h"

#include <gtest/gtest.h>

namespace ts::scale {
namespace {

TEST(ParseCache, EnginePlusStore) {
  std::string err;
  auto c = parse_cache("ccache+redis://127.100.0.2:6380", &err);
  EXPECT_EQ(err, "");
  EXPECT_EQ(c.engine, "ccache");
  EXPECT_EQ(c.scheme, "redis");
  EXPECT_EQ(c.url, "redis://127.100.0.2:6380");
  EXPECT_EQ(c.host, "127.100.0.2");
  EXPECT_EQ(c.port, 6380);
  c = parse_cache("ccache+http://cache.example:8080/ccache", &err);
  EXPECT_EQ(c.scheme, "http");
  EXPECT_EQ(c.port, 8080);
  EXPECT_EQ(parse_cache("sccache+redis://h", &err).port, 6379);  // redis' default port
  EXPECT_TRUE(parse_cache("", &err).empty());
  EXPECT_TRUE(parse_cache("none", &err).empty());
  EXPECT_EQ(err, "");
}

TEST(ParseCache, BadInputNamesTheProblem) {
  for (auto [text, says] : std::vector<std::pair<std::string, std::string>>{
           {"redis://h:1", "ENGINE+STORE"},
           {"bazel+redis://h:1", "ccache or sccache"},
           {"ccache+s3://bucket", "redis:// or http://"},
           {"sccache+http://h:1", "Redis store"},
           {"ccache+redis://user:pw@h:1", "credentials"},
           {"ccache+redis://h:99999", "not a port"},
           {"ccache+redis://h;rm:1", "not a host"},
           {"ccache+redis:h", "URL"}}) {
    std::string err;
    EXPECT_TRUE(parse_cache(text, &err).empty()) << text;
    EXPECT_NE(err.find(says), std::string::npos) << text << ": " << err;
    EXPECT_NE(err.find("--cache"), std::string::npos) << err;
  }
}

TEST(ParseHosts, DistccTcpForm) {
  std::string err;
  auto h = parse_hosts("127.100.0.3/4  127.100.0.4:3700/2 build3", &err);
  EXPECT_EQ(err, "");
  ASSERT_EQ(h.size(), 3u);
  EXPECT_EQ(h[0].host, "127.100.0.3");
  EXPECT_EQ(h[0].port, 3632);
  EXPECT_EQ(h[0].slots, 4);
  EXPECT_EQ(h[1].port, 3700);
  EXPECT_EQ(h[1].slots, 2);
  EXPECT_EQ(h[2].slots, 4);  // distcc's default limit for a TCP host
  EXPECT_EQ(hosts_text(h), "127.100.0.3:3632/4 127.100.0.4:3700/2 build3:3632/4");
}

TEST(ParseHosts, RefusesWhatItCannotProbe) {
  for (auto [text, says] : std::vector<std::pair<std::string, std::string>>{
           {"", "no hosts"},
           {"@buildbox", "TCP hosts"},
           {"h1,lzo", "TCP hosts"},
           {"--randomize h1", "TCP hosts"},
           {"localhost/2", "memory"},
           {"h1/0", "slots"},
           {"h1:x/2", "not a port"}}) {
    std::string err;
    EXPECT_TRUE(parse_hosts(text, &err).empty()) << text;
    EXPECT_NE(err.find(says), std::string::npos) << text << ": " << err;
  }
}

}  // namespace
}  // namespace ts::scale
