#include "cli/option_table.h"

#include <algorithm>
#include <cctype>

#include "cli/suggest.h"

namespace ts::cli {

namespace {

std::string command_path(const CLI::App* a) {
  std::string p;
  for (; a && a->get_parent(); a = a->get_parent()) p = a->get_name() + (p.empty() ? "" : " " + p);
  return p;
}

void collect(const CLI::App* a, std::vector<OptionRow>& rows) {
  if (a->get_parent()) {
    for (const CLI::Option* o : a->get_options()) {
      for (const auto& n : o->get_lnames()) rows.push_back({command_path(a), "--" + n, o->get_description()});
    }
  }
  for (const CLI::App* s : a->get_subcommands([](const CLI::App*) { return true; })) collect(s, rows);
}

// The help's first sentence: enough to say what the option means where it belongs.
std::string first_sentence(const std::string& help) {
  std::string s = help.substr(0, help.find('\n'));
  if (auto dot = s.find(". "); dot != std::string::npos) s = s.substr(0, dot);
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

bool takes(const CLI::App* a, const std::string& name) {
  for (; a; a = a->get_parent())
    if (a->get_option_no_throw(name)) return true;
  return false;
}

}  // namespace

std::optional<long long> whole_number(const std::string& s, long long lo, long long hi) {
  if (s.empty() || s.size() > 12) return std::nullopt;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
  long long n = std::stoll(s);
  if (n < lo || n > hi) return std::nullopt;
  return n;
}

CLI::Option* add_number(CLI::App* c, const std::string& name, int& target, int lo, int hi, const std::string& help) {
  return c
      ->add_option_function<std::string>(
          name,
          [&target, name = name.substr(name.rfind(',') + 1), lo, hi](const std::string& v) {
            auto n = whole_number(v, lo, hi);
            if (!n)
              throw CLI::ValidationError(name + " " + v, "write a whole number from " + std::to_string(lo) + " to " +
                                                            std::to_string(hi));
            target = static_cast<int>(*n);
          },
          help)
      ->type_name("N");
}

std::vector<OptionRow> option_table(const CLI::App& app) {
  std::vector<OptionRow> rows;
  collect(&app, rows);
  return rows;
}

std::string foreign_option_error(const CLI::App& app, const std::vector<std::string>& args) {
  const CLI::App* cmd = &app;
  for (auto subs = cmd->get_subcommands(); !subs.empty(); subs = cmd->get_subcommands()) cmd = subs.front();
  std::string path = command_path(cmd);
  for (const auto& a : args) {
    if (a == "--") break;  // what follows is data
    if (a.size() < 3 || a.compare(0, 2, "--") != 0) continue;
    std::string name = a.substr(0, a.find('='));
    if (takes(cmd, name)) continue;
    // Which commands take it, grouped by what it means there.
    std::vector<std::pair<std::string, std::string>> meanings;  // (meaning, "plan, build")
    for (const auto& row : option_table(app)) {
      if (row.name != name) continue;
      std::string m = first_sentence(row.help);
      auto it = std::find_if(meanings.begin(), meanings.end(), [&](const auto& p) { return p.first == m; });
      if (it == meanings.end()) meanings.emplace_back(m, row.command);
      else it->second += ", " + row.command;
    }
    std::string where = path.empty() ? "torchsmith" : "torchsmith " + path;
    std::string msg = name + " is not an option of `" + where + "`";
    if (meanings.empty()) {
      msg += ", nor of any other command";
      if (std::string n = nearest_option(cmd, name); !n.empty()) msg += "; did you mean " + n + "?";
    } else {
      msg += "; it belongs to ";
      for (std::size_t i = 0; i < meanings.size(); ++i)
        msg += (i ? "; " : "") + meanings[i].second + (meanings[i].first.empty() ? "" : " (" + meanings[i].first + ")");
    }
    return msg + (msg.back() == '?' ? " `" : ". `") + where + " --help` lists what it takes";
  }
  return "";
}

}  // namespace ts::cli
