#pragma once
// Facts make fixes specific: with the machine's HostFacts (and the KB's compatibility tables), a
// generic "use an older gcc" becomes "gcc-11 is installed at /usr/bin/gcc-11: set CUDAHOSTCXX=...",
// and "fix the arch list" becomes "this GPU is 8.9, the arch list was 8.0;8.6".
#include "core/host_facts.h"
#include "kb/kb.h"
#include "triage/diagnosis.h"

namespace ts::triage {

// Rewrites fix/remedy/notes of the findings it knows how to sharpen; either pointer may be null.
// mem_budget_bytes: the build's --mem-budget (0 = what the host has), as the plan sized its jobs.
void specialize(Diagnosis& d, const HostFacts* facts, const kb::Kb* kb, std::uint64_t mem_budget_bytes = 0);

}  // namespace ts::triage
