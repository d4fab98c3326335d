#include "package/conda_wheel.h"

#include <cctype>

#include "util/fs.h"
#include "util/split.h"

namespace ts::package {
namespace {

bool valid_part(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '+' ||
          c == '!'))
      return false;
  return true;
}

}  // namespace

std::optional<WheelName> parse_wheel_name(std::string_view file_name, std::string* error) {
  std::size_t slash = file_name.rfind('/');
  if (slash != std::string_view::npos) file_name.remove_prefix(slash + 1);
  const std::string_view ext = ".whl";
  if (file_name.size() <= ext.size() || file_name.substr(file_name.size() - ext.size()) != ext) {
    *error = "'" + std::string(file_name) +
             "' is not a wheel file name (NAME-VERSION-PY-ABI-PLATFORM.whl)";
    return std::nullopt;
  }
  auto parts = util::split(file_name.substr(0, file_name.size() - ext.size()), '-');
  if (parts.size() != 5 && parts.size() != 6) {
    *error = "'" + std::string(file_name) + "' is not a wheel file name: it has " +
             std::to_string(parts.size()) + " '-'-separated parts, a wheel has 5 or 6";
    return std::nullopt;
  }
  for (const auto& p : parts)
    if (!valid_part(p)) {
      *error = "'" + std::string(file_name) + "' is not a wheel file name: bad part '" + p + "'";
      return std::nullopt;
    }
  WheelName w;
  w.name = parts[0];
  w.version = parts[1];
  std::size_t i = 2;
  if (parts.size() == 6) w.build = parts[i++];
  w.python_tag = parts[i++];
  w.abi_tag = parts[i++];
  w.platform_tag = parts[i];
  return w;
}

WheelMetadata parse_metadata(std::string_view text) {
  WheelMetadata m;
  // Headers end at the first empty line; continuation lines (leading space) belong to the last.
  std::string key, value;
  auto flush = [&] {
    if (key.empty()) return;
    std::string v = util::trim(value);
    if (key == "name")
      m.name = v;
    else if (key == "version")
      m.version = v;
    else if (key == "summary")
      m.summary = v;
    else if (key == "license" && m.license.empty())
      m.license = v;
    else if (key == "license-expression")
      m.license = v;
    else if (key == "home-page")
      m.home_page = v;
    else if (key == "requires-python")
      m.requires_python = v;
    else if (key == "requires-dist")
      m.requires_dist.push_back(v);
    else if (key == "project-url" && m.home_page.empty()) {
      auto comma = v.find(',');
      if (comma != std::string::npos) m.home_page = util::trim(v.substr(comma + 1));
    }
    key.clear();
    value.clear();
  };
  for (const auto& raw : util::split(text, '\n')) {
    std::string line = raw;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) break;
    if (line[0] == ' ' || line[0] == '\t') {
      if (!key.empty() && key != "license") value += "\n" + line;
      continue;
    }
    flush();
    auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    key = line.substr(0, colon);
    for (auto& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    value = line.substr(colon + 1);
  }
  flush();
  return m;
}

std::vector<EntryPoint> parse_entry_points(std::string_view text) {
  std::vector<EntryPoint> out;
  std::string section;
  for (const auto& raw : util::split(text, '\n')) {
    std::string line = util::trim(raw);
    if (line.empty() || line[0] == '#' || line[0] == ';') continue;
    if (line.front() == '[' && line.back() == ']') {
      section = util::trim(line.substr(1, line.size() - 2));
      continue;
    }
    if (section != "console_scripts" && section != "gui_scripts") continue;
    auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    EntryPoint e;
    e.name = util::trim(line.substr(0, eq));
    std::string target = util::trim(line.substr(eq + 1));
    if (auto br = target.find('['); br != std::string::npos)
      target = util::trim(target.substr(0, br));
    auto colon = target.find(':');
    e.module = util::trim(target.substr(0, colon));
    if (colon != std::string::npos) e.attr = util::trim(target.substr(colon + 1));
    e.gui = section == "gui_scripts";
    // A script name becomes a file in bin/: nothing that could leave it.
    if (e.name.empty() || e.module.empty() || e.name.find('/') != std::string::npos ||
        e.name[0] == '.')
      continue;
    out.push_back(e);
  }
  return out;
}

}  // namespace ts::package
