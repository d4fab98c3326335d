#include "cli/suggest.h"

#include <algorithm>

namespace ts::cli {

namespace {

std::string path_of(const CLI::App* a) {
  std::string p;
  for (; a; a = a->get_parent()) p = a->get_name() + (p.empty() ? "" : " " + p);
  return p;
}

// The named subcommands of a, help's own listing.
std::vector<std::string> command_names(const CLI::App* a) {
  std::vector<std::string> out;
  for (const CLI::App* s : a->get_subcommands([](const CLI::App* s) { return !s->get_name().empty(); }))
    out.push_back(s->get_name());
  return out;
}

const CLI::Option* find_option(const CLI::App* a, const std::string& name) {
  for (; a; a = a->get_parent())
    if (const CLI::Option* o = a->get_option_no_throw(name)) return o;
  return nullptr;
}

}  // namespace

std::size_t edit_distance(const std::string& a, const std::string& b) {
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= m; ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

std::string nearest(const std::string& word, const std::vector<std::string>& candidates) {
  if (word.empty()) return "";
  std::string best;
  std::size_t best_d = std::max<std::size_t>(1, word.size() / 3) + 1;
  for (const auto& c : candidates) {
    std::size_t d = edit_distance(word, c);
    if (d < best_d) best_d = d, best = c;
  }
  if (!best.empty()) return best;
  std::string prefixed;
  for (const auto& c : candidates)
    if (word.size() >= 2 && c.compare(0, word.size(), word) == 0) {
      if (!prefixed.empty()) return "";  // a prefix of several: no one guess
      prefixed = c;
    }
  return prefixed;
}

std::string unknown_command_error(const CLI::App& app, const std::vector<std::string>& args) {
  const CLI::App* cur = &app;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") return "";
    if (a.size() > 1 && a[0] == '-') {
      // An option's value is not a command word: skip it when the option takes one.
      if (a.find('=') != std::string::npos) continue;
      std::string name = a.compare(0, 2, "--") == 0 ? a : a.substr(0, 2);
      const CLI::Option* o = find_option(cur, name);
      if (o && o->get_items_expected_max() > 0 && name.size() == a.size()) ++i;  // flags expect none
      continue;
    }
    auto names = command_names(cur);
    if (names.empty()) return "";  // a positional of the command
    if (std::find(names.begin(), names.end(), a) != names.end()) {
      cur = cur->get_subcommand(a);
      continue;
    }
    std::string where = path_of(cur);
    std::string msg = "'" + a + "' is not " + (cur == &app ? "a torchsmith command" : "a command of `" + where + "`");
    if (std::string n = nearest(a, names); !n.empty())
      return msg + "; did you mean `" + where + " " + n + "`? (`" + where + " --help` lists the commands)";
    msg += "; the commands are: ";
    for (std::size_t k = 0; k < names.size(); ++k) msg += (k ? ", " : "") + names[k];
    return msg + " (`" + where + " --help` says what each does)";
  }
  return "";
}

std::string nearest_option(const CLI::App* cmd, const std::string& name) {
  std::vector<std::string> names;
  for (const CLI::App* a = cmd; a; a = a->get_parent())
    for (const CLI::Option* o : a->get_options([](const CLI::Option* o) { return !o->get_group().empty(); })) {
      for (const auto& l : o->get_lnames()) names.push_back("--" + l);
    }
  if (name.compare(0, 2, "--") != 0) return "";
  return nearest(name, names);
}

}  // namespace ts::cli
