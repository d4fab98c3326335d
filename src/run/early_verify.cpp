#include "run/early_verify.h"

#include <filesystem>

#include "run/step_kind.h"
#include "verify/early_check.h"

namespace ts::run {

std::optional<EarlyVerifyRequest> early_verify_request(const plan::Plan& plan) {
  if (plan.import_name.empty()) return std::nullopt;
  for (const auto& st : plan.steps) {
    const auto& a = st.argv;
    if (step_kind(st.name) != StepKind::verify || a.size() < 3 || !runs_kind_command(StepKind::verify, a)) continue;
    EarlyVerifyRequest r;
    bool wheel = false;
    for (std::size_t i = 2; i < a.size(); ++i) {
      if (a[i] == "--python" && i + 1 < a.size()) r.python = a[++i];
      else if (a[i] == "--gpu") r.gpu = true;
      else if (a[i] == "{wheel}") wheel = true;
    }
    if (wheel && !r.python.empty()) return r;
  }
  return std::nullopt;
}

void EarlyVerify::start(const EarlyVerifyRequest& r, const std::string& dir,
                        const std::map<std::string, std::string>& env) {
  if (started()) return;
  verify::EarlyCheck e{dir, r.python, r.gpu, env};
  // Set up before the thread, so a stop() right after start() finds the directory to release.
  // A failure leaves no early.json: verify then starts its own checker.
  if (!verify::prepare_early_check(e).empty()) return;
  dir_ = dir;
  t_ = std::thread([e] { (void)verify::run_early_check(e); });
}

void EarlyVerify::stop() {
  if (!started()) return;
  verify::release_early_check(dir_);
  t_.join();
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

}  // namespace ts::run
