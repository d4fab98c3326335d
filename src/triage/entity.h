#pragma once
// Reasoning on the entity a failure names (issue 36): the root cause's evidence is read for the
// header, module or GPU arch it names, and the entity tables (entity_table.h) decide what that
// means. A missing header names what provides it and the way to get it (and, when the log's
// wording reached only the generic reading, the signature of that cause); `No module named X` is
// read by phase (during a package's build step: its isolated build environment lacks X; at import:
// X is not installed in the interpreter that ran); an arch in a Triton compile names the first
// Triton release that knows it; a PTX ISA ptxas refused names the CUDA release that reads it. Each
// rule says what it read in a note, with the table's source.
#include "triage/diagnosis.h"

namespace ts::triage {

// Rewrites the root cause of `d` (id, cause, fix, notes) by the rules above; `d.log_facts` must
// hold the log's build steps (Scanner::finish calls it after ranking).
void reason_on_entities(const SignatureSet& set, Diagnosis& d);

}  // namespace ts::triage
