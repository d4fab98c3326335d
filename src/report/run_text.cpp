#include "report/run_text.h"

#include <algorithm>
#include <cstdio>

#include "build/eta.h"

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
    std::string label = oc == "pass" ? "ok" : oc == "fail" ? "FAIL" : oc;
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
