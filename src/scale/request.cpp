#include "scale/request.h"

#include <cctype>
#include <sstream>

namespace ts::scale {

namespace {

bool all_digits(const std::string& s) {
  if (s.empty() || s.size() > 5) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

bool good_host(const std::string& h) {
  if (h.empty() || h.size() > 253) return false;
  for (char c : h)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-') return false;
  return true;
}

}  // namespace

CacheRequest parse_cache(const std::string& text, std::string* error) {
  CacheRequest r;
  if (text.empty() || text == "none") return r;
  auto fail = [&](const std::string& why) {
    if (error) *error = "--cache " + text + ": " + why;
    return CacheRequest{};
  };
  auto plus = text.find('+');
  if (plus == std::string::npos)
    return fail("write ENGINE+STORE: ccache+redis://HOST:PORT, ccache+http://HOST:PORT/PATH or sccache+redis://HOST:PORT");
  std::string engine = text.substr(0, plus), url = text.substr(plus + 1);
  if (engine != "ccache" && engine != "sccache") return fail("the engine is ccache or sccache, not '" + engine + "'");
  auto sep = url.find("://");
  if (sep == std::string::npos) return fail("the store is a URL: redis://HOST:PORT or http://HOST:PORT/PATH");
  std::string scheme = url.substr(0, sep);
  if (scheme != "redis" && scheme != "http") return fail("the store is redis:// or http://, not " + scheme + "://");
  if (engine == "sccache" && scheme != "redis")
    return fail("torchsmith drives sccache with a Redis store (SCCACHE_REDIS_ENDPOINT); use ccache+http:// for HTTP");
  std::string rest = url.substr(sep + 3);
  std::string hostport = rest.substr(0, rest.find('/'));
  if (hostport.find('@') != std::string::npos)
    return fail("credentials in the URL would land in the plan and the report: give them in the engine's own "
                "configuration instead");
  std::string host = hostport, port = scheme == "redis" ? "6379" : "80";
  if (auto c = hostport.rfind(':'); c != std::string::npos) {
    host = hostport.substr(0, c);
    port = hostport.substr(c + 1);
  }
  if (!good_host(host)) return fail("'" + host + "' is not a host name or IPv4 address");
  if (!all_digits(port) || std::stoi(port) < 1 || std::stoi(port) > 65535) return fail("'" + port + "' is not a port");
  if (url.find_first_of(" \t|\"'") != std::string::npos) return fail("the URL has a space, quote or '|'");
  r.engine = engine;
  r.scheme = scheme;
  r.url = url;
  r.host = host;
  r.port = std::stoi(port);
  return r;
}

std::vector<DistccHost> parse_hosts(const std::string& text, std::string* error) {
  std::vector<DistccHost> out;
  std::istringstream in(text);
  std::string tok;
  while (in >> tok) {
    auto fail = [&](const std::string& why) {
      if (error) *error = "--hosts: '" + tok + "': " + why;
      return std::vector<DistccHost>{};
    };
    if (tok.rfind("--", 0) == 0 || tok.find('@') != std::string::npos || tok.find(',') != std::string::npos)
      return fail("only TCP hosts HOST[:PORT][/SLOTS] are planned (ssh hosts, options and --randomize are not)");
    DistccHost h;
    std::string hp = tok;
    if (auto s = tok.find('/'); s != std::string::npos) {
      std::string n = tok.substr(s + 1);
      if (!all_digits(n) || std::stoi(n) < 1 || std::stoi(n) > 1024) return fail("the slots after '/' are a number from 1 to 1024");
      h.slots = std::stoi(n);
      hp = tok.substr(0, s);
    }
    if (auto c = hp.rfind(':'); c != std::string::npos) {
      std::string p = hp.substr(c + 1);
      if (!all_digits(p) || std::stoi(p) < 1 || std::stoi(p) > 65535) return fail("'" + p + "' is not a port");
      h.port = std::stoi(p);
      hp = hp.substr(0, c);
    }
    if (hp == "localhost") return fail("localhost is the machine running the build: its jobs are planned from memory");
    if (!good_host(hp)) return fail("not a host name or IPv4 address");
    h.host = hp;
    h.spec = hp + ":" + std::to_string(h.port) + "/" + std::to_string(h.slots);
    out.push_back(h);
  }
  if (out.empty() && error && error->empty()) *error = "--hosts: no hosts given (write \"HOST[:PORT][/SLOTS] ...\")";
  return out;
}

std::string hosts_text(const std::vector<DistccHost>& hosts) {
  std::string s;
  for (const auto& h : hosts) s += (s.empty() ? "" : " ") + h.spec;
  return s;
}

}  // namespace ts::scale
