#include "package/matrix_index.h"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>
#include <sstream>

#include "package/simple_index.h"

namespace ts::package {

namespace {

bool numeric_release(const std::string& v) {
  int parts = 0;
  std::size_t i = 0;
  while (i < v.size()) {
    std::size_t s = i;
    while (i < v.size() && std::isdigit(static_cast<unsigned char>(v[i]))) ++i;
    if (i == s) return false;
    ++parts;
    if (i < v.size() && v[i++] != '.') return false;
    if (i == v.size() && v.back() == '.') return false;
  }
  return parts == 2 || parts == 3;
}

std::string size_text(std::uint64_t b) {
  std::ostringstream o;
  o.precision(b >= (10u << 20) ? 0 : 1);
  o << std::fixed << static_cast<double>(b) / (1 << 20) << " MiB";
  return o.str();
}

}  // namespace

std::optional<std::vector<TorchAsk>> parse_torch_list(const std::string& list, std::string* error) {
  std::vector<TorchAsk> out;
  std::stringstream in(list);
  std::string item;
  while (std::getline(in, item, ',')) {
    while (!item.empty() && item.front() == ' ') item.erase(item.begin());
    while (!item.empty() && item.back() == ' ') item.pop_back();
    if (!numeric_release(item)) {
      *error = "--torch " + list + ": '" + item + "' is not a torch release (write 2.5 for the newest 2.5.x, or 2.5.1)";
      return std::nullopt;
    }
    for (const auto& t : out)
      if (t.asked == item) {
        *error = "--torch " + list + ": " + item + " is named twice";
        return std::nullopt;
      }
    bool minor = std::count(item.begin(), item.end(), '.') == 1;
    out.push_back({item, "torch==" + item + (minor ? ".*" : "")});
  }
  if (out.empty()) {
    *error = "--torch: name the torch releases to build for (--torch 2.4,2.5)";
    return std::nullopt;
  }
  return out;
}

std::string cell_dir(const std::string& torch_version, const std::string& cuda) {
  std::string tag = "cpu";
  if (!cuda.empty()) {
    tag = "cu";
    for (char c : cuda)
      if (std::isdigit(static_cast<unsigned char>(c))) tag += c;
  }
  return "torch-" + torch_version + "+" + tag;
}

nlohmann::json matrix_json(const std::string& package, const std::vector<MatrixCell>& cells) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& c : cells)
    rows.push_back({{"torch_asked", c.asked},
                    {"torch", c.torch_version},
                    {"cuda", c.cuda.empty() ? "cpu" : c.cuda},
                    {"arches", c.arches},
                    {"dir", c.torch_version.empty() ? "" : cell_dir(c.torch_version, c.cuda)},
                    {"wheels", c.wheels},
                    {"bytes", c.bytes},
                    {"ok", c.ok},
                    {"result", c.result},
                    {"log", c.log}});
  return {{"package", package}, {"cells", rows}};
}

std::string render_matrix_html(const std::string& package, const std::vector<MatrixCell>& cells) {
  std::ostringstream o;
  o << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" << html_escape(package)
    << " wheels by torch and CUDA</title>\n<style>body{font-family:sans-serif}table{border-collapse:collapse}"
       "td,th{border:1px solid #bbb;padding:4px 8px;text-align:left}.ok{background:#d9f2d9}.failed{background:#f7d4d4}"
       "</style></head><body>\n<h1>"
    << html_escape(package) << "</h1>\n<p>Install with <code>pip install --find-links DIR " << html_escape(package)
    << "</code>, DIR being the row's directory.</p>\n"
       "<table>\n<tr><th>torch</th><th>CUDA</th><th>arches</th><th>wheels</th><th>size</th><th>verify</th></tr>\n";
  for (const auto& c : cells) {
    std::string dir = c.torch_version.empty() ? "" : cell_dir(c.torch_version, c.cuda);
    o << "<tr class=\"" << (c.ok ? "ok" : "failed") << "\"><td>"
      << html_escape(c.torch_version.empty() ? c.asked + " (not installed)" : c.torch_version) << "</td><td>"
      << html_escape(c.cuda.empty() ? "cpu" : c.cuda) << "</td><td>" << html_escape(c.arches.empty() ? "-" : c.arches)
      << "</td><td>";
    for (const auto& w : c.wheels)
      o << "<a href=\"" << url_path_escape(dir + "/" + w) << "\">" << html_escape(w) << "</a><br>";
    o << "</td><td>" << (c.wheels.empty() ? "-" : size_text(c.bytes)) << "</td><td>" << html_escape(c.result)
      << "</td></tr>\n";
  }
  o << "</table>\n</body></html>\n";
  return o.str();
}

}  // namespace ts::package
