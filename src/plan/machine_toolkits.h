#pragma once
// Toolkit facts of the real machine's toolkits (probe/toolkit_facts.h), in the KB's shape, for
// doctor, the planner (plan/request.h) and kb refresh. Only for the real root: a fixture root's nvcc is not run.
#include <string>
#include <vector>

#include "core/host_facts.h"
#include "kb/toolkit_read.h"
#include "probe/toolkit_facts.h"

namespace ts::plan {

kb::ReadToolkit to_read_toolkit(const probe::ToolkitFacts& f);

// Every toolkit of `facts` that has an nvcc, read (cached per nvcc hash).
std::vector<kb::ReadToolkit> toolkits_read(const HostFacts& facts);

// The toolkits under the usual places of this machine (/usr/local/cuda*, CUDA_HOME, PATH), read.
std::vector<kb::ReadToolkit> machine_toolkits_read();

}  // namespace ts::plan
