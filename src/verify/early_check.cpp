#include "verify/early_check.h"

#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <thread>

#include "util/fs.h"
#include "verify/install_wheel.h"

namespace ts::verify {
namespace fs = std::filesystem;

namespace {
std::string go_file(const std::string& dir) { return dir + "/go.json"; }
std::string result_file(const std::string& dir) { return dir + "/result.json"; }
std::string early_file(const std::string& dir) { return dir + "/early.json"; }
std::string install_dir(const std::string& dir) { return dir + "/install"; }
}  // namespace

std::string prepare_early_check(const EarlyCheck& e) {
  std::error_code ec;
  fs::remove_all(e.dir, ec);  // an earlier run's scratch: the target must start empty
  const std::string site = target_site(install_dir(e.dir));
  fs::create_directories(site, ec);
  if (ec) return "cannot create " + site + ": " + ec.message();
  fs::create_directories(e.dir + "/home", ec);
  if (ec) return "cannot create " + e.dir + "/home: " + ec.message();
  return util::write_file_atomic(early_file(e.dir), nlohmann::json{{"python", e.python}, {"gpu", e.gpu}}.dump());
}

std::string run_early_check(const EarlyCheck& e) {
  const std::string site = target_site(install_dir(e.dir));
  nlohmann::json a = {{"gpu", e.gpu}, {"go_file", go_file(e.dir)}, {"go_after", site},
                      {"parent_pid", static_cast<long long>(getpid())}};
  // No limit of its own while it waits (a build may take hours): it watches its parent, and the
  // go file carries verify's deadline.
  ScriptRun r = run_check_script(e.python, a, check_env(e.python, e.dir + "/home", site, &e.env),
                                 std::chrono::hours(24 * 7));
  const auto& p = r.proc;
  nlohmann::json j = {{"out", p.out},       {"err", p.err},           {"exit_code", p.exit_code},
                      {"signal", p.signal}, {"timed_out", p.timed_out}, {"not_found", p.not_found},
                      {"truncated", p.truncated}, {"error", p.error}};
  return util::write_file_atomic(result_file(e.dir), j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

void release_early_check(const std::string& dir) {
  std::error_code ec;
  if (!fs::exists(go_file(dir), ec)) (void)util::write_file_atomic(go_file(dir), R"({"go": false})");
}

bool early_check_usable(const std::string& dir, const std::string& python, bool gpu) {
  std::error_code ec;
  if (dir.empty() || fs::exists(go_file(dir), ec) || fs::exists(result_file(dir), ec)) return false;
  auto t = util::read_file(early_file(dir));
  if (!t) return false;
  auto j = nlohmann::json::parse(*t, nullptr, false);
  return j.is_object() && j.value("python", "") == python && j.value("gpu", !gpu) == gpu;
}

std::string early_go(const std::string& dir, const nlohmann::json& args, const std::vector<std::string>& path,
                     std::chrono::milliseconds timeout) {
  long long deadline = std::max<long long>(1, (timeout.count() + 999) / 1000);
  return util::write_file_atomic(go_file(dir),
                                 nlohmann::json{{"go", true}, {"args", args}, {"path", path}, {"deadline", deadline}}.dump());
}

ScriptRun wait_early_check(const std::string& dir, std::chrono::milliseconds timeout) {
  const auto until = std::chrono::steady_clock::now() + timeout + std::chrono::seconds(10);
  std::error_code ec;
  while (!fs::exists(result_file(dir), ec) && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ScriptRun r;
  auto t = util::read_file(result_file(dir));
  auto j = t ? nlohmann::json::parse(*t, nullptr, false) : nlohmann::json();
  if (!j.is_object()) {
    r.proc.timed_out = true;
    r.timeout = timeout;
    return r;
  }
  r = parse_script_output(j.value("out", ""));
  r.proc.out = j.value("out", "");
  r.proc.err = j.value("err", "");
  r.proc.exit_code = j.value("exit_code", -1);
  r.proc.signal = j.value("signal", 0);
  r.proc.timed_out = j.value("timed_out", false);
  r.proc.not_found = j.value("not_found", false);
  r.proc.truncated = j.value("truncated", false);
  r.proc.error = j.value("error", "");
  if (r.proc.signal == SIGALRM) {  // the go file's deadline: verify's --timeout
    r.proc.timed_out = true;
    r.proc.signal = SIGKILL;
  }
  r.timeout = timeout;
  return r;
}

}  // namespace ts::verify
