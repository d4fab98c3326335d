#include "core/version.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "core/json_text.h"

namespace ts {
namespace {

// Cursor over the lower-cased text; each helper either consumes what it matched or nothing.
struct Scanner {
  std::string s;
  std::size_t p = 0;

  bool done() const { return p >= s.size(); }
  char peek() const { return done() ? '\0' : s[p]; }
  bool eat(char c) {
    if (peek() != c) return false;
    ++p;
    return true;
  }
  bool eat_sep() { return eat('.') || eat('-') || eat('_'); }
  bool eat_word(std::string_view w) {
    if (s.compare(p, w.size(), w) != 0) return false;
    p += w.size();
    return true;
  }
  // Digits into a number; false when there are none or too many to hold.
  bool number(long long& out, std::size_t max_digits) {
    std::size_t start = p;
    while (!done() && std::isdigit(static_cast<unsigned char>(peek()))) ++p;
    std::size_t n = p - start;
    if (n == 0) return false;
    // Leading zeros don't count toward the size limit ("05" is 5).
    std::size_t first = start;
    while (first + 1 < p && s[first] == '0') ++first;
    if (p - first > max_digits) {
      p = start;
      return false;
    }
    out = std::stoll(s.substr(first, p - first));
    return true;
  }
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// [-_.]? label [-_.]? N?  — the shape PEP 440 allows for pre, post and dev parts.
// Returns the matched label (or "" with the scanner untouched).
std::string_view labelled(Scanner& sc, std::initializer_list<std::string_view> labels,
                          std::optional<long long>& num) {
  std::size_t start = sc.p;
  sc.eat_sep();
  for (std::string_view l : labels) {
    if (!sc.eat_word(l)) continue;
    std::size_t after_label = sc.p;
    long long n = 0;
    bool sep = sc.eat_sep();
    if (sc.number(n, 18)) {
      num = n;
    } else {
      if (sep) sc.p = after_label;  // the separator belongs to what follows
      num.reset();
    }
    return l;
  }
  sc.p = start;
  return {};
}

// PEP 440 local segments: numbers sort above words, numbers by value, words alphabetically.
std::strong_ordering compare_local(const std::string& a, const std::string& b) {
  auto split = [](const std::string& s) {
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i <= s.size()) {
      std::size_t j = s.find('.', i);
      if (j == std::string::npos) j = s.size();
      out.push_back(s.substr(i, j - i));
      i = j + 1;
    }
    return out;
  };
  auto numeric = [](const std::string& x) {
    return !x.empty() && std::all_of(x.begin(), x.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  };
  auto strip_zeros = [](const std::string& x) {
    std::size_t i = x.find_first_not_of('0');
    return i == std::string::npos ? std::string("0") : x.substr(i);
  };
  if (a.empty() || b.empty()) return !a.empty() <=> !b.empty();  // no local sorts first
  auto sa = split(a), sb = split(b);
  for (std::size_t i = 0; i < std::min(sa.size(), sb.size()); ++i) {
    bool na = numeric(sa[i]), nb = numeric(sb[i]);
    if (na != nb) return na <=> nb;
    if (na) {
      std::string x = strip_zeros(sa[i]), y = strip_zeros(sb[i]);
      if (x.size() != y.size()) return x.size() <=> y.size();
      if (int c = x.compare(y); c != 0) return c <=> 0;
    } else if (int c = sa[i].compare(sb[i]); c != 0) {
      return c <=> 0;
    }
  }
  return sa.size() <=> sb.size();
}

std::vector<int> without_trailing_zeros(std::vector<int> r) {
  while (!r.empty() && r.back() == 0) r.pop_back();
  return r;
}

}  // namespace

std::optional<Version> Version::parse(std::string_view text, std::string* error) {
  std::string_view t = trim(text);
  auto fail = [&](std::string_view why) -> std::optional<Version> {
    if (error) {
      *error = "'" + std::string(text) + "' is not a version";
      if (!why.empty()) *error += " (" + std::string(why) + ")";
    }
    return std::nullopt;
  };
  if (t.empty()) return fail("empty");

  Scanner sc;
  sc.s.reserve(t.size());
  for (char c : t) sc.s.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));

  Version v;
  v.original_ = std::string(t);
  v.release_.clear();
  sc.eat('v');

  // Epoch and release: "N!" is only an epoch when the '!' follows the first number.
  long long n = 0;
  if (!sc.number(n, 9)) return fail("expected a number first");
  if (sc.eat('!')) {
    v.epoch_ = static_cast<int>(n);
    if (!sc.number(n, 9)) return fail("expected a release number after the epoch");
  }
  v.release_.push_back(static_cast<int>(n));
  while (sc.peek() == '.' && sc.p + 1 < sc.s.size() && std::isdigit(static_cast<unsigned char>(sc.s[sc.p + 1]))) {
    ++sc.p;
    if (!sc.number(n, 9)) return fail("release component too large");
    v.release_.push_back(static_cast<int>(n));
  }

  // Pre-release: alternate spellings normalise to a / b / rc.
  std::optional<long long> num;
  std::string_view pre = labelled(sc, {"alpha", "a", "beta", "b", "preview", "pre", "c", "rc"}, num);
  if (!pre.empty()) {
    v.pre_ = (pre == "alpha" || pre == "a") ? Pre::a : (pre == "beta" || pre == "b") ? Pre::b : Pre::rc;
    v.pre_num_ = num.value_or(0);
  }

  // Post-release: "-N" or [sep]post|rev|r[sep][N].
  std::size_t before_post = sc.p;
  if (sc.eat('-') && sc.number(n, 18)) {
    v.post_ = n;
  } else {
    sc.p = before_post;
    if (!labelled(sc, {"post", "rev", "r"}, num).empty()) v.post_ = num.value_or(0);
  }

  if (!labelled(sc, {"dev"}, num).empty()) v.dev_ = num.value_or(0);

  // Local label: alphanumeric segments joined by . - _ (normalised to '.').
  if (sc.eat('+')) {
    std::string local;
    bool need_segment = true;
    while (!sc.done()) {
      char c = sc.peek();
      if (std::isalnum(static_cast<unsigned char>(c))) {
        local.push_back(c);
        need_segment = false;
      } else if ((c == '.' || c == '-' || c == '_') && !need_segment) {
        local.push_back('.');
        need_segment = true;
      } else {
        break;
      }
      ++sc.p;
    }
    if (need_segment) return fail("bad local label after '+'");
    v.local_ = std::move(local);
  }

  if (!sc.done()) return fail("unexpected '" + std::string(t.substr(sc.p)) + "'");
  return v;
}

std::string Version::public_str() const {
  std::string out;
  if (epoch_ != 0) out += std::to_string(epoch_) + "!";
  for (std::size_t i = 0; i < release_.size(); ++i) {
    if (i) out += '.';
    out += std::to_string(release_[i]);
  }
  switch (pre_) {
    case Pre::a: out += "a" + std::to_string(pre_num_); break;
    case Pre::b: out += "b" + std::to_string(pre_num_); break;
    case Pre::rc: out += "rc" + std::to_string(pre_num_); break;
    case Pre::none: break;
  }
  if (post_) out += ".post" + std::to_string(*post_);
  if (dev_) out += ".dev" + std::to_string(*dev_);
  return out;
}

std::string Version::str() const { return local_.empty() ? public_str() : public_str() + "+" + local_; }

std::string Version::major_minor() const { return std::to_string(major()) + "." + std::to_string(minor()); }

Version Version::public_version() const {
  Version v = *this;
  v.local_.clear();
  v.original_ = v.str();
  return v;
}

Version Version::base_version() const {
  Version v;
  v.epoch_ = epoch_;
  v.release_ = release_;
  v.original_ = v.str();
  return v;
}

Version Version::truncated(std::size_t n) const {
  Version v;
  v.epoch_ = epoch_;
  v.release_.assign(release_.begin(), release_.begin() + std::min(std::max<std::size_t>(n, 1), release_.size()));
  v.original_ = v.str();
  return v;
}

std::strong_ordering operator<=>(const Version& a, const Version& b) {
  if (auto c = a.epoch_ <=> b.epoch_; c != 0) return c;
  auto ra = without_trailing_zeros(a.release_), rb = without_trailing_zeros(b.release_);
  if (auto c = std::lexicographical_compare_three_way(ra.begin(), ra.end(), rb.begin(), rb.end()); c != 0) return c;

  // A bare dev release (1.0.dev0) sorts before every pre-release of 1.0; a final sorts after them.
  auto pre_rank = [](const Version& v) {
    if (v.pre_ == Version::Pre::none) return (!v.post_ && v.dev_) ? -1 : 4;
    return static_cast<int>(v.pre_);
  };
  if (auto c = pre_rank(a) <=> pre_rank(b); c != 0) return c;
  if (auto c = a.pre_num_ <=> b.pre_num_; c != 0) return c;
  if (auto c = a.post_.value_or(-1) <=> b.post_.value_or(-1); c != 0) return c;
  if (auto c = a.dev_.value_or(LLONG_MAX) <=> b.dev_.value_or(LLONG_MAX); c != 0) return c;
  return compare_local(a.local_, b.local_);
}

bool operator==(const Version& a, const Version& b) { return (a <=> b) == 0; }

void to_json(nlohmann::json& j, const Version& v) { write_text(j, v); }
void from_json(const nlohmann::json& j, Version& v) { read_text(j, v); }

}  // namespace ts
