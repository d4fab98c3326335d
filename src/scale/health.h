#pragma once
// Is the shared store there, and quick? A store that is down or slow must cost the build nothing
// but its cache: the check is bounded (connect and answer within the timeout), and its verdict
// decides whether the build gets the store at all.
#include <chrono>
#include <string>

#include "scale/request.h"

namespace ts::scale {

struct Health {
  bool ok = false;
  double ms = 0;       // connect + answer
  std::string detail;  // "PONG in 0.4 ms", "connection refused", "no answer within 1000 ms"
};

// A TCP exchange: connect to host:port, send `hello`, read until `expect` is seen at the start of
// the answer. Everything within `timeout`.
Health tcp_exchange(const std::string& host, int port, const std::string& hello, const std::string& expect,
                    std::chrono::milliseconds timeout);

// Redis: PING -> +PONG (or -NOAUTH: there, but wants a password, which ccache/sccache take from
// their own configuration). HTTP: GET / answered with any HTTP status line.
Health check_store(const CacheRequest& c, std::chrono::milliseconds timeout = std::chrono::milliseconds(1000));

// A distccd answers on its port (the probe compile then says whether it compiles).
Health check_port(const std::string& host, int port, std::chrono::milliseconds timeout);

}  // namespace ts::scale
