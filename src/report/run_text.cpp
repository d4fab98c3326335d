#include "report/run_text.h"

#include <algorithm>
#include <cstdio>

#include "build/eta.h"
#include "core/verdict_word.h"
#include "report/command_line.h"
#include "report/source_error.h"
#include "verify/check.h"

namespace ts::report {
namespace {

std::string secs(double s) {
  if (s >= 60) return build::format_duration(s);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1fs", s);
  return buf;
}

// Control bytes from logs (escape sequences) would drive the terminal: shown as '?'.
std::string printable(std::string s) {
  for (char& c : s)
    if ((unsigned char)c < 0x20 || c == 0x7f) c = '?';
  return s;
}

std::string str(const nlohmann::json& j, const char* key) {
  return printable(j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "");
}

}  // namespace

std::string size_text(std::uint64_t bytes) {
  char buf[32];
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  double v = double(bytes);
  int u = 0;
  while (v >= 1024 && u < 4) v /= 1024, ++u;
  if (u == 0) std::snprintf(buf, sizeof buf, "%llu bytes", (unsigned long long)bytes);
  else std::snprintf(buf, sizeof buf, v < 10 ? "%.1f %s" : "%.0f %s", v, units[u]);
  return buf;
}

std::string render_run_text(const RunRecord& r, const Style& st, const std::vector<std::string>& written) {
  std::string out = printable(r.outcome);
  std::string outcome = out == "ok" ? st.green(out) : out == "failed" ? st.red(out) : st.yellow(out);
  std::string o = st.bold("build " + printable(r.what)) + ": " + outcome + " in " + secs(r.seconds) + "\n";
  const StepRecord* slow = nullptr;
  for (const auto& s : r.steps)
    if (!slow || s.seconds > slow->seconds) slow = &s;
  if (slow) o += "  slowest step: " + printable(slow->name) + " " + secs(slow->seconds) + "\n";
  if (!r.retries.empty()) {
    o += "  retries: " + std::to_string(r.retries.size());
    for (const auto& t : r.retries) o += (&t == &r.retries.front() ? " (" : "; ") + printable(t.reason);
    o += ")\n";
  }
  if (!r.governor.empty()) o += "  memory governor: " + std::to_string(r.governor.size()) + " actions\n";
  if (double rate = r.cache.hit_rate(); !r.cache.tool.empty() && rate >= 0) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%.0f%% hits (%llu of %llu)", rate * 100, (unsigned long long)r.cache.hits,
                  (unsigned long long)(r.cache.hits + r.cache.misses));
    o += "  " + printable(r.cache.tool) + ": " + buf + "\n";
  }
  if (!r.cache.store.empty()) {
    if (r.cache.store_ok)
      o += "  shared store " + printable(r.cache.store) + ": " + std::to_string(r.cache.remote_hits) + " remote hits, " +
           std::to_string(r.cache.local_hits) + " local hits\n";
    else
      o += "  " + st.yellow("shared store: ") + printable(r.cache.warning) + "\n";
  }
  if (!r.distributed.engine.empty()) {
    o += "  " + printable(r.distributed.engine) + ":";
    for (const auto& [h, n] : r.distributed.remote_jobs) o += " " + printable(h) + " " + std::to_string(n) + ",";
    o += " here " + std::to_string(r.distributed.local_jobs);
    if (!r.distributed.moved.empty()) o += ", " + std::to_string(r.distributed.moved.size()) + " moved here from a failed host";
    o += "\n";
  }
  if (r.diagnosis.is_object() && r.diagnosis.contains("root_cause")) {
    const auto& root = r.diagnosis["root_cause"];
    if (root.is_object()) {
      o += "  " + st.red("cause: ") + str(root, "id") + ": " + str(root, "cause") + "\n";
      if (!str(root, "fix").empty()) o += "  fix:   " + str(root, "fix") + "\n";
    }
  }
  // What the run hands over: each artifact with its size, sha256 and install line; on a failure
  // the user's file:line and the command to run after the fix.
  for (const auto& a : r.artifact_files) {
    if (r.outcome != "ok") break;
    o += "  " + st.bold("artifact: ") + printable(a.path) + " (" + size_text(a.size) + ")\n";
    o += "  sha256:   " + printable(a.sha256) + "\n";
    if (!a.install.empty()) {
      o += "  install:  " + printable(a.install) + "\n";
      if (!a.torch.empty()) o += "            " + st.dim("(built against " + printable(a.torch) + "; install it where that torch is)") + "\n";
    }
  }
  if (r.checks.is_array())
    for (const auto& c : r.checks)
      if (c.is_object() && c.value("outcome", "") == "warn" && verify::is_check(str(c, "check"), verify::Check::torch_of_wheel))
        o += "  " + st.yellow("warning: ") + str(c, "detail") + "\n";
  if (r.outcome == "failed") {
    if (auto e = source_error(r.diagnosis, r.source_dir, r.source_copy))
      o += "  " + st.red(e->in_user_tree() ? "error in your source: " : "error in: ") + printable(e->file) + ":" +
           std::to_string(e->line) + (e->column ? ":" + std::to_string(e->column) : "") + ": " + printable(e->message) + "\n";
  }
  if ((r.outcome == "failed" || r.outcome == "interrupted") && !r.command.empty()) {
    std::string resume = printable(shell_line(resume_command(r.command)));
    o += "  next:     " + std::string(r.outcome == "failed" ? "fix the cause above, then: " : "") + st.bold(resume) + "\n";
  }
  if (!r.run_dir.empty()) {
    for (const char* name : {"run.json", "report.html"}) {
      std::string path = r.run_dir + "/" + name, label = std::string(name) + ":";
      label.resize(13, ' ');
      bool there = std::find(written.begin(), written.end(), path) != written.end();
      o += "  " + (there ? st.dim(label + printable(path)) : st.yellow(label + "not written (see the error above)")) + "\n";
    }
  }
  return o;
}

std::vector<std::string> check_lines(const nlohmann::json& checks) {
  std::vector<std::string> out;
  if (!checks.is_array()) return out;
  int fails = 0, skips = 0;
  for (const auto& c : checks) {
    if (!c.is_object()) continue;
    std::string oc = c.value("outcome", ""), detail = c.value("detail", ""), file = c.value("file", "");
    fails += oc == "fail", skips += oc == "skip";
    std::string label(verdict_word(oc));
    if (oc == "skip" && detail.rfind("skipped: ", 0) == 0) detail = detail.substr(9);
    std::string check = c.value("check", "");
    label.resize(std::max<std::size_t>(label.size(), 5), ' ');
    check.resize(std::max<std::size_t>(check.size(), 16), ' ');
    out.push_back(label + " " + check + " " + (file.empty() ? "" : file + ": ") + detail);
  }
  // The closing line verify prints too (scripts look for " 0 failed").
  out.push_back(std::to_string(out.size()) + (out.size() == 1 ? " check, " : " checks, ") + std::to_string(fails) +
                " failed, " + std::to_string(skips) + " skipped");
  return out;
}

}  // namespace ts::report
