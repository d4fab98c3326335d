#pragma once
// A built wheel (torch itself or an extension) turned into conda packages, laid out as conda
// installs them: files under lib/pythonX.Y/site-packages (scripts in bin/), and info/ with
// index.json, paths.json, files, about.json (and has_prefix for scripts). Both formats: .tar.bz2
// and .conda v2 (an uncompressed zip of metadata.json, info-<dist>.tar.zst, pkg-<dist>.tar.zst).
// Deterministic: sorted members, one fixed mtime, uid/gid 0; every output written atomically.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "plan/build_kb.h"
#include "plan/plan.h"

namespace ts::package {

struct CondaOptions {
  std::string out_dir = ".";  // packages go to out_dir/<subdir>/ (a channel layout)
  std::vector<std::string> formats{"tar.bz2"};  // "tar.bz2" and/or "conda"
  std::optional<int> build_number;              // default: the plan's conda artifact, else 0
  std::vector<std::string> depends;             // extra match specs, after the derived ones
  const plan::Plan* plan = nullptr;             // Python, CUDA, cuDNN, NumPy and the conda name
  std::string name;                 // conda package name (default: plan, else the wheel's)
  std::string python;               // "3.11": needed for a pure-Python wheel without a plan
  std::string cuda, cudnn;          // for the build string when there is no plan
  std::vector<plan::Rpath> rpaths;  // [[rpath]] package = "conda" rules (build.toml)
  std::string patchelf;             // program for the rpaths ("" = patchelf on PATH)
  std::int64_t timestamp = -1;      // seconds; -1 = $SOURCE_DATE_EPOCH, else the wheel's mtime
  bool wheel_depends = true;        // translate the wheel's Requires-Dist (no markers)
};

struct CondaResult {
  int exit_code = 0;                 // 0 ok, 1 the work failed (patchelf, disk), 2 bad input
  std::string error;                 // the first problem, naming the file and the way out
  std::vector<std::string> outputs;  // written packages
  nlohmann::json index;              // info/index.json as written
  std::vector<std::string> notes;    // RPATHs set, requirements not translated, ...
};

CondaResult make_conda_packages(const std::string& wheel_path, const CondaOptions& o);

}  // namespace ts::package
