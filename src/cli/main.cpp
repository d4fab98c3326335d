// torchsmith: build PyTorch and the packages that build against it, for one exact machine.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <new>
#include <iostream>

#include "cli/commands.h"
#include "cli/completions.h"
#include "cli/help_format.h"
#include "cli/option_table.h"
#include "cli/suggest.h"
#include "kb/kb.h"

// The commit the tree was at when this binary was built (generated at build time, cmake/commit.cmake).
const char* ts_commit();

namespace {

// "torchsmith 0.1.0 (commit ...)" and how new the built-in knowledge base is: the newest release
// date among its torch release lines (what its torch.toml cites).
std::string version_text() {
  std::vector<ts::kb::KbError> errors;
  ts::kb::Kb kb = ts::kb::load_embedded(errors);
  std::string newest;
  for (const auto& r : kb.torch) newest = std::max(newest, r.released);
  return std::string("torchsmith ") + TS_VERSION + " (commit " + ts_commit() + ")\n" +
         "knowledge base: built in, " + std::to_string(kb.torch.size()) + " torch release lines, the newest released " +
         (newest.empty() ? "unknown" : newest) + " (data/kb/torch.toml); overlays: torchsmith kb";
}

// The command `words` name under app (nullptr when one is not a command), and its path for the usage line.
CLI::App* command_at(CLI::App& app, const std::vector<std::string>& words, std::string& path) {
  CLI::App* a = &app;
  path = "torchsmith";
  for (const auto& w : words) {
    auto subs = a->get_subcommands([&](const CLI::App* s) { return s->get_name() == w; });
    if (subs.empty()) return nullptr;
    a = subs.front();
    path += " " + w;
  }
  return a;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "torchsmith builds PyTorch and its C++/CUDA extension packages from source for one exact\n"
      "machine, and proves that what it built works.\n\n"
      "Start with `torchsmith doctor`: what this machine has, and what will not work.",
      "torchsmith"};
  // Set before the commands are added: each takes the root's formatter.
  app.formatter(std::make_shared<ts::cli::HelpFormatter>(ts::cli::terminal_width(STDOUT_FILENO)));
  app.set_version_flag("--version", std::function<std::string()>(version_text),
                       "The version, the commit it was built from, and the knowledge base's date.");
  app.require_subcommand(1);
  app.fallthrough();  // --kb, --no-color, -q and -v work before or after the subcommand
  app.footer(
      "Exit codes: each command's --help lists its own; 2 is always bad usage or input.\n"
      "Colour only on a terminal; NO_COLOR=1 or --no-color turns it off.\n"
      "`torchsmith help COMMAND` (or COMMAND --help) explains a command; `torchsmith completions "
      "bash|zsh|fish` prints a completion script for the shell.");

  ts::cli::GlobalOptions g;
  app.add_option("--kb", g.kb_dirs,
                 "Knowledge-base overlay directory (repeatable); its *.toml files add to or "
                 "replace the built-in entries. ~/.config/torchsmith/kb is read too (`torchsmith kb` "
                 "lists the overlays in use).")
      ->type_name("DIR");
  app.add_flag("--no-color", g.no_color, "No colour, even on a terminal.");
  app.add_flag("-q,--quiet", g.quiet, "No progress lines on stderr; errors and results stay.");
  app.add_flag("-v,--verbose", g.verbose,
               "Say more: build prints its plan before it runs, diagnose every finding (as --all).");

  int exit_code = 0;
  // In the order `torchsmith --help` lists them.
  using namespace ts::cli;
  for (auto add : {register_doctor, register_kb, register_diagnose, register_fix, register_fetch, register_plan,
                   register_verify, register_build, register_clean, register_repair, register_conda, register_index,
                   register_toolkit, register_matrix})
    add(app, g, exit_code);

  std::vector<std::string> topic;
  CLI::App* help = app.add_subcommand("help", "Print the help of torchsmith, or of a command: torchsmith help build.");
  help->add_option("command", topic, "The command (and subcommand: kb check).")->type_name("COMMAND");
  exit_codes(help, "0 printed, 2 no such command");
  help->callback([&] {
    std::string path;
    CLI::App* a = command_at(app, topic, path);
    if (!a) {
      std::vector<std::string> words = topic;
      std::string why = unknown_command_error(app, words);
      std::fprintf(stderr, "torchsmith help: %s\n", why.c_str());
      exit_code = 2;
      return;
    }
    std::cout << a->get_formatter()->make_help(a, path, CLI::AppFormatMode::Normal);
  });
  std::string shell;
  CLI::App* completions = app.add_subcommand(
      "completions",
      "Print a completion script for the shell. bash: source <(torchsmith completions bash), or save it as "
      "~/.local/share/bash-completion/completions/torchsmith; zsh (after compinit): source <(torchsmith "
      "completions zsh); fish: torchsmith completions fish > ~/.config/fish/completions/torchsmith.fish");
  completions->add_option("shell", shell, "bash, zsh or fish.")->required()->type_name("SHELL");
  exit_codes(completions, "0 printed, 2 another shell");
  completions->callback([&] {
    std::string s = completion_script(app, shell);
    if (s.empty()) {
      std::fprintf(stderr, "torchsmith completions: '%s' is not a shell it writes for; write bash, zsh or fish\n",
                   shell.c_str());
      exit_code = 2;
      return;
    }
    std::cout << s;
  });

  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {  // bare torchsmith: what it does and its commands
    std::cout << app.help();
    return 0;
  }
  if (std::string why = unknown_command_error(app, args); !why.empty()) {
    std::fprintf(stderr, "torchsmith: %s\n", why.c_str());
    return 2;
  }
  // The command that was being parsed, for the way out ("`torchsmith build --help` lists what it takes").
  auto where = [&app] {
    std::string w = "torchsmith";
    for (const CLI::App* a = &app; !a->get_subcommands().empty();) {
      a = a->get_subcommands().front();
      w += " " + a->get_name();
    }
    return w;
  };
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ExtrasError& e) {
    // An option of another command, or a typo: say which commands take it, or the nearest option.
    std::string why = ts::cli::foreign_option_error(app, args);
    if (why.empty()) why = std::string(e.what()) + " (`" + where() + " --help` lists what it takes)";
    std::fprintf(stderr, "torchsmith: %s\n", why.c_str());
    return 2;
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "torchsmith: %s (`%s --help` lists what it takes)\n", e.what(), where().c_str());
    return 2;
  } catch (const std::filesystem::filesystem_error& e) {
    // The boundary: a throwing filesystem call is reported, and unwinding removes work directories
    // (an exception escaping main would std::terminate without running their destructors).
    std::fprintf(stderr, "torchsmith: %s\n", e.what());
    return e.code() == std::errc::no_space_on_device ? 1 : 2;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "torchsmith: out of memory\n");
    return 1;
  }
  return exit_code;
}
