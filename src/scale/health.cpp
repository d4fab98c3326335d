#include "scale/health.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace ts::scale {

namespace {

using Clock = std::chrono::steady_clock;

struct Fd {
  int fd = -1;
  ~Fd() { if (fd >= 0) ::close(fd); }
};

int left_ms(Clock::time_point until) {
  auto d = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now()).count();
  return d > 0 ? static_cast<int>(d) : 0;
}

}  // namespace

Health tcp_exchange(const std::string& host, int port, const std::string& hello, const std::string& expect,
                    std::chrono::milliseconds timeout) {
  Health h;
  auto t0 = Clock::now();
  auto until = t0 + timeout;
  auto done = [&](bool ok, std::string d) {
    h.ok = ok;
    h.ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    h.detail = std::move(d);
    return h;
  };
  addrinfo hints{};
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  if (int e = getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &res); e != 0 || !res)
    return done(false, "cannot resolve " + host + ": " + gai_strerror(e));
  Fd s;
  s.fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (s.fd < 0) { freeaddrinfo(res); return done(false, std::string("socket: ") + std::strerror(errno)); }
  int rc = ::connect(s.fd, res->ai_addr, res->ai_addrlen);
  freeaddrinfo(res);
  if (rc != 0 && errno != EINPROGRESS) return done(false, std::strerror(errno));
  pollfd p{s.fd, POLLOUT, 0};
  if (rc != 0) {
    if (::poll(&p, 1, left_ms(until)) <= 0)
      return done(false, "no connection within " + std::to_string(timeout.count()) + " ms");
    int err = 0;
    socklen_t len = sizeof err;
    getsockopt(s.fd, SOL_SOCKET, SO_ERROR, &err, &len);
    if (err) return done(false, std::strerror(err));
  }
  if (hello.empty()) return done(true, "port open");
  if (::send(s.fd, hello.data(), hello.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(hello.size()))
    return done(false, std::string("send: ") + std::strerror(errno));
  std::string got;
  char buf[256];
  while (got.size() < expect.size()) {
    p = {s.fd, POLLIN, 0};
    if (::poll(&p, 1, left_ms(until)) <= 0)
      return done(false, "connected, but no answer within " + std::to_string(timeout.count()) + " ms");
    ssize_t n = ::recv(s.fd, buf, sizeof buf, 0);
    if (n <= 0) return done(false, "connection closed before an answer");
    got.append(buf, static_cast<std::size_t>(n));
  }
  if (got.compare(0, expect.size(), expect) != 0) {
    std::string first = got.substr(0, got.find_first_of("\r\n"));
    return done(false, "unexpected answer '" + first.substr(0, 60) + "'");
  }
  return done(true, "answered");
}

Health check_store(const CacheRequest& c, std::chrono::milliseconds timeout) {
  if (c.scheme == "redis") {
    Health h = tcp_exchange(c.host, c.port, "PING\r\n", "+PONG", timeout);
    if (h.ok) h.detail = "PONG";
    else if (h.detail.find("'-NOAUTH") != std::string::npos) h.ok = true, h.detail = "answers (wants a password)";
    return h;
  }
  std::string req = "GET / HTTP/1.0\r\nHost: " + c.host + "\r\nConnection: close\r\n\r\n";
  Health h = tcp_exchange(c.host, c.port, req, "HTTP/", timeout);
  if (h.ok) h.detail = "HTTP answer";
  return h;
}

Health check_port(const std::string& host, int port, std::chrono::milliseconds timeout) {
  return tcp_exchange(host, port, "", "", timeout);
}

}  // namespace ts::scale
