// Reading PyPI's JSON metadata for kb refresh (see pypi.h).
#include "kb/pypi.h"

#include <algorithm>
#include <set>

#include <re2/re2.h>

#include "core/version.h"

namespace ts::kb::pypi {

namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::string trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return std::string(s);
}

// Line (1-based, within `body`) of byte offset `byte`.
int line_at(std::string_view body, std::size_t byte) {
  byte = std::min(byte, body.size());
  return 1 + static_cast<int>(std::count(body.begin(), body.begin() + static_cast<long>(byte), '\n'));
}

const RE2& final_version() {
  static const RE2 r(R"(\d+\.\d+\.\d+)");
  return r;
}

std::string minor_of(const std::string& v) {
  auto p = Version::parse(v);
  return p ? p->major_minor() : v;
}

bool version_less(const std::string& a, const std::string& b) {
  auto pa = Version::parse(a), pb = Version::parse(b);
  return pa && pb ? *pa < *pb : a < b;
}

std::string date_of(const nlohmann::json& file) {
  for (const char* k : {"upload_time_iso_8601", "upload_time"})
    if (file.contains(k) && file[k].is_string() && file[k].get<std::string>().size() >= 10)
      return file[k].get<std::string>().substr(0, 10);
  return "";
}

bool yanked(const nlohmann::json& file) { return file.value("yanked", false) == true; }

// cp311 -> 11; py3, source -> -1.
int python_minor(const nlohmann::json& file) {
  std::string tag = file.value("python_version", "");
  static const RE2 cp(R"(cp3(\d{1,6}))");
  int minor = -1;
  if (RE2::FullMatch(tag, cp, &minor)) return minor;
  return -1;
}

}  // namespace

std::vector<Response> parse_recording(std::string_view text, const std::string& file, std::vector<KbError>& errors) {
  std::vector<Response> out;
  std::size_t before = errors.size();
  struct Part { Response r; std::string body; int body_line = 0; };
  std::vector<Part> parts;
  int n = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    std::string_view line = text.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
    pos = end == std::string_view::npos ? text.size() : end + 1;
    ++n;
    if (starts_with(line, "# url:")) {
      Part p;
      p.r.url = trim(line.substr(6));
      p.r.origin = {file, n};
      if (!starts_with(p.r.url, "https://") && !starts_with(p.r.url, "http://"))
        errors.push_back({{file, n}, "url: '" + p.r.url + "' is not an http(s) URL"});
      parts.push_back(std::move(p));
    } else if (starts_with(line, "# read:")) {
      if (parts.empty()) {
        errors.push_back({{file, n}, "'# read:' before any '# url:' line; a response starts with # url: URL"});
        continue;
      }
      parts.back().r.read = trim(line.substr(7));
      static const RE2 date(R"(\d{4}-\d{2}-\d{2})");
      if (!RE2::FullMatch(parts.back().r.read, date))
        errors.push_back({{file, n}, "read: '" + parts.back().r.read + "' is not a date; write # read: 2026-11-26"});
    } else if (starts_with(line, "#") && (parts.empty() || parts.back().body.empty())) {
      continue;  // comments in the header
    } else if (parts.empty()) {
      if (trim(line).empty()) continue;
      errors.push_back({{file, n}, "text before the first '# url:' line; a recording starts with # url: URL"});
      return {};
    } else {
      if (parts.back().body.empty()) parts.back().body_line = n;
      parts.back().body.append(line).push_back('\n');
    }
  }
  if (parts.empty() && errors.size() == before)
    errors.push_back({{file, 0}, "no '# url:' line: not a PyPI metadata recording"});
  for (auto& p : parts) {
    if (p.r.read.empty())
      errors.push_back({{file, p.r.origin.line}, "no '# read: YYYY-MM-DD' line after the URL"});
    if (trim(p.body).empty()) {
      errors.push_back({{file, p.r.origin.line}, "no JSON after '# url: " + p.r.url + "' (truncated?)"});
      continue;
    }
    try {
      p.r.body = nlohmann::json::parse(p.body);
    } catch (const nlohmann::json::parse_error& e) {
      bool at_end = e.byte >= p.body.size();
      int line = p.body_line + line_at(p.body, e.byte == 0 ? 0 : e.byte - 1) - 1;
      std::string what = e.what();
      if (auto c = what.find("]: "); c != std::string::npos) what = what.substr(c + 3);
      errors.push_back({{file, line}, std::string(at_end ? "JSON ends early (truncated?): " : "JSON syntax error: ") + what});
      continue;
    }
    if (!p.r.body.is_object())
      errors.push_back({{file, p.body_line}, "expected a JSON object (PyPI's /pypi/PROJECT/json)"});
    out.push_back(std::move(p.r));
  }
  if (errors.size() != before) return {};
  return out;
}

std::string to_recording(const Response& r) {
  return "# url: " + r.url + "\n# read: " + r.read + "\n" + r.body.dump() + "\n";
}

std::string cuda_of_requires(const std::vector<std::string>& requires_dist, std::string* from) {
  // cuda-toolkit[...]==13.2.2 (torch >= 2.15), nvidia-cuda-runtime-cu12==12.4.127, nvidia-cuda-runtime==13.0.96
  static const RE2 toolkit(R"(^\s*cuda-toolkit(\[[^\]]*\])?\s*==\s*(\d+)\.(\d+)[^;]*)");
  static const RE2 runtime(R"(^\s*nvidia-cuda-(runtime|nvrtc)(-cu\d+)?\s*==\s*(\d+)\.(\d+)[^;]*)");
  for (const RE2* re : {&toolkit, &runtime})
    for (const auto& r : requires_dist) {
      std::vector<re2::StringPiece> m(static_cast<std::size_t>(re->NumberOfCapturingGroups()) + 1);
      if (!re->Match(r, 0, r.size(), RE2::UNANCHORED, m.data(), static_cast<int>(m.size()))) continue;
      if (from) *from = trim(std::string_view(m[0].data(), m[0].size()));
      std::size_t k = m.size();
      return std::string(m[k - 2]) + "." + std::string(m[k - 1]);
    }
  return "";
}

std::vector<TorchLine> torch_lines(const std::vector<Response>& torch, std::vector<KbError>& errors) {
  std::map<std::string, TorchLine> lines;
  std::map<std::string, std::vector<std::string>> requires_of;  // version -> Requires-Dist
  std::map<std::string, std::set<int>> pythons_of;              // version -> cpXY minors
  for (const auto& r : torch) {
    const auto& b = r.body;
    if (b.contains("info") && b["info"].is_object() && b["info"].contains("version") &&
        b["info"]["requires_dist"].is_array()) {
      std::vector<std::string> req;
      for (const auto& x : b["info"]["requires_dist"])
        if (x.is_string()) req.push_back(x.get<std::string>());
      requires_of[b["info"]["version"].get<std::string>()] = req;
    }
    if (b.contains("urls") && b["urls"].is_array() && b.contains("info") && b["info"].contains("version"))
      for (const auto& f : b["urls"])
        if (int m = python_minor(f); m >= 0) pythons_of[b["info"]["version"].get<std::string>()].insert(m);
    if (!b.contains("releases")) continue;
    if (!b["releases"].is_object()) {
      errors.push_back({r.origin, "releases: expected an object of version -> files"});
      continue;
    }
    for (const auto& [v, files] : b["releases"].items()) {
      if (!RE2::FullMatch(v, final_version()) || !files.is_array() || files.empty()) continue;
      if (std::all_of(files.begin(), files.end(), [](const auto& f) { return yanked(f); })) continue;
      TorchLine& l = lines[minor_of(v)];
      l.minor = minor_of(v);
      l.versions.push_back(v);
      for (const auto& f : files) {
        std::string d = date_of(f);
        if (d.empty()) {
          errors.push_back({r.origin, "torch " + v + ": a file has no upload_time; the recording is damaged"});
          break;
        }
        if (l.released.empty() || d < l.released) l.released = d;
        if (int m = python_minor(f); m >= 0) pythons_of[v].insert(m);
      }
    }
  }
  std::vector<TorchLine> out;
  for (auto& [k, l] : lines) {
    std::sort(l.versions.begin(), l.versions.end(), version_less);
    const std::string& newest = l.versions.back();
    const auto& py = pythons_of[newest];
    l.python_minors.assign(py.begin(), py.end());
    if (auto it = requires_of.find(newest); it != requires_of.end()) l.default_cuda = cuda_of_requires(it->second, &l.cuda_from);
    out.push_back(std::move(l));
  }
  std::sort(out.begin(), out.end(), [](const TorchLine& a, const TorchLine& b) { return version_less(a.minor, b.minor); });
  return out;
}

std::vector<ToolkitLine> toolkit_lines(const Response& r, std::vector<KbError>& errors) {
  std::vector<ToolkitLine> out;
  const auto& b = r.body;
  std::string project = b.contains("info") && b["info"].is_object() ? b["info"].value("name", "") : "";
  if (project.empty() || !b.contains("releases") || !b["releases"].is_object()) {
    errors.push_back({r.origin, "expected info.name and releases (PyPI's /pypi/PROJECT/json)"});
    return out;
  }
  std::map<std::string, ToolkitLine> lines;
  for (const auto& [v, files] : b["releases"].items()) {
    if (!RE2::FullMatch(v, final_version()) || !files.is_array() || files.empty()) continue;
    ToolkitLine& l = lines[minor_of(v)];
    l.minor = minor_of(v);
    l.project = project;
    if (l.newest.empty() || version_less(l.newest, v)) l.newest = v;
    for (const auto& f : files)
      if (std::string d = date_of(f); !d.empty() && (l.released.empty() || d < l.released)) l.released = d;
  }
  for (auto& [k, l] : lines) {
    l.url = "https://pypi.org/project/" + l.project + "/" + l.newest + "/";
    out.push_back(std::move(l));
  }
  std::sort(out.begin(), out.end(), [](const ToolkitLine& a, const ToolkitLine& b) { return version_less(a.minor, b.minor); });
  return out;
}

}  // namespace ts::kb::pypi
