#pragma once
// Where a build run keeps things, and the placeholders plan steps use for them:
//   {src}   the source tree              {dist}  OUT/dist (packaged artifacts)
//   {lock}  OUT/plan.lock.json           {built_wheel}  the newest wheel in {src}/dist
//   {wheel} the newest wheel in {dist}
// OUT/journal.json records the steps; OUT/runs/<id>/ holds one run's logs and reports.
#include <functional>
#include <string>
#include <vector>

#include "plan/plan.h"

namespace ts::run {

struct RunPaths {
  std::string out, src, dist, lock, journal, run_dir;
  static RunPaths make(const std::string& out_dir, const std::string& src_dir, const std::string& run_id);
};

// The newest *.whl directly in dir ("" when none).
std::string newest_wheel(const std::string& dir);
// argv with every placeholder filled; *missing names one that has no value yet ({wheel} before
// anything was packaged), and the argument is then left as it was.
// newest: how {wheel} and {built_wheel} find the newest wheel in a directory (a run's World).
using NewestWheel = std::function<std::string(const std::string&)>;
std::vector<std::string> expand_placeholders(const std::vector<std::string>& argv, const RunPaths& p,
                                             std::string* missing, const NewestWheel& newest = newest_wheel);
std::string expand_placeholders(const std::string& arg, const RunPaths& p, std::string* missing,
                                const NewestWheel& newest = newest_wheel);

// The build tree a plan configures: the -B DIR of its cmake configure step (relative to that
// step's cwd), else {src}/build (setup.py's). A reconfigure or a clean retry acts on this one.
std::string build_tree(const std::vector<plan::Step>& steps, const RunPaths& p);

}  // namespace ts::run
