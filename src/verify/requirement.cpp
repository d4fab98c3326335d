#include "verify/requirement.h"

#include <cctype>
#include <vector>

namespace ts::verify {
namespace {

std::string trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  std::size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return s.substr(i);
}

bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'; }

struct Token {
  enum Kind { var, str, op, lparen, rparen, and_, or_, end } kind;
  std::string text;
};

const char* const kVariables[] = {"python_version", "python_full_version", "os_name", "sys_platform",
                                  "platform_release", "platform_system", "platform_version", "platform_machine",
                                  "platform_python_implementation", "implementation_name",
                                  "implementation_version", "extra"};

bool tokenize(const std::string& s, std::vector<Token>* out, std::string* error) {
  std::size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) { ++i; continue; }
    if (c == '(') { out->push_back({Token::lparen, "("}); ++i; continue; }
    if (c == ')') { out->push_back({Token::rparen, ")"}); ++i; continue; }
    if (c == '\'' || c == '"') {
      auto e = s.find(c, i + 1);
      if (e == std::string::npos) { *error = "unterminated string in marker '" + s + "'"; return false; }
      out->push_back({Token::str, s.substr(i + 1, e - i - 1)});
      i = e + 1;
      continue;
    }
    if (std::string("=!<>~").find(c) != std::string::npos) {
      std::size_t e = i;
      while (e < s.size() && std::string("=!<>~").find(s[e]) != std::string::npos) ++e;
      std::string o = s.substr(i, e - i);
      if (o != "==" && o != "!=" && o != "<=" && o != ">=" && o != "<" && o != ">" && o != "~=" && o != "===") {
        *error = "unknown operator '" + o + "' in marker '" + s + "'";
        return false;
      }
      out->push_back({Token::op, o});
      i = e;
      continue;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t e = i;
      while (e < s.size() && (std::isalnum(static_cast<unsigned char>(s[e])) || s[e] == '_' || s[e] == '.')) ++e;
      std::string w = s.substr(i, e - i);
      i = e;
      if (w == "and") out->push_back({Token::and_, w});
      else if (w == "or") out->push_back({Token::or_, w});
      else if (w == "in") out->push_back({Token::op, "in"});
      else if (w == "not") {
        while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
        if (s.compare(i, 2, "in") != 0) { *error = "'not' without 'in' in marker '" + s + "'"; return false; }
        i += 2;
        out->push_back({Token::op, "not in"});
      } else {
        if (w.rfind("os.", 0) == 0 || w.rfind("sys.", 0) == 0 || w.rfind("platform.", 0) == 0) {
          // Legacy dotted names (PEP 345): os.name, sys.platform, platform.machine ...
          for (char& ch : w) if (ch == '.') ch = '_';
        }
        bool known = false;
        for (const char* v : kVariables) known = known || w == v;
        if (!known) { *error = "unknown marker variable '" + w + "' in '" + s + "'"; return false; }
        out->push_back({Token::var, w});
      }
      continue;
    }
    *error = std::string("unexpected '") + c + "' in marker '" + s + "'";
    return false;
  }
  out->push_back({Token::end, ""});
  return true;
}

// Release numbers of a version ("3.11.7" -> 3 11 7); nullopt when it does not start with one.
std::optional<std::vector<long>> release(const std::string& v) {
  std::vector<long> out;
  std::size_t i = 0;
  while (i < v.size() && std::isdigit(static_cast<unsigned char>(v[i]))) {
    long x = 0;
    while (i < v.size() && std::isdigit(static_cast<unsigned char>(v[i])) && x < 1000000) x = x * 10 + (v[i++] - '0');
    out.push_back(x);
    if (i + 1 < v.size() && v[i] == '.' && std::isdigit(static_cast<unsigned char>(v[i + 1]))) ++i;
    else break;
  }
  if (out.empty()) return std::nullopt;
  return out;
}

int compare(std::vector<long> a, std::vector<long> b) {
  while (a.size() < b.size()) a.push_back(0);
  while (b.size() < a.size()) b.push_back(0);
  return a < b ? -1 : a > b ? 1 : 0;
}

bool compare_values(const std::string& l, const std::string& op, const std::string& r) {
  if (op == "in") return r.find(l) != std::string::npos;
  if (op == "not in") return r.find(l) == std::string::npos;
  if (op == "===") return l == r;
  auto lv = release(l);
  if (r.size() > 2 && r.compare(r.size() - 2, 2, ".*") == 0 && (op == "==" || op == "!=")) {
    auto rv = release(r.substr(0, r.size() - 2));
    bool prefix = lv && rv && lv->size() >= rv->size() && std::equal(rv->begin(), rv->end(), lv->begin());
    return op == "==" ? prefix : !prefix;
  }
  auto rv = release(r);
  if (lv && rv) {
    int c = compare(*lv, *rv);
    if (op == "==") return c == 0;
    if (op == "!=") return c != 0;
    if (op == "<") return c < 0;
    if (op == "<=") return c <= 0;
    if (op == ">") return c > 0;
    if (op == ">=") return c >= 0;
    if (op == "~=") {  // >= r, and the same release up to r's next-to-last number
      if (c < 0 || rv->size() < 2) return c >= 0 && rv->size() >= 2;
      std::vector<long> head(rv->begin(), rv->end() - 1);
      return lv->size() >= head.size() && std::equal(head.begin(), head.end(), lv->begin());
    }
  }
  if (op == "==") return l == r;
  if (op == "!=") return l != r;
  return false;  // ordering of non-versions: PEP 508 leaves it to the tool; pip says false
}

class Parser {
 public:
  Parser(const std::vector<Token>& t, const MarkerEnv& env) : t_(t), env_(env) {}
  std::optional<bool> parse(std::string* error) {
    auto v = or_expr(error);
    if (v && t_[i_].kind != Token::end) { *error = "unexpected '" + t_[i_].text + "'"; return std::nullopt; }
    return v;
  }

 private:
  std::optional<bool> or_expr(std::string* e) {
    auto v = and_expr(e);
    while (v && t_[i_].kind == Token::or_) {
      ++i_;
      auto r = and_expr(e);
      if (!r) return std::nullopt;
      v = *v || *r;
    }
    return v;
  }
  std::optional<bool> and_expr(std::string* e) {
    auto v = atom(e);
    while (v && t_[i_].kind == Token::and_) {
      ++i_;
      auto r = atom(e);
      if (!r) return std::nullopt;
      v = *v && *r;
    }
    return v;
  }
  std::optional<std::string> value(std::string* e) {
    const Token& t = t_[i_];
    if (t.kind == Token::str) { ++i_; return t.text; }
    if (t.kind == Token::var) {
      ++i_;
      auto it = env_.find(t.text);
      return it == env_.end() ? std::string() : it->second;
    }
    *e = t.kind == Token::end ? "marker ends early" : "expected a variable or a string, got '" + t.text + "'";
    return std::nullopt;
  }
  std::optional<bool> atom(std::string* e) {
    if (t_[i_].kind == Token::lparen) {
      ++i_;
      auto v = or_expr(e);
      if (!v) return std::nullopt;
      if (t_[i_].kind != Token::rparen) { *e = "missing ')'"; return std::nullopt; }
      ++i_;
      return v;
    }
    auto l = value(e);
    if (!l) return std::nullopt;
    if (t_[i_].kind != Token::op) { *e = "expected an operator after '" + *l + "'"; return std::nullopt; }
    std::string op = t_[i_++].text;
    auto r = value(e);
    if (!r) return std::nullopt;
    return compare_values(*l, op, *r);
  }

  const std::vector<Token>& t_;
  const MarkerEnv& env_;
  std::size_t i_ = 0;
};

}  // namespace

std::optional<Requirement> parse_requirement(const std::string& text, std::string* error) {
  Requirement r;
  std::string s = trim(text);
  std::size_t i = 0;
  while (i < s.size() && name_char(s[i])) ++i;
  r.name = s.substr(0, i);
  if (r.name.empty() || !std::isalnum(static_cast<unsigned char>(r.name[0]))) {
    *error = "'" + text + "': no distribution name";
    return std::nullopt;
  }
  r.key = normalize_name(r.name);
  // A URL requirement may hold ';' in its URL only before " ;" — PEP 508 asks for a space there.
  bool url = s.find('@', i) != std::string::npos && s.find('@', i) < s.find(';', i);
  std::size_t semi = url ? s.find(" ;", i) : s.find(';', i);
  if (url && semi == std::string::npos) semi = s.find("; ", i);
  r.specifier = trim(s.substr(0, semi));
  if (semi != std::string::npos) r.marker = trim(s.substr(semi + (s[semi] == ' ' ? 2 : 1)));
  return r;
}

std::optional<bool> evaluate_marker(const std::string& marker, const MarkerEnv& env, std::string* error) {
  if (trim(marker).empty()) return true;
  std::vector<Token> tokens;
  if (!tokenize(marker, &tokens, error)) return std::nullopt;
  Parser p(tokens, env);
  auto v = p.parse(error);
  if (!v && error->find(marker) == std::string::npos) *error += " in marker '" + marker + "'";
  return v;
}

const char* marker_env_script() {
  return "import json, os, sys, platform\n"
         "impl = sys.implementation\n"
         "iv = '%d.%d.%d' % impl.version[:3]\n"
         "if impl.version[3] != 'final': iv += impl.version[3][0] + str(impl.version[4])\n"
         "try:\n"
         "    from importlib.metadata import version as dv\n"
         "    torch = dv('torch')\n"
         "except Exception:\n"
         "    torch = ''\n"
         "print(json.dumps({'python_version': '.'.join(platform.python_version_tuple()[:2]),\n"
         "  'python_full_version': platform.python_version(), 'os_name': os.name,\n"
         "  'sys_platform': sys.platform, 'platform_release': platform.release(),\n"
         "  'platform_system': platform.system(), 'platform_version': platform.version(),\n"
         "  'platform_machine': platform.machine(),\n"
         "  'platform_python_implementation': platform.python_implementation(),\n"
         "  'implementation_name': impl.name, 'implementation_version': iv, 'extra': '',\n"
         "  'torch_distribution_version': torch}))\n";
}

}  // namespace ts::verify
