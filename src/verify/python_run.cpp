#include "verify/python_run.h"

#include <cstdlib>

#include "util/fs.h"
#include "verify/python_script.h"

namespace ts::verify {

const StepResult* ScriptRun::find(std::string_view step) const {
  for (const auto& s : steps)
    if (s.step == step) return &s;
  return nullptr;
}

std::string last_line(std::string_view text) {
  std::string line;
  while (!text.empty()) {
    std::size_t nl = text.rfind('\n', text.size() - 1);
    std::string_view l = nl == std::string_view::npos ? text : text.substr(nl + 1);
    line = util::trim(l);
    if (!line.empty()) break;
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(0, nl);
  }
  if (line.size() > 200) line = line.substr(0, 200) + "...";
  return line;
}

bool timed_out_waiting_for_go(const ScriptRun& r) {
  return r.proc.timed_out && !r.steps.empty() && r.steps.back().step == "torch facts" && r.steps.back().finished;
}

std::string ScriptRun::process_problem() const {
  if (proc.not_found)
    return "cannot run it (" + (proc.error.empty() ? "not found" : proc.error) + ")";
  if (proc.timed_out) return "timed out after " + std::to_string(timeout.count() / 1000) + " s";
  if (proc.truncated) return "printed more than the output cap and was stopped";
  if (proc.signal != 0) return proc.describe(timeout);
  if (proc.exit_code != 0) {
    std::string why = last_line(proc.err);
    return proc.describe(timeout) + (why.empty() ? "" : ": " + why);
  }
  return "";
}

ScriptRun parse_script_output(std::string_view out) {
  ScriptRun r;
  const std::string_view marker = kMarker;
  while (!out.empty()) {
    std::size_t nl = out.find('\n');
    std::string_view line = out.substr(0, nl);
    out = nl == std::string_view::npos ? std::string_view{} : out.substr(nl + 1);
    if (line.substr(0, marker.size()) != marker) continue;
    nlohmann::json j = nlohmann::json::parse(line.substr(marker.size()), nullptr, false);
    if (!j.is_object() || !j.contains("kind") || !j["kind"].is_string()) {
      ++r.garbage_lines;
      continue;
    }
    std::string kind = j["kind"];
    std::string step =
        j.contains("step") && j["step"].is_string() ? j["step"].get<std::string>() : "";
    if (kind == "done") {
      r.done = true;
    } else if (kind == "begin" && !step.empty()) {
      r.steps.push_back({step, false, false, nullptr, ""});
    } else if (kind == "end" && !step.empty()) {
      StepResult* s = nullptr;
      for (auto& x : r.steps)
        if (x.step == step && !x.finished) s = &x;
      if (!s) {
        r.steps.push_back({step, false, false, nullptr, ""});
        s = &r.steps.back();
      }
      s->finished = true;
      s->ok = j.contains("ok") && j["ok"].is_boolean() && j["ok"].get<bool>();
      if (s->ok && j.contains("value")) s->value = j["value"];
      if (j.contains("error") && j["error"].is_string()) s->error = j["error"];
      if (!s->ok && s->error.empty()) s->error = "failed (no reason given)";
    } else {
      ++r.garbage_lines;
    }
  }
  return r;
}

std::map<std::string, std::string> check_env(const std::string& python, const std::string& home,
                                             const std::string& pythonpath,
                                             const std::map<std::string, std::string>* from) {
  std::map<std::string, std::string> env;
  std::string dir =
      python.find('/') == std::string::npos ? "" : python.substr(0, python.rfind('/'));
  env["PATH"] = (dir.empty() ? "" : dir + ":") + "/usr/local/bin:/usr/bin:/bin";
  env["HOME"] = home;
  env["LANG"] = "C.UTF-8";
  env["LC_ALL"] = "C.UTF-8";
  env["PYTHONNOUSERSITE"] = "1";
  env["PYTHONDONTWRITEBYTECODE"] = "1";
  env["PYTHONIOENCODING"] = "utf-8";
  // Python 3.11+ puts neither the cwd nor a script's directory first on sys.path, so a wheel's
  // top-level `tests` is not shadowed by the caller's; older ones get a neutral cwd (the spawns').
  env["PYTHONSAFEPATH"] = "1";
  if (!pythonpath.empty()) env["PYTHONPATH"] = pythonpath;
  for (const char* k : {"LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "TMPDIR"}) {
    if (from) {
      if (auto it = from->find(k); it != from->end()) env[k] = it->second;
    } else if (const char* v = std::getenv(k)) {
      env[k] = v;
    }
  }
  return env;
}

std::string neutral_cwd(const std::map<std::string, std::string>& env) {
  auto it = env.find("HOME");
  return it == env.end() ? "" : it->second;
}

util::RunOptions pip_run_options(const std::string& python, const std::string& home, std::chrono::milliseconds timeout) {
  util::RunOptions ro;
  ro.timeout = timeout;
  ro.env = check_env(python, home, "");
  ro.cwd = neutral_cwd(*ro.env);
  (*ro.env)["PIP_CONFIG_FILE"] = "/dev/null";
  (*ro.env)["PIP_NO_INPUT"] = "1";
  (*ro.env)["PIP_DISABLE_PIP_VERSION_CHECK"] = "1";
  return ro;
}

ScriptRun run_check_script(const std::string& python, const nlohmann::json& args,
                           const std::map<std::string, std::string>& env,
                           std::chrono::milliseconds timeout) {
  util::RunOptions o;
  o.timeout = timeout;
  o.env = env;
  o.cwd = neutral_cwd(env);
  o.max_output = 4 << 20;
  util::RunResult proc = util::run({python, "-c", std::string(python_check_script()), args.dump()}, o);
  ScriptRun r = parse_script_output(proc.out);
  r.proc = std::move(proc);
  r.timeout = timeout;
  return r;
}

}  // namespace ts::verify
