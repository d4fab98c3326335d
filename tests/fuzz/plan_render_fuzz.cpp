// libFuzzer target: every renderer fed the same arbitrary strings (fields split at NUL: env key
// and value, step argv, note, source dir, versions). Checks: no crash; `--format sh` parses back,
// word by word, to exactly the plan's values and argv (no byte unquoted, no comment spanning a
// line); the Dockerfile's exec form reads back as the argv; a build path accepted holds no ninja,
// CMake or shell character.
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plan/render.h"
#include "util/safe_path.h"

namespace {

bool ctrl(char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }

// The words of one rendered sh line: '...' literals, \' and "$var" (placeholders) only.
bool sh_words(const std::string& s, std::vector<std::string>& out) {
  std::size_t i = 0;
  bool in_word = false;
  while (i < s.size()) {
    char c = s[i];
    if (c == ' ') {
      in_word = false;
      ++i;
      continue;
    }
    if (!in_word) out.emplace_back(), in_word = true;
    if (c == '\'') {
      auto e = s.find('\'', i + 1);
      if (e == std::string::npos) return false;
      out.back() += s.substr(i + 1, e - i - 1);
      i = e + 1;
    } else if (c == '\\' && i + 1 < s.size() && s[i + 1] == '\'') {
      out.back() += '\'';
      i += 2;
    } else if (c == '"' && s.compare(i, 2, "\"$") == 0) {
      auto e = s.find('"', i + 1);
      if (e == std::string::npos) return false;
      out.back() += "{" + s.substr(i + 2, e - i - 2) + "}";
      i = e + 1;
    } else {
      return false;  // anything else unquoted is shell syntax the renderer did not mean
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> f(1);
  for (std::size_t i = 0; i < size; ++i)
    if (data[i] == 0) f.emplace_back();
    else f.back() += static_cast<char>(data[i]);
  while (f.size() < 6) f.emplace_back();
  for (const auto& x : f)
    if (x.find("{pyshim}") != std::string::npos) return 0;  // render_sh leaves the helper out by design
  ts::plan::Plan p;
  p.torch_version = f[0];
  p.env[f[1]] = f[2];
  p.source_dir = f[3].empty() ? "." : f[3];
  std::vector<std::string> argv(f.begin() + 4, f.end());
  p.steps.push_back({"build", argv, f[4].size() % 2 ? "{src}" : "", f[5]});

  // Logical lines: a newline inside single quotes belongs to the word; a comment runs to its newline.
  std::string sh = ts::plan::render_sh(p);
  std::vector<std::string> lines(1);
  bool quoted = false, comment = false;
  for (std::size_t i = 0; i < sh.size(); ++i) {
    char c = sh[i];
    if (!quoted && !comment && c == '\\' && i + 1 < sh.size() && sh[i + 1] == '\'') {  // \' between quoted parts
      lines.back() += "\\'";
      ++i;
      continue;
    }
    if (!quoted && !comment && c == '#' && lines.back().find_first_not_of(' ') == std::string::npos) comment = true;
    if (c == '\n' && !quoted) {
      lines.emplace_back();
      comment = false;
      continue;
    }
    if (c == '\'' && !comment) quoted = !quoted;
    lines.back() += c;
  }
  if (quoted) std::abort();
  int step_lines = 0;
  bool in_steps = false;
  for (const auto& line : lines) {
    auto first = line.find_first_not_of(' ');
    std::string t = first == std::string::npos ? "" : line.substr(first);
    if (t.empty()) continue;
    if (t[0] == '#') {
      for (char c : t)
        if (ctrl(c)) std::abort();  // text in a comment is escaped: it never reaches another line
      continue;
    }
    if (t.rfind("export ", 0) == 0) {
      auto eq = t.find('=');
      std::vector<std::string> w;
      if (eq == std::string::npos || !sh_words(t.substr(eq + 1), w) || w.size() != 1) std::abort();
      std::string key = t.substr(7, eq - 7);
      if (!p.env.count(key) || p.env.at(key) != w[0]) std::abort();
      continue;
    }
    if (t.rfind("if [", 0) == 0) {
      in_steps = true;
      continue;
    }
    if (t == "fi" || t == "set -eu" || t.rfind("dist=torchsmith-dist", 0) == 0 || t.rfind("built_wheel=$(ls", 0) == 0 ||
        t.rfind("wheel=$(ls", 0) == 0)
      continue;
    if (t.rfind("src=", 0) == 0) {
      std::vector<std::string> w;
      if (!sh_words(t.substr(4), w) || w.size() != 1 || w[0] != p.source_dir) std::abort();
      continue;
    }
    if (!in_steps) std::abort();  // a line outside the steps that is no export: injected
    std::string body = t;
    const std::string cd = "(cd \"$src\" && ";
    if (body.rfind(cd, 0) == 0) {
      if (body.back() != ')') std::abort();
      body = body.substr(cd.size(), body.size() - cd.size() - 1);
    }
    std::vector<std::string> w;
    if (!sh_words(body, w) || w != argv) std::abort();
    ++step_lines;
  }
  if (step_lines != 1) std::abort();

  std::string exec = ts::plan::docker_exec_form(argv);
  for (char c : exec)
    if (ctrl(c)) std::abort();
  try {
    (void)nlohmann::json(argv).dump();  // valid UTF-8: Docker reads the array as JSON
  } catch (const nlohmann::json::exception&) {
    return 0;
  }
  if (nlohmann::json::parse(exec).get<std::vector<std::string>>() != argv) std::abort();

  if (ts::util::build_path_problem(f[3]).empty())
    for (char c : f[3])
      if (ctrl(c) || std::string_view("$|:;\"'`\\()&<>*?").find(c) != std::string_view::npos) std::abort();
  return 0;
}
