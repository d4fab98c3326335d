#pragma once
// How --help looks: `Usage:` first, then what the command does, then its options and commands, each
// wrapped to the terminal's width (80 when output is not a terminal), options' help in a column.
#include <cstddef>
#include <string>

#include <CLI/CLI.hpp>

namespace ts::cli {

// The terminal's columns (TIOCGWINSZ) on fd, kept within 40..200; 80 when fd is not a terminal.
std::size_t terminal_width(int fd);

// text re-flowed to width: lines of one paragraph are joined (a line ending a sentence or in ':'
// keeps its break), blank lines kept, lines that start with a space kept as they are (examples)
// and only broken when too long. Every line is at most width columns unless one word is longer.
std::string wrap(const std::string& text, std::size_t width);

// A description's summary for a list of commands: its first sentence, or what comes before its
// first ':' when that sentence is long.
std::string summary(const std::string& description);

class HelpFormatter : public CLI::Formatter {
 public:
  explicit HelpFormatter(std::size_t width);
  std::string make_help(const CLI::App* app, std::string name, CLI::AppFormatMode mode) const override;
  std::string make_description(const CLI::App* app) const override;
  std::string make_footer(const CLI::App* app) const override;
  std::string make_usage(const CLI::App* app, std::string name) const override;
  std::string make_subcommand(const CLI::App* sub) const override;
  std::string make_option_desc(const CLI::Option* opt) const override;

 private:
  std::size_t width_;
};

}  // namespace ts::cli
