#include "run/artifacts.h"

#include <algorithm>
#include <filesystem>

#include "core/torch_tag.h"
#include "report/command_line.h"

namespace ts::run {
namespace fs = std::filesystem;

namespace {

bool ends_with(const std::string& s, std::string_view tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

std::string install_line(const std::string& path, const std::string& python) {
  if (ends_with(path, ".whl"))
    return report::shell_line({python.empty() ? "python3" : python, "-m", "pip", "install", path});
  if (ends_with(path, ".tar.bz2") || ends_with(path, ".conda")) return report::shell_line({"conda", "install", path});
  return "";
}

std::vector<report::ArtifactFile> collect_artifacts(const std::string& out_dir, const std::string& dist_dir,
                                                    const plan::Plan& plan) {
  RealWorld disk;
  return collect_artifacts(disk, out_dir, dist_dir, plan);
}

std::vector<report::ArtifactFile> collect_artifacts(World& w, const std::string& out_dir, const std::string& dist_dir,
                                                    const plan::Plan& plan) {
  std::vector<report::ArtifactFile> out;
  for (const auto& name : w.list(dist_dir, true)) {
    report::ArtifactFile a;
    a.path = dist_dir + "/" + name;
    a.file = fs::path(a.path).lexically_relative(out_dir).string();
    if (auto sum = w.sum(a.path)) a.size = sum->size, a.sha256 = sum->sha256;
    a.install = install_line(a.path, plan.python);
    // name-version-...: the torch its local version names (+pt113cpu).
    auto d1 = name.find('-'), d2 = d1 == std::string::npos ? d1 : name.find('-', d1 + 1);
    if (d2 != std::string::npos)
      if (auto t = parse_torch_tag(name.substr(d1 + 1, d2 - d1 - 1)))
        a.torch = "torch " + t->torch() + (t->cuda.empty() ? " (CPU)" : " (CUDA " + t->cuda_dotted() + ")");
    out.push_back(std::move(a));
  }
  std::sort(out.begin(), out.end(), [](const auto& x, const auto& y) { return x.file < y.file; });
  return out;
}

}  // namespace ts::run
