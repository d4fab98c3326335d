// torchsmith: build PyTorch and the packages that build against it, for one exact machine.
#include <cstdio>
#include <filesystem>
#include <new>
#include <iostream>

#include "cli/commands.h"
#include "cli/option_table.h"

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
  // In the order `torchsmith --help` lists them.
  using namespace ts::cli;
  for (auto add : {register_doctor, register_kb, register_diagnose, register_fix, register_fetch, register_plan,
                   register_verify, register_build, register_clean, register_repair, register_conda, register_index,
                   register_toolkit, register_matrix})
    add(app, g, exit_code);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ExtrasError& e) {
    // An option of another command: say which commands take it rather than only "not expected".
    std::string why = ts::cli::foreign_option_error(app, std::vector<std::string>(argv + 1, argv + argc));
    std::fprintf(stderr, "torchsmith: %s\n(run `torchsmith --help` for usage)\n", why.empty() ? e.what() : why.c_str());
    return 2;
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "torchsmith: %s\n(run `torchsmith --help` for usage)\n", e.what());
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
