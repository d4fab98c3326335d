#include "build/ninja_status.h"

#include <charconv>
#include <vector>

namespace ts::build {

std::optional<double> NinjaProgress::eta() const {
  if (done <= 0 || total <= 0) return std::nullopt;
  if (done >= total) return 0.0;
  // The overall rate from ninja is done/elapsed; recompute it when ninja said "?".
  double r = rate > 0 ? rate : (elapsed > 0 ? double(done) / elapsed : 0);
  if (r <= 0) return std::nullopt;
  return double(total - done) / r;
}

namespace {

// Skips ESC [ ... final-byte sequences (ninja's "\x1b[K" erase-line on a terminal).
std::string_view skip_ansi(std::string_view s) {
  while (s.size() >= 2 && s[0] == '\x1b' && s[1] == '[') {
    std::size_t i = 2;
    while (i < s.size() && !(s[i] >= '@' && s[i] <= '~')) ++i;
    s.remove_prefix(i < s.size() ? i + 1 : s.size());
  }
  while (!s.empty() && s[0] == '\r') s.remove_prefix(1);
  // pip -v indents the build's output by two spaces per level.
  while (!s.empty() && s[0] == ' ') s.remove_prefix(1);
  return s;
}

bool take(std::string_view& s, std::string_view lit) {
  if (s.substr(0, lit.size()) != lit) return false;
  s.remove_prefix(lit.size());
  return true;
}

bool take_long(std::string_view& s, long& v) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p == s.data()) return false;
  s.remove_prefix(static_cast<std::size_t>(p - s.data()));
  return true;
}

// A decimal ("12.3") or ninja's "?" for an unknown rate (read as 0).
bool take_double(std::string_view& s, double& v) {
  if (take(s, "?")) { v = 0; return true; }
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, std::chars_format::fixed);
  if (ec != std::errc() || p == s.data()) return false;
  s.remove_prefix(static_cast<std::size_t>(p - s.data()));
  return true;
}

}  // namespace

std::optional<NinjaProgress> parse_ninja_status(std::string_view line) {
  std::string_view s = skip_ansi(line);
  NinjaProgress p;
  if (!take(s, "[ts ") || !take_long(s, p.done) || !take(s, "/") || !take_long(s, p.total) ||
      !take(s, " ") || !take_double(s, p.rate) || !take(s, "/s ") || !take_double(s, p.elapsed) ||
      !take(s, "s] "))
    return std::nullopt;
  if (p.done < 0 || p.total < 0 || p.done > p.total) return std::nullopt;
  p.what = compile_subject(s);
  return p;
}

namespace {

std::string_view base_name(std::string_view path) {
  auto slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

bool is_source(std::string_view f) {
  for (std::string_view ext : {".c", ".cc", ".cpp", ".cxx", ".cu", ".C", ".c++", ".cuh", ".hip", ".mm", ".m"})
    if (f.size() > ext.size() && f.substr(f.size() - ext.size()) == ext) return true;
  return false;
}

// The words of a command line, split at spaces (quotes kept: only a file name is wanted).
std::vector<std::string_view> words(std::string_view s) {
  std::vector<std::string_view> w;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && s[i] == ' ') ++i;
    std::size_t j = i;
    while (j < s.size() && s[j] != ' ') ++j;
    if (j > i) w.push_back(s.substr(i, j - i));
    i = j;
  }
  return w;
}

}  // namespace

std::string compile_subject(std::string_view line) {
  std::string_view s = skip_ansi(line);
  if (s.size() > 4096) s = s.substr(0, 4096);
  for (std::string_view lead : {"Building CXX object ", "Building C object ", "Building CUDA object "})
    if (take(s, lead)) {
      std::string_view obj = base_name(s.substr(0, s.find(' ')));
      if (obj.size() > 2 && obj.substr(obj.size() - 2) == ".o") obj.remove_suffix(2);
      return std::string(obj);
    }
  if (take(s, "Linking CXX shared library ") || take(s, "Linking CXX executable ") ||
      take(s, "Linking CXX static library ") || take(s, "Linking C shared library "))
    return "linking " + std::string(base_name(s.substr(0, s.find(' '))));
  // A compiler command: "-c FILE", or a source file among its words (nvcc puts -c last).
  auto w = words(s);
  if (w.empty()) return "";
  std::string_view tool = base_name(w[0]);
  bool compiler = tool.find("gcc") != std::string_view::npos || tool.find("g++") != std::string_view::npos ||
                  tool.find("c++") != std::string_view::npos || tool.find("clang") != std::string_view::npos ||
                  tool == "cc" || tool == "nvcc" || tool == "hipcc" || tool == "ccache" || tool == "sccache";
  if (!compiler) return "";
  for (std::size_t i = 1; i < w.size(); ++i)
    if (w[i] == "-c" && i + 1 < w.size() && is_source(w[i + 1])) return std::string(base_name(w[i + 1]));
  for (std::size_t i = 1; i < w.size(); ++i)
    if (is_source(w[i]) && w[i - 1] != "-o") return std::string(base_name(w[i]));
  return "";
}

std::optional<ExtensionProgress> parse_extension_status(std::string_view line) {
  std::string_view s = skip_ansi(line);
  ExtensionProgress e;
  if (!take(s, "[ext ") || !take_long(s, e.done) || !take(s, "/") || !take_long(s, e.total) || !take(s, "] "))
    return std::nullopt;
  if (e.done < 0 || e.total < 0 || e.done > e.total) return std::nullopt;
  e.what = compile_subject(s);
  if (auto at = s.find("/ts-"); at != std::string_view::npos) {
    std::string_view rest = s.substr(at + 4);
    e.name = std::string(rest.substr(0, rest.find_first_of("/ ")));
  }
  return e;
}

}  // namespace ts::build
