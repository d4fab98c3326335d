#include "scale/health.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace ts::scale {
namespace {

using namespace std::chrono_literals;

// A one-connection server on 127.0.0.1 that answers `reply` ("" = says nothing until closed).
struct Server {
  int fd = -1;
  int port = 0;
  std::thread t;
  explicit Server(std::string reply, std::chrono::milliseconds hold = 0ms) {
    fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    ::listen(fd, 4);
    socklen_t len = sizeof a;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    port = ntohs(a.sin_port);
    t = std::thread([this, reply, hold] {
      int c = ::accept(fd, nullptr, nullptr);
      if (c < 0) return;
      char buf[256];
      (void)!::recv(c, buf, sizeof buf, 0);
      if (!reply.empty()) (void)!::send(c, reply.data(), reply.size(), MSG_NOSIGNAL);
      std::this_thread::sleep_for(hold);
      ::close(c);
    });
  }
  ~Server() {
    ::shutdown(fd, SHUT_RDWR);
    ::close(fd);
    t.join();
  }
};

CacheRequest redis_at(int port) {
  std::string err;
  return parse_cache("ccache+redis://127.0.0.1:" + std::to_string(port), &err);
}

TEST(StoreHealth, RedisThatAnswersPong) {
  Server s("+PONG\r\n");
  Health h = check_store(redis_at(s.port), 2000ms);
  EXPECT_TRUE(h.ok) << h.detail;
  EXPECT_EQ(h.detail, "PONG");
}

TEST(StoreHealth, SlowStoreIsDownWithinTheTimeout) {
  Server s("", 3000ms);  // accepts, never answers
  auto t0 = std::chrono::steady_clock::now();
  Health h = check_store(redis_at(s.port), 300ms);
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_FALSE(h.ok);
  EXPECT_NE(h.detail.find("no answer within 300 ms"), std::string::npos) << h.detail;
  EXPECT_LT(took, 1.5);
}

TEST(StoreHealth, ClosedPortAndWrongAnswer) {
  int port = 0;
  {
    Server s("+PONG\r\n");
    port = s.port;
    (void)check_store(redis_at(port), 1000ms);  // let the server finish
  }
  Health h = check_store(redis_at(port), 500ms);
  EXPECT_FALSE(h.ok);
  EXPECT_NE(h.detail.find("refused"), std::string::npos) << h.detail;
  Server w("HTTP/1.1 200 OK\r\n\r\n");
  h = check_store(redis_at(w.port), 1000ms);
  EXPECT_FALSE(h.ok);
  EXPECT_NE(h.detail.find("unexpected answer 'HTTP/1.1 200 OK'"), std::string::npos) << h.detail;
}

TEST(StoreHealth, HttpStoreAnswersAnyStatus) {
  Server s("HTTP/1.1 404 Not Found\r\n\r\n");
  std::string err;
  Health h = check_store(parse_cache("ccache+http://127.0.0.1:" + std::to_string(s.port) + "/cache", &err), 1000ms);
  EXPECT_TRUE(h.ok) << h.detail;
}

}  // namespace
}  // namespace ts::scale
