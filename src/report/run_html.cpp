#include "report/run_html.h"

#include <algorithm>
#include <cstdio>
#include <tuple>

#include <filesystem>
#include <regex>

#include "build/eta.h"
#include "core/verdict_word.h"
#include "report/command_line.h"
#include "report/run_text.h"
#include "report/source_error.h"
#include "report/trace.h"

namespace ts::report {
namespace {

using nlohmann::json;

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string secs(double s) { return s < 60 ? fmt("%.1fs", s) : build::format_duration(s); }

std::string gib(std::uint64_t b) { return fmt("%.1f GiB", double(b) / double(1ull << 30)); }

// Length of the valid UTF-8 sequence at s[i], or 0 when it is not one.
std::size_t utf8_len(std::string_view s, std::size_t i) {
  unsigned char c = (unsigned char)s[i];
  std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if (((unsigned char)s[i + k] >> 6) != 0x2) return 0;
  if (n == 2 && c < 0xC2) return 0;  // overlong
  return n;
}

std::string esc(std::string_view s) { return html_escape(s); }

std::string status_class(std::string_view s) {
  if (s == "ok") return "ok";
  if (s == "failed" || s == "conflict") return "bad";
  return "warn";
}

std::string row(std::initializer_list<std::string> cells) {
  std::string out = "<tr>";
  for (const auto& c : cells) out += "<td>" + c + "</td>";
  return out + "</tr>\n";
}

std::string head(std::initializer_list<const char*> cells) {
  std::string out = "<tr>";
  for (const char* c : cells) out += std::string("<th>") + c + "</th>";
  return out + "</tr>\n";
}

const char* kStyle =
    "body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222;max-width:1100px}"
    "h1{font-size:1.5em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ddd}"
    "table{border-collapse:collapse}td,th{padding:2px 10px;text-align:left;vertical-align:top}"
    "tr:nth-child(even){background:#f6f6f6}code,pre{font:12px ui-monospace,monospace}"
    "pre{background:#f6f6f6;padding:8px;overflow-x:auto}"
    ".ok{color:#1a7f37}.bad{color:#c62828}.warn{color:#b26a00}.num{text-align:right}"
    ".badge{font-weight:bold;padding:2px 8px;border-radius:4px;border:1px solid currentColor}"
    ".note{color:#0b6e8a}tr.v-bad{background:#fdecea}tr.v-warn{background:#fff4e0}tr.v-ok{background:#f1f8f2}"
    "#built td:first-child{color:#555;white-space:nowrap}"
    "svg text{font:11px sans-serif;fill:#444}svg text.axis{font-weight:bold;fill:#222}"
    "details{margin-top:1.2em}details>summary{cursor:pointer;font-weight:bold;font-size:1.05em}"
    ".src{border-left:4px solid #c62828}.src .hit{background:#fdecea;font-weight:bold}.caret{color:#c62828}"
    ".callout{border:1px solid #c62828;background:#fff7f6;padding:8px 14px;border-radius:4px}";

std::string lines_section(const char* title, const std::vector<std::string>& v, bool code);

// A link from report.html (in the run directory) to a file of the run, relative so the folder
// can be copied elsewhere; the text alone when the path is not under the run's out directory.
std::string link(const RunRecord& r, const std::string& path, const std::string& text) {
  namespace fs = std::filesystem;
  if (r.run_dir.empty() || path.empty()) return esc(text);
  fs::path p = fs::path(path).is_absolute() ? fs::path(path) : fs::path(r.run_dir) / path;
  std::string rel = p.lexically_normal().lexically_relative(r.run_dir).string();
  if (rel.empty() || rel.find("../../../") == 0) return esc(text);
  return "<a href=\"" + esc(rel) + "\">" + esc(text) + "</a>";
}

// A failed compile, told at the top: the user's file and line, that line with a caret and the
// lines around it; a missing header named, with the fix that provides it.
std::string failure_callout(const RunRecord& r) {
  if (r.outcome != "failed") return "";
  auto e = source_error(r.diagnosis, r.source_dir, r.source_copy);
  if (!e) return "";
  std::string o = "<div class=\"callout\" id=\"source-error\">\n<h2>" +
                  std::string(e->in_user_tree() ? "Error in your source: " : "Error in: ") + "<code>" + esc(e->where()) +
                  "</code></h2>\n";
  static const std::regex missing(R"(^(.+): No such file or directory$)");
  std::smatch m;
  if (std::regex_match(e->message, m, missing))
    o += "<p>Missing header <code>" + esc(m[1].str()) + "</code>: nothing on the include path provides it.</p>\n";
  o += "<p><code>" + esc(e->file) + ":" + std::to_string(e->line) + (e->column ? ":" + std::to_string(e->column) : "") +
       "</code>: " + esc(e->message) + "</p>\n";
  const json& root = r.diagnosis["root_cause"];
  if (root.is_object() && root.contains("fix") && root["fix"].is_string())
    o += "<p><b>Fix:</b> " + esc(root["fix"].get<std::string>()) + "</p>\n";
  auto lines = source_lines(e->compiled, e->line, 3);
  if (!lines.empty()) {
    o += "<pre class=\"src\">";
    for (const auto& [n, text] : lines) {
      char num[16];
      std::snprintf(num, sizeof num, "%5d | ", n);
      if (n == e->line) {
        o += "<span class=\"hit\">" + std::string(num) + esc(text) + "</span>\n";
        if (e->column > 0)
          o += std::string(8, ' ') + std::string(std::size_t(e->column - 1), ' ') + "<span class=\"caret\">^</span>\n";
      } else {
        o += std::string(num) + esc(text) + "\n";
      }
    }
    o += "</pre>\n";
  }
  if (!r.command.empty())
    o += "<p>Then: <code>" + esc(shell_line(resume_command(r.command))) + "</code></p>\n";
  return o + "</div>\n";
}

std::string summary(const RunRecord& r) {
  std::string o = "<h1>torchsmith build: " + esc(r.what) + " <span class=\"badge " +
                  status_class(r.outcome) + "\">" + esc(r.outcome) + "</span></h1>\n<table>\n";
  o += row({"started", esc(r.started_at)});
  o += row({"time", secs(r.seconds)});
  o += row({"steps", std::to_string(r.steps.size())});
  if (!r.retries.empty()) o += row({"retries", std::to_string(r.retries.size())});
  if (!r.governor.empty()) o += row({"governor actions", std::to_string(r.governor.size())});
  double rate = r.cache.hit_rate();
  o += row({"compile cache", r.cache.tool.empty() ? std::string("none")
                                                 : esc(r.cache.tool) + (rate < 0 ? ", no lookups" : ", " + fmt("%.0f%%", rate * 100) + " hits")});
  if (!r.cache.store.empty())
    o += row({"shared store", "<code>" + esc(r.cache.store) + "</code>: " +
                                  (r.cache.store_ok ? std::to_string(r.cache.remote_hits) + " remote hits, " +
                                                          std::to_string(r.cache.local_hits) + " local hits, " +
                                                          std::to_string(r.cache.remote_errors) + " errors"
                                                    : "<span class=\"warn\">" + esc(r.cache.warning) + "</span>")});
  if (!r.distributed.engine.empty()) {
    std::string d = esc(r.distributed.engine) + ": ";
    for (const auto& [h, n] : r.distributed.remote_jobs) d += esc(h) + " " + std::to_string(n) + ", ";
    d += "here " + std::to_string(r.distributed.local_jobs);
    if (!r.distributed.moved.empty())
      d += "; <span class=\"warn\">" + std::to_string(r.distributed.moved.size()) + " moved here from a failed host</span>";
    for (const auto& l : r.distributed.left_out) d += "<br><span class=\"warn\">left out: " + esc(l) + "</span>";
    o += row({"distributed", d});
  }
  o += row({"torchsmith", esc(r.torchsmith_version)});
  if (!r.run_dir.empty()) {
    o += row({"run directory", "<code>" + esc(r.run_dir) + "</code>"});
    o += row({"run files", link(r, "run.json", "run.json") + ", " + link(r, "trace.json", "trace.json") + " (Perfetto)"});
  }
  if (!r.command.empty()) o += row({"reproduce", "<code id=\"command\">" + esc(shell_line(r.command)) + "</code>"});
  return o + "</table>\n";
}

std::string diagnosis(const RunRecord& r) {
  if (r.diagnosis.is_null() || !r.diagnosis.is_object()) return "";
  std::string o = "<h2>Diagnosis</h2>\n";
  const json& root = r.diagnosis.contains("root_cause") ? r.diagnosis["root_cause"] : json();
  if (!root.is_object()) return o + "<p>No root cause was recognised in the log.</p>\n";
  auto s = [&](const char* k) { return root.contains(k) && root[k].is_string() ? root[k].get<std::string>() : ""; };
  o += "<p><b class=\"bad\">" + esc(s("id")) + "</b>: " + esc(s("cause")) + "</p>\n";
  o += "<p><b>Fix:</b> " + esc(s("fix")) + "</p>\n";
  // The log around the evidence: context lines with the evidence marked, then evidence past it.
  auto lines_of = [&](const char* key) {
    std::vector<std::pair<long long, std::string>> v;
    if (root.contains(key) && root[key].is_array())
      for (const auto& e : root[key])
        if (e.is_object())
          v.emplace_back(e.contains("line") && e["line"].is_number() ? e["line"].get<long long>() : -1,
                         e.contains("text") && e["text"].is_string() ? e["text"].get<std::string>() : "");
    return v;
  };
  auto evidence = lines_of("evidence"), context = lines_of("context");
  if (!evidence.empty() || !context.empty()) {
    o += "<pre id=\"evidence\">";
    long long last = -1;
    auto is_evidence = [&](long long n) {
      return std::any_of(evidence.begin(), evidence.end(), [&](const auto& e) { return e.first == n; });
    };
    for (const auto& [n, text] : context) {
      std::string num = n < 0 ? "?" : std::to_string(n);
      o += is_evidence(n) ? "<b class=\"bad\">&gt; " + esc(num) + " | " + esc(text) + "</b>\n" : "  " + esc(num) + " | " + esc(text) + "\n";
      last = std::max(last, n);
    }
    for (const auto& [n, text] : evidence)
      if (context.empty() || n > last) o += esc(n < 0 ? "?" : std::to_string(n)) + " | " + esc(text) + "\n";
    o += "</pre>\n";
  }
  return o;
}

// A value worth showing: not empty, not zero, not false.
bool has_value(const json& v) {
  if (v.is_string()) return !v.get<std::string>().empty();
  if (v.is_number()) return v.get<double>() != 0;
  if (v.is_boolean()) return v.get<bool>();
  return false;
}

std::string str(const json& j, const char* k) {
  return j.is_object() && j.contains(k) && j[k].is_string() ? j[k].get<std::string>() : "";
}

std::string plan(const RunRecord& r) {
  if (!r.plan.is_object() || r.plan.empty()) return "";
  const json& p = r.plan;
  const json spec = p.contains("spec") && p["spec"].is_object() ? p["spec"] : json::object();
  std::string o = "<h2>What was built</h2>\n<table id=\"built\">\n";
  auto line = [&](const std::string& label, const std::string& value) {
    if (!value.empty()) o += row({esc(label), value});
  };
  // The lock's fields in words, in the order a person asks about them; empty ones are left out.
  std::string pkg = str(spec, "package"), ver = str(spec, "version");
  line("package", esc(pkg) + (ver.empty() ? "" : " " + esc(ver)));
  line("imported as", str(p, "import_name").empty() ? "" : "<code>" + esc(str(p, "import_name")) + "</code>");
  const json src = p.contains("source") && p["source"].is_object() ? p["source"] : json::object();
  std::string from = str(src, "url").empty() ? str(src, "dir") : str(src, "url") + (str(src, "ref").empty() ? "" : " at " + str(src, "ref"));
  line("source", from.empty() ? "" : "<code>" + esc(from) + "</code>");
  line("source revision", str(src, "revision").empty() ? "" : "<code>" + esc(str(src, "revision")) + "</code>");
  line("source sha256", str(src, "sha256").empty() ? "" : "<code>" + esc(str(src, "sha256")) + "</code>");
  line(pkg == "torch" || str(p, "import_name").empty() ? "torch version" : "against torch", esc(str(p, "torch_version")));
  line("version built", esc(str(p, "build_version")));
  line("CUDA", esc(str(p, "cuda")) + (str(p, "cuda_home").empty() ? "" : " (" + esc(str(p, "cuda_home")) + ")"));
  line("GPU arches", esc(str(p, "arch_list")));
  line("Python", esc(str(p, "python_version")) + (str(p, "python").empty() ? "" : " (" + esc(str(p, "python")) + ")"));
  line("host compiler", esc(str(p, "host_compiler")));
  line("CMake", esc(str(p, "cmake_version")));
  line("NumPy", esc(str(p, "numpy_version")));
  if (p.contains("jobs") && has_value(p["jobs"])) line("parallel jobs", esc(p["jobs"].dump()));
  if (p.contains("fixes") && p["fixes"].is_array() && !p["fixes"].empty()) {
    std::string f;
    for (const auto& x : p["fixes"]) f += (f.empty() ? "" : ", ") + esc(str(x, "id"));
    line("fixes applied", f);
  }
  if (p.contains("features") && p["features"].is_object()) {
    std::string on;
    for (const auto& [k, v] : p["features"].items())
      if (v.is_boolean() && v.get<bool>()) on += (on.empty() ? "" : ", ") + esc(k);
    line("features on", on);
  }
  o += "</table>\n";
  if (!str(p, "smoke").empty())
    o += "<p>Smoke test verify runs after the import:</p>\n<pre id=\"smoke\"><code>" + esc(str(p, "smoke")) + "</code></pre>\n";
  if (p.contains("decisions") && p["decisions"].is_array() && !p["decisions"].empty()) {
    o += "<details id=\"decisions\"><summary>The plan's decisions (" + std::to_string(p["decisions"].size()) +
         ")</summary>\n<table>\n" + head({"topic", "chosen", "why", "rule"});
    for (const auto& d : p["decisions"])
      o += row({esc(str(d, "topic")), esc(str(d, "value")), esc(str(d, "reason")), "<code>" + esc(str(d, "rule")) + "</code>"});
    o += "</table>\n</details>\n";
  }
  return o;
}

// verify's verdicts, the failures first, then warnings, notes and skips, then what passed.
std::string verification(const RunRecord& r) {
  if (!r.checks.is_array() || r.checks.empty()) return lines_section("Verification", r.verdicts, true);
  // What is wrong first, then what passed, then notes and skips (worth knowing, not the proof).
  auto rank = [](const std::string& oc) { return oc == "fail" ? 0 : oc == "warn" ? 1 : oc == "pass" ? 2 : 3; };
  std::vector<const json*> v;
  for (const auto& c : r.checks)
    if (c.is_object()) v.push_back(&c);
  std::stable_sort(v.begin(), v.end(), [&](const json* a, const json* b) {
    return rank(str(*a, "outcome")) < rank(str(*b, "outcome"));
  });
  int fails = 0, warns = 0;
  for (const json* c : v) fails += str(*c, "outcome") == "fail", warns += str(*c, "outcome") == "warn";
  std::string o = "<h2>Verification</h2>\n<p>" + std::to_string(v.size()) + " checks: " +
                  (fails ? "<b class=\"bad\">" + std::to_string(fails) + " failed</b>" : std::string("<span class=\"ok\">none failed</span>")) +
                  (warns ? ", " + std::to_string(warns) + " warning" + (warns == 1 ? "" : "s") : "") + ".</p>\n" +
                  "<table id=\"verdicts\">\n" + head({"result", "check", "detail"});
  for (const json* c : v) {
    std::string oc = str(*c, "outcome");
    std::string cls = oc == "fail" ? "bad" : oc == "warn" ? "warn" : oc == "pass" ? "ok" : "note";
    std::string label(verdict_word(oc));
    std::string detail = str(*c, "detail");
    if (oc == "skip" && detail.rfind("skipped: ", 0) == 0) detail = detail.substr(9);
    std::string file = str(*c, "file");
    o += "<tr class=\"v-" + cls + "\"><td class=\"" + cls + "\"><b>" + esc(label) + "</b></td><td>" + esc(str(*c, "check")) +
         "</td><td>" + (file.empty() ? "" : "<code>" + esc(file) + "</code>: ") + esc(detail) + "</td></tr>\n";
  }
  return o + "</table>\n";
}

std::string steps(const RunRecord& r) {
  if (r.steps.empty()) return "";
  std::string o = "<h2>Steps</h2>\n<table id=\"steps\">\n" + head({"step", "status", "start", "time", "exit", "inputs", "log", "note"});
  for (const auto& s : r.steps)
    o += row({esc(s.name), "<span class=\"" + status_class(s.status) + "\">" + esc(s.status) + "</span>",
              secs(s.start), secs(s.seconds), std::to_string(s.exit_code),
              "<code>" + esc(s.input_hash.substr(0, 12)) + "</code>", s.log.empty() ? "" : link(r, s.log, s.log), esc(s.note)});
  return o + "</table>\n";
}

// What the run hands over: each file linked, with its size, sha256 and the line that installs it.
std::string artifacts(const RunRecord& r) {
  if (r.artifact_files.empty()) return lines_section("Artifacts", r.artifacts, true);
  std::string o = "<h2>Artifacts</h2>\n<table id=\"artifacts\">\n" + head({"file", "size", "sha256", "install"});
  for (const auto& a : r.artifact_files)
    o += row({link(r, a.path, a.file), size_text(a.size), "<code>" + esc(a.sha256) + "</code>",
              (a.install.empty() ? "" : "<code>" + esc(a.install) + "</code>") +
                  (a.torch.empty() ? "" : "<br>built against " + esc(a.torch))});
  return o + "</table>\n";
}

// Sections that say nothing about a failure: folded when the run failed, open otherwise.
std::string fold(bool folded, const char* title, const std::string& body) {
  if (!folded || body.empty()) return body;
  return std::string("<details><summary>") + title + "</summary>\n" + body + "</details>\n";
}

std::string retries(const RunRecord& r) {
  if (r.retries.empty()) return "";
  std::string o = "<h2>Retries</h2>\n<table>\n" + head({"at", "step", "reason", "remedy"});
  for (const auto& t : r.retries) o += row({secs(t.at), esc(t.step), esc(t.reason), esc(t.remedy)});
  o += "</table>\n";
  for (const auto& t : r.retries)  // a source port's edit, as the user would review it
    if (!t.diff.empty()) o += "<h3>" + esc(t.remedy) + ": the diff applied to the build's copy</h3>\n<pre>" + esc(t.diff) + "</pre>\n";
  return o;
}

std::string governor(const RunRecord& r) {
  if (r.governor.empty()) return "";
  std::string o = "<h2>Memory governor</h2>\n<table>\n" + head({"at", "action", "pid", "reason"});
  for (const auto& g : r.governor) o += row({secs(g.at), esc(g.action), std::to_string(g.pid), esc(g.reason)});
  return o + "</table>\n";
}

std::string slowest(const build::NinjaLog* log, std::size_t n) {
  if (!log) return "";
  auto top = slowest_jobs(*log, n);
  if (top.empty()) return "";
  std::string o = "<h2>Slowest " + std::to_string(top.size()) + " targets</h2>\n<table id=\"slowest\">\n" +
                  head({"#", "target", "time"});
  for (std::size_t i = 0; i < top.size(); ++i) {
    std::string name = top[i].name();
    if (top[i].outputs.size() > 1) name += " (+" + std::to_string(top[i].outputs.size() - 1) + " outputs)";
    o += row({std::to_string(i + 1), "<code>" + esc(name) + "</code>", secs(double(top[i].duration_ms()) / 1000)});
  }
  return o + "</table>\n";
}

std::string timeline(const build::NinjaLog* log, std::size_t max_bars) {
  if (!log) return "";
  auto jobs = log->jobs(true);
  if (jobs.empty()) return "";
  auto lanes = assign_lanes(jobs);
  std::int64_t end = 1;
  int nlanes = 0;
  for (std::size_t i = 0; i < jobs.size(); ++i) end = std::max(end, jobs[i].end_ms), nlanes = std::max(nlanes, lanes[i] + 1);
  // Drawn: the longest max_bars jobs (the short ones are invisible at this scale anyway).
  std::vector<std::size_t> idx(jobs.size());
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::stable_sort(idx.begin(), idx.end(), [&](auto a, auto b) { return jobs[a].duration_ms() > jobs[b].duration_ms(); });
  std::size_t drawn = std::min(max_bars, idx.size());
  idx.resize(drawn);
  std::sort(idx.begin(), idx.end());
  const double W = 1000, lane_h = 14, top = 4, left = 40;
  double h = top + nlanes * lane_h + 20;
  const double svg_h = h + 18;  // room for the axis label
  std::string o = "<h2>Timeline</h2>\n<p>" + std::to_string(jobs.size()) + " jobs of the last ninja run in " +
                  std::to_string(nlanes) + " lanes over " + secs(double(end) / 1000) + ".";
  if (drawn < jobs.size()) o += " The " + std::to_string(jobs.size() - drawn) + " shortest are not drawn.";
  o += "</p>\n<svg id=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" + fmt("%.0f", W + left + 10) +
       "\" height=\"" + fmt("%.0f", svg_h) + "\" role=\"img\" aria-label=\"timeline\">\n";
  for (int l = 0; l < nlanes; ++l)
    o += "<text x=\"0\" y=\"" + fmt("%.0f", top + l * lane_h + 10) + "\">" + std::to_string(l) + "</text>\n";
  for (std::size_t i : idx) {
    const auto& j = jobs[i];
    double x = left + W * double(j.start_ms) / double(end);
    double w = std::max(0.5, W * double(j.duration_ms()) / double(end));
    const char* colour = j.name().find(".cu.") != std::string::npos ? "#7b1fa2" : "#1565c0";
    o += "<rect x=\"" + fmt("%.1f", x) + "\" y=\"" + fmt("%.0f", top + lanes[i] * lane_h) + "\" width=\"" +
         fmt("%.1f", w) + "\" height=\"" + fmt("%.0f", lane_h - 2) + "\" fill=\"" + colour + "\"><title>" +
         esc(j.name()) + " " + secs(double(j.duration_ms()) / 1000) + "</title></rect>\n";
  }
  for (int k = 0; k <= 4; ++k)
    o += "<text x=\"" + fmt("%.0f", left + W * k / 4 - (k == 4 ? 40 : 0)) + "\" y=\"" + fmt("%.0f", h - 4) + "\">" +
         secs(double(end) / 1000 * k / 4) + "</text>\n";
  o += "<text class=\"axis\" x=\"" + fmt("%.0f", left + W / 2 - 120) + "\" y=\"" + fmt("%.0f", h + 12) +
       "\">time since the compile step started</text>\n<text class=\"axis\" x=\"0\" y=\"" + fmt("%.0f", h + 12) +
       "\">lane</text>\n";
  return o + "</svg>\n";
}

std::string polyline(const std::vector<MemorySample>& m, bool used, double t_end, double y_max,
                     double left, double W, double H, const char* colour) {
  std::string pts;
  for (const auto& s : m) {
    double v = double(used ? s.used_bytes : s.available_bytes);
    pts += fmt("%.1f", left + W * (t_end > 0 ? s.at / t_end : 0)) + "," + fmt("%.1f", 4 + H * (1 - v / y_max)) + " ";
  }
  if (!pts.empty()) pts.pop_back();
  return std::string("<polyline fill=\"none\" stroke=\"") + colour + "\" stroke-width=\"1.5\" points=\"" + pts + "\"/>\n";
}

std::string memory_chart(const RunRecord& r) {
  if (r.memory.empty()) return "<h2>Memory</h2>\n<p>No memory samples were recorded.</p>\n";
  double t_end = 0, y_max = 1;
  std::uint64_t peak = 0;
  for (const auto& s : r.memory) {
    t_end = std::max(t_end, s.at);
    y_max = std::max({y_max, double(s.used_bytes), double(s.available_bytes)});
    peak = std::max(peak, s.used_bytes);
  }
  const double W = 1000, H = 200, left = 60;
  std::string o = "<h2>Memory</h2>\n<p>Used by the build (red) and available (green); peak used " + gib(peak) +
                  ".</p>\n<svg id=\"memory\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" + fmt("%.0f", W + left + 10) +
                  "\" height=\"" + fmt("%.0f", H + 48) + "\" role=\"img\" aria-label=\"memory over time\">\n";
  o += "<line x1=\"" + fmt("%.0f", left) + "\" y1=\"4\" x2=\"" + fmt("%.0f", left) + "\" y2=\"" + fmt("%.0f", H + 4) +
       "\" stroke=\"#999\"/><line x1=\"" + fmt("%.0f", left) + "\" y1=\"" + fmt("%.0f", H + 4) + "\" x2=\"" +
       fmt("%.0f", left + W) + "\" y2=\"" + fmt("%.0f", H + 4) + "\" stroke=\"#999\"/>\n";
  // Five ticks a side, gridlines across, each axis named.
  for (int k = 0; k <= 4; ++k) {
    double y = 4 + H * (1 - k / 4.0);
    o += "<line x1=\"" + fmt("%.0f", left) + "\" y1=\"" + fmt("%.1f", y) + "\" x2=\"" + fmt("%.0f", left + W) +
         "\" y2=\"" + fmt("%.1f", y) + "\" stroke=\"#eee\"/>\n";
    o += "<text x=\"0\" y=\"" + fmt("%.1f", y + (k == 4 ? 10 : 4)) + "\">" + gib(std::uint64_t(y_max * k / 4)) + "</text>\n";
    o += "<text x=\"" + fmt("%.0f", left + W * k / 4 - (k == 4 ? 40 : 0)) + "\" y=\"" + fmt("%.0f", H + 20) + "\">" +
         secs(t_end * k / 4) + "</text>\n";
  }
  o += "<text class=\"axis\" x=\"" + fmt("%.0f", left + W / 2 - 90) + "\" y=\"" + fmt("%.0f", H + 40) +
       "\">time since the run started</text>\n";
  o += "<text class=\"axis\" x=\"" + fmt("%.0f", left + 6) + "\" y=\"16\">memory (GiB)</text>\n";
  o += polyline(r.memory, false, t_end, y_max, left, W, H, "#2e7d32");
  o += polyline(r.memory, true, t_end, y_max, left, W, H, "#c62828");
  return o + "</svg>\n";
}

std::string lines_section(const char* title, const std::vector<std::string>& v, bool code) {
  if (v.empty()) return "";
  std::string o = std::string("<h2>") + title + "</h2>\n<ul>\n";
  for (const auto& s : v) o += code ? "<li><code>" + esc(s) + "</code></li>\n" : "<li>" + esc(s) + "</li>\n";
  return o + "</ul>\n";
}

}  // namespace

std::string html_escape(std::string_view s) {
  std::string o;
  o.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    char c = s[i];
    switch (c) {
      case '&': o += "&amp;"; ++i; continue;
      case '<': o += "&lt;"; ++i; continue;
      case '>': o += "&gt;"; ++i; continue;
      case '"': o += "&quot;"; ++i; continue;
      case '\'': o += "&#39;"; ++i; continue;
      default: break;
    }
    std::size_t n = utf8_len(s, i);
    bool control = n == 1 && (unsigned char)c < 0x20 && c != '\n' && c != '\t';
    if (n == 0 || control) {
      o += "\xEF\xBF\xBD";
      ++i;
    } else {
      o.append(s.substr(i, n));
      i += n;
    }
  }
  return o;
}

std::vector<build::NinjaJob> slowest_jobs(const build::NinjaLog& log, std::size_t n) {
  auto jobs = log.jobs(false);
  std::stable_sort(jobs.begin(), jobs.end(), [](const build::NinjaJob& a, const build::NinjaJob& b) {
    return std::make_tuple(-a.duration_ms(), a.name()) < std::make_tuple(-b.duration_ms(), b.name());
  });
  if (jobs.size() > n) jobs.resize(n);
  return jobs;
}

std::string render_run_html(const RunRecord& r, const build::NinjaLog* log, HtmlOptions opts) {
  std::string o = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>torchsmith: " +
                  esc(r.what) + " " + esc(r.outcome) + "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n";
  const bool failed = r.outcome == "failed";
  o += summary(r);
  o += failure_callout(r);
  o += diagnosis(r);
  o += verification(r);
  o += artifacts(r);
  o += fold(failed, "What was built", plan(r));
  o += steps(r);
  o += retries(r);
  o += governor(r);
  std::string charts = slowest(log, opts.slowest) + timeline(log, opts.max_timeline_bars);
  if (log && !log->ok()) charts += "<p class=\"warn\">No timeline: " + esc(log->error) + "</p>\n";
  charts += memory_chart(r);
  o += fold(failed, "Timing and memory", charts);
  return o + "</body>\n</html>\n";
}

}  // namespace ts::report
