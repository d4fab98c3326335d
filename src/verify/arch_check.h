#pragma once
// The GPU code a library carries against the arch list a build asked for: a missing SASS arch is a
// failure, unless PTX in the library can be JIT-compiled for it (a warning); arches nobody asked
// for are a note; PTX asked for ("9.0+PTX") and absent is a failure. With only_asked (a plan's
// target-only list) arches beyond it fail: SASS or PTX of a capability not asked for; PTX of an
// asked capability warns; an arch-specific variant of an asked one (sm_90a for 9.0) stays a note.
#include <vector>

#include "core/arch_list.h"
#include "verify/cuda_code.h"
#include "verify/verdict.h"

namespace ts::verify {

// Verdicts for one library (check "cuda arches"), file set to `file`.
std::vector<Verdict> check_arches(const CudaCode& code, const ArchList& asked, const std::string& file,
                                  bool only_asked = false);

}  // namespace ts::verify
