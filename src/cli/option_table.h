#pragma once
// The options of every command as one table: the options each command registers on CLI11 are the
// rows (name, owning command, help), so --help and the checks read the same registrations. An option
// given to a command that does not take it is refused with the commands that do; numbers parse
// strictly (plain digits within a range) for every command.
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace ts::cli {

// A whole number from lo to hi written in plain digits: no sign, base prefix, exponent, suffix or
// spaces ("4x", "0x10", "+4", "1e3" are refused).
std::optional<long long> whole_number(const std::string& s, long long lo, long long hi);

// Registers NAME on c as a whole number from lo to hi stored in target; anything else is a parse
// error (exit 2) naming the option, the value and the accepted range.
CLI::Option* add_number(CLI::App* c, const std::string& name, int& target, int lo, int hi, const std::string& help);

// One row of the table: an option and the command (path such as "toolkit add") that registers it.
struct OptionRow {
  std::string command;
  std::string name;  // "--jobs"
  std::string help;
};

// Every long option every subcommand of app registers, in registration order.
std::vector<OptionRow> option_table(const CLI::App& app);

// After a parse that found arguments no command expected: for the first "--NAME" in args that the
// parsed command does not take, the reason (which commands take it, and what it means there), or ""
// when every long option was the command's own (the error is something else).
std::string foreign_option_error(const CLI::App& app, const std::vector<std::string>& args);

}  // namespace ts::cli
