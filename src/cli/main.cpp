// torchsmith: build PyTorch and the packages that build against it, for one exact machine.
#include <cstdio>
#include <filesystem>
#include <new>
#include <iostream>

#include "cli/commands.h"

int main(int argc, char** argv) {
  CLI::App app{
      "torchsmith builds PyTorch and its C++/CUDA extension packages from source for one exact\n"
      "machine, and proves that what it built works.\n\n"
      "Start with `torchsmith doctor`: what this machine has, and what will not work.",
      "torchsmith"};
  app.set_version_flag("--version", std::string("torchsmith ") + TS_VERSION);
  app.require_subcommand(1);
  app.fallthrough();  // --kb and --no-color work before or after the subcommand
  app.footer(
      "Exit codes: 0 ok, 1 the work failed, 2 bad usage or input, 3 a conflict found at plan "
      "time.\n"
      "Colour only on a terminal; NO_COLOR=1 or --no-color turns it off.\n"
      "Run `torchsmith COMMAND --help` for each command's options.");

  ts::cli::GlobalOptions g;
  app.add_option("--kb", g.kb_dirs,
                 "Knowledge-base overlay directory (repeatable); its *.toml files add to or "
                 "replace the built-in entries. ~/.config/torchsmith/kb is read too.")
      ->type_name("DIR");
  app.add_flag("--no-color", g.no_color, "No colour, even on a terminal.");

  int exit_code = 0;
  ts::cli::register_doctor(app, g, exit_code);
  ts::cli::register_kb(app, g, exit_code);
  ts::cli::register_diagnose(app, g, exit_code);
  ts::cli::register_fix(app, g, exit_code);
  ts::cli::register_fetch(app, g, exit_code);
  ts::cli::register_plan(app, g, exit_code);
  ts::cli::register_verify(app, g, exit_code);
  ts::cli::register_build(app, g, exit_code);
  ts::cli::register_clean(app, g, exit_code);
  ts::cli::register_repair(app, g, exit_code);
  ts::cli::register_conda(app, g, exit_code);
  ts::cli::register_index(app, g, exit_code);
  ts::cli::register_toolkit(app, g, exit_code);
  ts::cli::register_matrix(app, g, exit_code);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "torchsmith: %s\n(run `torchsmith --help` for usage)\n", e.what());
    return 2;  } catch (const std::filesystem::filesystem_error& e) {
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
