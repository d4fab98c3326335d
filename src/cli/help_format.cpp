#include "cli/help_format.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <sstream>
#include <vector>

namespace ts::cli {

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::string line;
  std::istringstream in(text);
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

// Greedy word wrap of one paragraph; continuation lines start with `hang` spaces.
void fill(const std::string& para, std::size_t width, std::size_t lead, std::size_t hang, std::string& out) {
  std::istringstream words(para);
  std::string w, line(lead, ' ');
  bool empty = true;
  while (words >> w) {
    if (!empty && line.size() + 1 + w.size() > width) {
      out += line + "\n";
      line.assign(hang, ' ');
      empty = true;
    }
    line += (empty ? "" : " ") + w;
    empty = false;
  }
  out += line + "\n";
}

bool ends_sentence(const std::string& line) {
  if (line.empty()) return false;
  char c = line.back();
  return c == ':' || c == '.' || c == '?' || c == '!';
}

}  // namespace

std::size_t terminal_width(int fd) {
  struct winsize ws {};
  if (!isatty(fd) || ioctl(fd, TIOCGWINSZ, &ws) != 0 || ws.ws_col == 0) return 80;
  return std::clamp<std::size_t>(ws.ws_col, 40, 200);
}

std::string wrap(const std::string& text, std::size_t width) {
  std::string out, para;
  auto flush = [&] {
    if (!para.empty()) fill(para, width, 0, 0, out);
    para.clear();
  };
  for (const auto& line : lines_of(text)) {
    if (line.find_first_not_of(' ') == std::string::npos) {
      flush();
      out += "\n";
    } else if (line[0] == ' ') {  // an example or a list item: its own line, hanging when broken
      flush();
      std::size_t lead = line.find_first_not_of(' ');
      if (line.size() <= width) out += line + "\n";
      else fill(line, width, lead, lead + 4, out);
    } else {
      if (!para.empty() && ends_sentence(para) && (para.back() == ':' || std::isupper(static_cast<unsigned char>(line[0])) || line[0] == '`'))
        flush();
      para += (para.empty() ? "" : " ") + line;
    }
  }
  flush();
  return out;
}

std::string summary(const std::string& description) {
  std::string s = description;
  for (auto& c : s)
    if (c == '\n') c = ' ';
  std::size_t dot = s.find(". ");
  std::string first = s.substr(0, dot == std::string::npos ? s.size() : dot + 1);
  if (first.size() > 100)
    if (std::size_t colon = first.find(": "); colon != std::string::npos) first = first.substr(0, colon) + ".";
  return first;
}

HelpFormatter::HelpFormatter(std::size_t width) : width_(width) {}

std::string HelpFormatter::make_help(const CLI::App* app, std::string name, CLI::AppFormatMode mode) const {
  if (mode == CLI::AppFormatMode::Sub) return make_expanded(app);
  std::string out = make_usage(app, name);
  if (std::string d = make_description(app); !d.empty()) out += "\n" + d;
  out += make_positionals(app);
  out += make_groups(app, mode);
  out += make_subcommands(app, mode);
  if (std::string f = make_footer(app); !f.empty()) out += "\n" + f;
  return out;
}

std::string HelpFormatter::make_description(const CLI::App* app) const {
  const std::string& d = app->get_description();
  return d.empty() ? "" : wrap(d, width_);
}

std::string HelpFormatter::make_footer(const CLI::App* app) const {
  const std::string& f = app->get_footer();
  return f.empty() ? "" : wrap(f, width_);
}

std::string HelpFormatter::make_usage(const CLI::App* app, std::string name) const {
  std::string u = CLI::Formatter::make_usage(app, name);
  while (!u.empty() && u.back() == '\n') u.pop_back();
  std::string out;
  fill(u, width_, 0, 7, out);  // under the text after "Usage: "
  return out;
}

std::string HelpFormatter::make_subcommand(const CLI::App* sub) const {
  std::stringstream out;
  std::size_t col = get_column_width();
  std::string text;
  fill(summary(sub->get_description()), width_ > col + 20 ? width_ - col : 20, 0, 0, text);
  if (!text.empty()) text.pop_back();
  CLI::detail::format_help(out, sub->get_display_name(true), text, col);
  return out.str();
}

std::string HelpFormatter::make_option_desc(const CLI::Option* opt) const {
  std::size_t col = get_column_width();
  std::string text = wrap(opt->get_description(), width_ > col + 20 ? width_ - col : 20);
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

}  // namespace ts::cli
