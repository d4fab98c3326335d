#include "source/git.h"

#include <filesystem>

#include "util/fs.h"
#include "util/url.h"

namespace ts::source {

util::RunResult run_git(const GitOptions& o, const std::vector<std::string>& args) {
  std::vector<std::string> argv{o.git};
  for (const auto& m : o.mirrors) {
    argv.push_back("-c");
    argv.push_back("url." + m.to + ".insteadOf=" + m.from);
  }
  if (o.allow_file_protocol) {
    argv.push_back("-c");
    argv.push_back("protocol.file.allow=always");
  }
  argv.insert(argv.end(), args.begin(), args.end());
  util::RunOptions ro;
  ro.timeout = o.timeout;
  ro.max_output = std::size_t(64) << 20;
  // Never wait for a password prompt: a private or mistyped URL fails at once with git's message.
  ro.extra_env = {{"GIT_TERMINAL_PROMPT", "0"}, {"GIT_ASKPASS", "true"}, {"LC_ALL", "C"}};
  return util::run(argv, ro);
}

std::string describe_failure(const std::vector<std::string>& args, const util::RunResult& r, const GitOptions& o) {
  std::string cmd = "git";
  for (const auto& a : args) {
    if (a == "-C") continue;
    cmd += " " + a;
    if (cmd.size() > 120) break;
  }
  std::string err = util::trim(r.err);
  if (auto nl = err.rfind('\n'); nl != std::string::npos && err.find("fatal:") != std::string::npos)
    err = err.substr(err.find("fatal:"));  // git's own reason, not its progress
  if (err.size() > 400) err = err.substr(0, 400) + "...";
  // git echoes the URL it was given, credentials and all.
  return util::redact_text(cmd + ": " + r.describe(o.timeout) + (err.empty() ? "" : ": " + err));
}

bool is_local_url(const std::string& url) {
  return url.rfind("file://", 0) == 0 || url.rfind("/", 0) == 0 || url.rfind("./", 0) == 0 || url.rfind("../", 0) == 0;
}

std::string own_head(const std::string& tree, const GitOptions& git) {
  auto head = run_git(git, {"-C", tree, "rev-parse", "--verify", "-q", "HEAD^{commit}"});
  auto top = run_git(git, {"-C", tree, "rev-parse", "--show-toplevel"});
  std::error_code ec;
  if (!head.ok() || !top.ok() || !std::filesystem::equivalent(util::trim(top.out), tree, ec)) return "";
  return util::trim(head.out);
}


}  // namespace ts::source
