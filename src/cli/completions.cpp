#include "cli/completions.h"

#include <vector>

#include "cli/help_format.h"

namespace ts::cli {

namespace {

// One command path (" kb check"; "" for torchsmith itself), its subcommands and its visible options.
struct Node {
  std::string path;
  std::vector<std::pair<std::string, std::string>> commands;  // name, summary
  std::vector<std::pair<std::string, std::string>> options;   // "--jobs" / "-j", help's summary
};

void collect(const CLI::App* a, const std::string& path, std::vector<Node>& out) {
  Node n{path, {}, {}};
  for (const CLI::Option* o : a->get_options([](const CLI::Option* o) { return !o->get_group().empty(); })) {
    if (o->get_positional()) continue;
    for (const auto& l : o->get_lnames()) n.options.push_back({"--" + l, summary(o->get_description())});
    for (const auto& s : o->get_snames()) n.options.push_back({"-" + s, summary(o->get_description())});
  }
  auto subs = a->get_subcommands([](const CLI::App* s) { return !s->get_name().empty(); });
  for (const CLI::App* s : subs) n.commands.push_back({s->get_name(), summary(s->get_description())});
  out.push_back(n);
  for (const CLI::App* s : subs) collect(s, path + " " + s->get_name(), out);
}

std::string words(const std::vector<std::pair<std::string, std::string>>& v) {
  std::string s;
  for (const auto& [w, d] : v) s += (s.empty() ? "" : " ") + w;
  return s;
}

// Inside single quotes: ' ends them, so it is written '\''.
std::string sq(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out;
}

// The case patterns that grow the command path word by word (" kb"|" kb check"|...).
std::string path_patterns(const std::vector<Node>& nodes) {
  std::string p;
  for (const auto& n : nodes)
    if (!n.path.empty()) p += (p.empty() ? "\"" : "|\"") + n.path + "\"";
  return p;
}

std::string bash(const std::vector<Node>& nodes) {
  std::string s =
      "# torchsmith completion for bash: source <(torchsmith completions bash)\n"
      "_torchsmith() {\n"
      "  local cur=${COMP_WORDS[COMP_CWORD]} cmd=\"\" w i words\n"
      "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
      "    w=${COMP_WORDS[i]}\n"
      "    case \"$cmd $w\" in\n"
      "      " + path_patterns(nodes) + ") cmd=\"$cmd $w\" ;;\n"
      "    esac\n"
      "  done\n"
      "  case \"$cmd\" in\n";
  for (const auto& n : nodes)
    s += "    \"" + n.path + "\")\n      if [[ $cur == -* ]]; then words='" + words(n.options) + "'; else words='" +
         words(n.commands) + "'; fi ;;\n";
  s += "  esac\n"
       "  COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
       "}\n"
       "complete -o default -F _torchsmith torchsmith\n";
  return s;
}

std::string zsh(const std::vector<Node>& nodes) {
  std::string s =
      "#compdef torchsmith\n"
      "# torchsmith completion for zsh: source <(torchsmith completions zsh) after compinit\n"
      "_torchsmith() {\n"
      "  local cmd=\"\" w i\n"
      "  local -a cmds opts\n"
      "  for ((i = 2; i < CURRENT; i++)); do\n"
      "    w=${words[i]}\n"
      "    case \"$cmd $w\" in\n"
      "      (" + path_patterns(nodes) + ") cmd=\"$cmd $w\" ;;\n"
      "    esac\n"
      "  done\n"
      "  case \"$cmd\" in\n";
  for (const auto& n : nodes) {
    s += "    (\"" + n.path + "\")\n      cmds=(";
    for (const auto& [w, d] : n.commands) {
      std::string dd = d;
      for (auto& c : dd)
        if (c == ':') c = ' ';
      s += " '" + sq(w + ":" + dd) + "'";
    }
    s += " )\n      opts=(" + words(n.options) + ") ;;\n";
  }
  s += "  esac\n"
       "  if [[ ${words[CURRENT]} == -* ]]; then compadd -- $opts\n"
       "  elif (( ${#cmds} )); then _describe command cmds\n"
       "  else _files; fi\n"
       "}\n"
       "if [[ ${zsh_eval_context[-1]} == loadautofunc ]]; then _torchsmith \"$@\"; else compdef _torchsmith torchsmith; fi\n";
  return s;
}

std::string fish(const std::vector<Node>& nodes) {
  std::string s = "# torchsmith completion for fish: torchsmith completions fish | source\n";
  auto fq = [](const std::string& d) {  // fish single quotes: \' and \\ are the escapes
    std::string out;
    for (char c : d) out += c == '\'' || c == '\\' ? std::string("\\") + c : std::string(1, c);
    return out;
  };
  for (const auto& n : nodes) {
    // The words of this path seen, and none of its subcommands yet.
    std::string last = n.path.substr(n.path.find_last_of(' ') == std::string::npos ? 0 : n.path.find_last_of(' ') + 1);
    std::string cond = n.path.empty() ? "__fish_use_subcommand"
                                      : "__fish_seen_subcommand_from " + last;
    if (!n.commands.empty() && !n.path.empty()) cond += "; and not __fish_seen_subcommand_from " + words(n.commands);
    for (const auto& [w, d] : n.commands)
      s += "complete -c torchsmith -n '" + cond + "' -f -a " + w + " -d '" + fq(d) + "'\n";
    for (const auto& [w, d] : n.options)
      s += "complete -c torchsmith -n '" + cond + "' " + (w.compare(0, 2, "--") == 0 ? "-l " + w.substr(2) : "-s " + w.substr(1)) +
           " -d '" + fq(d) + "'\n";
  }
  return s;
}

}  // namespace

std::string completion_script(const CLI::App& app, const std::string& shell) {
  std::vector<Node> nodes;
  collect(&app, "", nodes);
  if (shell == "bash") return bash(nodes);
  if (shell == "zsh") return zsh(nodes);
  if (shell == "fish") return fish(nodes);
  return "";
}

}  // namespace ts::cli
