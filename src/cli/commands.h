#pragma once
// Each subcommand lives in its own cmd_<name>.cpp and registers itself on the app.
// A command's callback sets the process exit code through the returned int& it is given.
#include <memory>

#include <CLI/CLI.hpp>

namespace ts::cli {

class Knowledge;

// Options every command shares.
struct GlobalOptions {
  std::vector<std::string> kb_dirs;  // --kb DIR (repeatable): overlays on the embedded KB
  bool no_color = false;             // --no-color (NO_COLOR in the environment does the same)
  bool quiet = false;                // -q: no progress lines on stderr (errors and results stay)
  bool verbose = false;              // -v: what a command has to say beyond its default
  // The command's knowledge (cli/knowledge.h): made on first use from --kb, then the same object.
  Knowledge& knowledge() const;

 private:
  mutable std::shared_ptr<Knowledge> knowledge_;
};

// A subcommand of `parent` and the one Options object its options fill: when it is the command chosen,
// run(options) runs and what it returns is the process exit code.
template <class Options>
struct Command {
  CLI::App* cli;
  std::shared_ptr<Options> options;
};

// The exit codes a command's --help lists (its footer), each true for that command: "0 ok, 2 bad input".
inline void exit_codes(CLI::App* cmd, const std::string& codes) { cmd->footer("Exit codes: " + codes + "."); }

template <class Options, class Run>
Command<Options> add_command(CLI::App& parent, int& exit_code, Run run, const std::string& name,
                             const std::string& about) {
  auto options = std::make_shared<Options>();
  CLI::App* cmd = parent.add_subcommand(name, about);
  cmd->callback([options, &exit_code, run] { exit_code = run(*options); });
  return {cmd, options};
}

void register_doctor(CLI::App& app, GlobalOptions& g, int& exit_code);
void register_kb(CLI::App& app, GlobalOptions& g, int& exit_code);
void register_diagnose(CLI::App& app, GlobalOptions& g, int& exit_code);
void register_fix(CLI::App& app, GlobalOptions& g, int& exit_code);
void register_fetch(CLI::App& app, GlobalOptions& g, int& exit_code);
void register_plan(CLI::App& app, GlobalOptions& g, int& exit_code);
void register_verify(CLI::App& app, GlobalOptions& g, int& exit_code);
void register_build(CLI::App& app, GlobalOptions& g, int& exit_code);
void register_clean(CLI::App& app, GlobalOptions& g, int& exit_code);
void register_repair(CLI::App& app, GlobalOptions& g, int& exit_code);
void register_conda(CLI::App& app, GlobalOptions& g, int& exit_code);
void register_index(CLI::App& app, GlobalOptions& g, int& exit_code);
void register_toolkit(CLI::App& app, GlobalOptions& g, int& exit_code);
void register_matrix(CLI::App& app, GlobalOptions& g, int& exit_code);

}  // namespace ts::cli
