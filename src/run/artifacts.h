#pragma once
// The files a run packaged (OUT/dist), handed over: path, size, sha256, the torch an extension
// wheel needs, and the line that installs each.
#include <string>
#include <vector>

#include "plan/plan.h"
#include "report/run_record.h"
#include "run/world.h"

namespace ts::run {

// A wheel: "PY -m pip install PATH" into the plan's Python (the one whose torch it was built
// against); a conda package: "conda install PATH"; else "".
std::string install_line(const std::string& path, const std::string& python);

// Every regular file directly in dist_dir, sorted by name; `file` relative to out_dir.
std::vector<report::ArtifactFile> collect_artifacts(const std::string& out_dir, const std::string& dist_dir,
                                                    const plan::Plan& plan);
// The same through a run's World (world.h).
std::vector<report::ArtifactFile> collect_artifacts(World& w, const std::string& out_dir, const std::string& dist_dir,
                                                    const plan::Plan& plan);

}  // namespace ts::run
