#pragma once
// What `--cache ENGINE+STORE` and `--distribute distcc --hosts "h1/4 h2/4"` ask for, parsed and
// checked for shape (never resolved here: reachability is health.h's and hosts.h's job).
#include <string>
#include <vector>

namespace ts::scale {

struct CacheRequest {
  std::string engine;  // "ccache", "sccache"; "" = no shared cache asked for
  std::string scheme;  // "redis", "http"
  std::string url;     // the store as the engine takes it: "redis://127.100.0.2:6379"
  std::string host;
  int port = 0;
  bool empty() const { return engine.empty(); }
};

// "ccache+redis://HOST[:PORT]", "ccache+http://HOST[:PORT][/PATH]", "sccache+redis://HOST[:PORT]".
// Returns nullopt-like empty() with *error set on bad input; "" or "none" is no request.
CacheRequest parse_cache(const std::string& text, std::string* error);

struct DistccHost {
  std::string spec;  // as DISTCC_HOSTS writes it: "127.100.0.3:3632/4"
  std::string host;
  int port = 3632;
  int slots = 4;     // distcc's own default limit for a TCP host
};

// DISTCC_HOSTS' TCP form: "HOST[:PORT][/LIMIT]" separated by spaces. Other forms (ssh "@host",
// ",lzo"/",cpp" options, "--randomize") are refused by name: torchsmith probes each host itself.
std::vector<DistccHost> parse_hosts(const std::string& text, std::string* error);

// The hosts back in DISTCC_HOSTS form.
std::string hosts_text(const std::vector<DistccHost>& hosts);

}  // namespace ts::scale
