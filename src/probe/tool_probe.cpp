// Build tools: the first of each on PATH (what a build would run), with its version.
#include <future>

#include "probe/sections.h"
#include "probe/text.h"
#include "util/fs.h"

namespace ts::probe {
namespace {

struct ToolSpec {
  const char* name;
  const char* version_after;  // where the version starts in `--version` output ("" = anywhere)
};

const ToolSpec kTools[] = {
    {"cmake", "version"}, {"cmake3", "version"}, {"ninja", ""}, {"make", "Make"},
    {"git", "version"}, {"patchelf", ""}, {"ccache", "version"}, {"sccache", ""},
    {"docker", "version"}, {"nvidia-container-cli", "cli-version:"}, {"cuobjdump", ", V"},
};

}  // namespace

std::vector<ToolFacts> probe_tools(const Host& h, const ProbeOptions& o, Notes& notes) {
  struct Job {
    ToolFacts t;
    const char* after;
    std::future<util::RunResult> run;
  };
  std::vector<Job> jobs;
  for (auto& spec : kTools) {
    auto path = h.find_command(spec.name);
    if (path.empty()) continue;
    Job j{ToolFacts{spec.name, path, ""}, spec.version_after, {}};
    j.run = std::async(std::launch::async, [&h, path, &o] { return h.run({path, "--version"}, o.command_timeout); });
    jobs.push_back(std::move(j));
  }
  std::vector<ToolFacts> out;
  for (auto& j : jobs) {
    auto r = j.run.get();
    j.t.version = FactVersion(find_version(r.out + r.err, j.after, 1));
    if (!r.ok() && j.t.version.empty())
      notes.push_back(j.t.path + " --version: " + r.describe(o.command_timeout));
    out.push_back(j.t);
  }
  return out;
}

}  // namespace ts::probe
