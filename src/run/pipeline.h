#pragma once
// run_build: one plan from fetch to report. Each step is spawned with argv and exactly the
// plan's environment (plus TORCHSMITH_RUN, NINJA_STATUS and what remedies or the compile cache
// add); its log goes to the run directory and through live triage; the build step runs under
// the memory governor. Steps are journaled with the hash of their inputs so --resume skips what
// is done; Ctrl-C (the cancel flag) stops cleanly and leaves a resumable state.
#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "plan/build_kb.h"
#include "plan/plan.h"
#include "report/run_record.h"
#include "run/remedy.h"
#include "run/step_runner.h"
#include "run/world.h"
#include "source/port.h"
#include "triage/diagnosis.h"
#include "triage/signature.h"

namespace ts::run {

struct BuildOptions {
  std::string out_dir;    // OUT: journal, dist/, runs/; the source goes to OUT/src when fetched
  std::string self_exe;   // this torchsmith, for the steps that are its own commands
  std::vector<std::string> kb_dirs;  // passed on to those steps as --kb
  // The command's failure signatures and their reader's errors (cli/knowledge.h); null or any
  // error: the build runs without triage and says why.
  const triage::SignatureSet* signatures = nullptr;
  std::vector<std::string> signature_errors;
  bool resume = false;    // skip finished steps whose inputs are unchanged
  bool wait_for_lock = false;
  RetryPolicy retry;
  // Source ports tried once after a failed build of the build's own copy (a fetched tree, an
  // extension's directory copied to OUT/src; never a tree built in place);
  // null: off (--no-port).
  const source::PortSet* ports = nullptr;
  // build.toml, for its [[header_source]] entries (build.header-source, run/header_source.h); null: none.
  const plan::BuildKb* build_kb = nullptr;
  bool stop_on_fatal = true;         // --keep-going-after turns the early stop off
  std::string compile_cache = "auto";
  std::uint64_t mem_budget = 0;      // governor budget (0 = what the machine has)
  bool governor = true;
  ArchList native_arches;            // the GPUs here, for the shorten_arch_list remedy
  // Makes a failed step's diagnosis specific to this machine before a remedy is chosen
  // (triage::specialize with the host facts: names an installed host compiler that fits).
  std::function<void(triage::Diagnosis&)> sharpen;
  // verify's checker starts with the build step (early_verify.h); only with real processes
  bool early_verify = true;
  std::string what;                  // "torch==2.4.1" for messages and the lock holder
  std::vector<std::string> command;  // the command line that started the run (the report's reproduce line)
  std::string torchsmith_version;
  int status_fd = 2;                 // live status line when this is a terminal
  double plain_status_every = 15;    // seconds between status lines when it is not one
  std::function<void(const std::string&)> say;  // progress for people
  const std::atomic<bool>* cancel = nullptr;
  StepRunner* runner = nullptr;      // runs each step; nullptr = ProcessStepRunner (tests give a scripted one)
  // What the run reads, writes, spawns and times (world.h); nullptr = RealWorld over `runner`.
  World* world = nullptr;
};

struct BuildOutcome {
  report::RunRecord record;
  std::string run_dir;
  int exit_code = 0;   // 0 ok, 1 failed, 2 bad input, 130 interrupted
  std::string error;   // could not run at all (lock held, unwritable OUT, ...)
  std::vector<std::string> run_files;  // what the last write of run.json/report.html/trace.json left
};

BuildOutcome run_build(const plan::Plan& plan, const BuildOptions& o);

// The source tree's state for step hashes: HEAD (when a git checkout), and the fix journal.
std::string source_state(World& w, const std::string& src, bool with_fixes);

}  // namespace ts::run
