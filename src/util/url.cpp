#include "util/url.h"

#include <array>
#include <cctype>

namespace ts::util {

namespace {

bool is_control(unsigned char c) { return c < 0x20 || c == 0x7f; }

std::string lower(std::string_view s) {
  std::string r(s);
  for (auto& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

bool scheme_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.'; }

bool secret_param(std::string_view name) {
  static constexpr std::array<std::string_view, 14> kNames{
      "token", "access_token", "private_token", "oauth_token", "auth", "password", "passwd",
      "secret", "key", "api_key", "apikey", "sig", "signature", "x-amz-signature"};
  std::string n = lower(name);
  for (auto k : kNames)
    if (n == k) return true;
  return false;
}

// [user[:password]@] of an authority, redacted.
std::string redact_userinfo(std::string_view userinfo, bool http) {
  auto colon = userinfo.find(':');
  if (colon != std::string_view::npos) return std::string(userinfo.substr(0, colon)) + ":" + std::string(kRedacted);
  return http ? std::string(kRedacted) : std::string(userinfo);
}

}  // namespace

std::string check_git_ref(std::string_view ref) {
  std::string r(ref);
  auto bad = [&](const std::string& why) { return "'" + r + "' is not a git ref: " + why; };
  if (ref.empty()) return bad("it is empty");
  if (ref.front() == '-') return bad("it starts with '-' (git would read it as an option)");
  if (ref.size() > 255) return bad("longer than 255 characters");
  for (char ch : ref) {
    auto c = static_cast<unsigned char>(ch);
    if (is_control(c) || c == ' ') return bad("it holds a space or a control character");
    if (std::string_view("~^:?*[\\").find(ch) != std::string_view::npos)
      return bad(std::string("it holds '") + ch + "' (git refs never contain ~ ^ : ? * [ \\)");
  }
  if (ref == "@") return bad("'@' alone names no ref");
  if (ref.find("..") != std::string_view::npos) return bad("it holds '..'");
  if (ref.find("@{") != std::string_view::npos) return bad("it holds '@{'");
  if (ref.front() == '/' || ref.back() == '/' || ref.find("//") != std::string_view::npos)
    return bad("a '/' at its start or end, or two in a row");
  if (ref.back() == '.') return bad("it ends with '.'");
  std::size_t start = 0;
  while (start <= ref.size()) {
    auto end = ref.find('/', start);
    std::string_view part = ref.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (!part.empty() && part.front() == '.') return bad("a component starts with '.'");
    if (part.size() >= 5 && part.substr(part.size() - 5) == ".lock") return bad("a component ends with '.lock'");
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return "";
}

std::string check_git_url(std::string_view url) {
  std::string u(url);
  auto bad = [&](const std::string& why) { return "'" + redact_url(u) + "' is not a repository URL: " + why; };
  if (url.empty()) return bad("it is empty");
  if (url.front() == '-') return bad("it starts with '-' (git would read it as an option)");
  for (char ch : url)
    if (is_control(static_cast<unsigned char>(ch)) || ch == ' ')
      return bad("it holds a space or a control character");
  if (url.front() == '/' || url.rfind("./", 0) == 0 || url.rfind("../", 0) == 0) return "";  // a local path
  // transport::address runs a helper program (ext:: runs a command): never from input.
  std::size_t i = 0;
  while (i < url.size() && scheme_char(url[i])) ++i;
  if (i > 0 && url.substr(i, 2) == "::") return bad("'" + std::string(url.substr(0, i)) + "::' transports are not allowed");
  if (auto sep = url.find("://"); sep != std::string_view::npos) {
    std::string scheme = lower(url.substr(0, sep));
    if (scheme != "https" && scheme != "http" && scheme != "ssh" && scheme != "git" && scheme != "file" &&
        scheme != "git+ssh" && scheme != "ssh+git")
      return bad("scheme '" + scheme + "' (write https://, http://, ssh://, git://, file:// or user@host:path)");
    std::string_view rest = url.substr(sep + 3);
    std::string_view authority = rest.substr(0, rest.find('/'));
    auto at = authority.rfind('@');
    std::string_view host = at == std::string_view::npos ? authority : authority.substr(at + 1);
    if (scheme != "file" && host.empty()) return bad("no host");
    if (!host.empty() && host.front() == '-') return bad("the host starts with '-' (ssh would read it as an option)");
    if (at != std::string_view::npos && authority.front() == '-')
      return bad("the user starts with '-' (ssh would read it as an option)");
    return "";
  }
  // scp-like [user@]host:path: a ':' before any '/'.
  auto colon = url.find(':');
  auto slash = url.find('/');
  if (colon != std::string_view::npos && (slash == std::string_view::npos || colon < slash)) {
    std::string_view authority = url.substr(0, colon);
    auto at = authority.rfind('@');
    std::string_view host = at == std::string_view::npos ? authority : authority.substr(at + 1);
    if (host.empty()) return bad("no host before ':'");
    if (host.front() == '-' || authority.front() == '-') return bad("the host or user starts with '-' (ssh would read it as an option)");
    if (colon + 1 == url.size()) return bad("no path after ':'");
    return "";
  }
  return bad("write https://host/repo, ssh://host/repo, git@host:org/repo, or a path starting with /, ./ or ../");
}

std::string redact_url(std::string_view url) {
  std::string out;
  std::string_view rest = url;
  if (auto sep = url.find("://"); sep != std::string_view::npos) {
    std::string scheme = lower(url.substr(0, sep));
    bool http = scheme == "http" || scheme == "https";
    out = std::string(url.substr(0, sep + 3));
    rest = url.substr(sep + 3);
    std::size_t auth_end = rest.find_first_of("/?#");
    std::string_view authority = rest.substr(0, auth_end);
    if (auto at = authority.rfind('@'); at != std::string_view::npos) {
      out += redact_userinfo(authority.substr(0, at), http) + std::string(authority.substr(at));
      rest = auth_end == std::string_view::npos ? std::string_view() : rest.substr(auth_end);
    }
  }
  auto q = rest.find('?');
  if (q == std::string_view::npos) return out + std::string(rest);
  out += std::string(rest.substr(0, q + 1));
  std::string_view query = rest.substr(q + 1);
  std::string_view frag;
  if (auto h = query.find('#'); h != std::string_view::npos) frag = query.substr(h), query = query.substr(0, h);
  std::size_t start = 0;
  while (start <= query.size()) {
    auto amp = query.find('&', start);
    std::string_view kv = query.substr(start, amp == std::string_view::npos ? std::string_view::npos : amp - start);
    auto eq = kv.find('=');
    if (eq != std::string_view::npos && secret_param(kv.substr(0, eq)))
      out += std::string(kv.substr(0, eq + 1)) + std::string(kRedacted);
    else
      out += std::string(kv);
    if (amp == std::string_view::npos) break;
    out += '&';
    start = amp + 1;
  }
  return out + std::string(frag);
}

std::string redact_text(std::string_view text) {
  std::string out;
  std::size_t done = 0;
  for (std::size_t p = text.find("://"); p != std::string_view::npos; p = text.find("://", p + 3)) {
    std::size_t begin = p;
    while (begin > done && scheme_char(text[begin - 1])) --begin;
    if (begin == p) continue;
    std::size_t end = p + 3;
    while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end])) && text[end] != '\'' &&
           text[end] != '"' && text[end] != '<' && text[end] != '>' && text[end] != '`')
      ++end;
    out.append(text.substr(done, begin - done));
    out += redact_url(text.substr(begin, end - begin));
    done = end;
    p = end - 3 < p ? p : end - 3;
  }
  out.append(text.substr(done));
  return out;
}

}  // namespace ts::util
