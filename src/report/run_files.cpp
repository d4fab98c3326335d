#include "report/run_files.h"

#include "build/ninja_log.h"
#include "report/run_html.h"
#include "report/trace.h"
#include "util/fs.h"
#include "util/url.h"

namespace ts::report {

RunFiles write_run_files(const RunRecord& r) {
  return write_run_files(r, [](const std::string& path, const std::string& text) { return util::write_file_atomic(path, text); });
}

RunFiles write_run_files(const RunRecord& r, const WriteFile& write) {
  RunFiles out;
  if (r.run_dir.empty()) {
    out.error = "the run record names no run directory: nothing written";
    return out;
  }
  auto put = [&](const std::string& name, const std::string& text) {
    std::string path = r.run_dir + "/" + name;
    // Every file of the run is stored with the URLs in it redacted (user:TOKEN@, ?token=).
    std::string err = write(path, util::redact_text(text));
    if (!err.empty()) {
      if (out.error.empty()) out.error = path + ": " + err;
      return;
    }
    out.written.push_back(path);
  };
  build::NinjaLog log;
  bool have_log = false;
  if (r.ninja_log.empty()) {
    out.notes.push_back("no trace.json and no timeline: no ninja build step recorded a .ninja_log");
  } else {
    log = build::read_ninja_log(r.ninja_log);
    have_log = log.ok();
    if (!have_log) out.notes.push_back("no trace.json and no timeline: " + log.error);
    else if (log.skipped) out.notes.push_back(r.ninja_log + ": " + std::to_string(log.skipped) + " unreadable lines skipped");
  }
  put("run.json", run_json_text(r));
  put("report.html", render_run_html(r, r.ninja_log.empty() ? nullptr : &log));
  if (have_log) put("trace.json", chrome_trace_text(log, &r));
  return out;
}

}  // namespace ts::report
