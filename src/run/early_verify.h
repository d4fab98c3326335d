#pragma once
// The verify step's checker started with the build step (verify/early_check.h): while the build
// compiles, the target Python imports torch (and initialises CUDA for a GPU verify), so when the
// wheel exists verify only installs it and says go. Only for an extension plan whose verify step
// checks the wheel with --python: a torch wheel is checked by the torch it installs.
#include <map>
#include <optional>
#include <string>
#include <thread>

#include "plan/plan.h"

namespace ts::run {

struct EarlyVerifyRequest {
  std::string python;
  bool gpu = false;
};

// What the plan's verify step will ask for, read from its argv; nullopt when nothing to start.
std::optional<EarlyVerifyRequest> early_verify_request(const plan::Plan& plan);

class EarlyVerify {
 public:
  EarlyVerify() = default;
  EarlyVerify(const EarlyVerify&) = delete;
  EarlyVerify& operator=(const EarlyVerify&) = delete;
  ~EarlyVerify() { stop(); }
  // Starts the checker in DIR with the environment verify will get; no-op when started already.
  void start(const EarlyVerifyRequest& r, const std::string& dir, const std::map<std::string, std::string>& env);
  bool started() const { return t_.joinable(); }
  const std::string& dir() const { return dir_; }
  // Tells a checker still waiting to end, waits for it, removes its directory.
  void stop();

 private:
  std::thread t_;
  std::string dir_;
};

}  // namespace ts::run
