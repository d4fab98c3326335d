// torchsmith diagnose LOG|- [--json] [--facts FILE] [--probe] [--all]: name a failed build's root
// cause from its log. Exit 0: a known cause; 1: only an unrecognised error (or none found);
// 2: bad input (missing or unreadable log, bad facts file, broken signatures overlay).
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/knowledge.h"
#include "cli/kb_access.h"
#include "probe/probe.h"
#include "report/style.h"
#include "triage/engine.h"
#include "triage/reader.h"
#include "triage/render.h"
#include "triage/specialize.h"

namespace ts::cli {
namespace {

struct DiagnoseOptions {
  std::string log;
  std::string facts_file;
  bool json = false;
  bool all = false;
  bool probe = false;
};

int fail(const std::string& msg) {
  std::fprintf(stderr, "torchsmith diagnose: %s\n", msg.c_str());
  return 2;
}

bool read_facts(const std::string& path, HostFacts& out, std::string& error) {
  std::ifstream in(path);
  if (!in) { error = "--facts " + path + ": cannot open"; return false; }
  try {
    nlohmann::json j = nlohmann::json::parse(in);
    // `torchsmith doctor --json` wraps the facts with its verdicts; a bare HostFacts file works too.
    if (j.is_object() && j.contains("facts") && j["facts"].is_object()) j = j["facts"];
    if (!j.is_object()) throw std::runtime_error("expected a JSON object");
    out = j.get<HostFacts>();
  } catch (const std::exception& e) {
    error = "--facts " + path + ": not a host facts file (" + std::string(e.what()) + ")";
    return false;
  }
  return true;
}

int run(const DiagnoseOptions& o, const GlobalOptions& g) {
  const auto& [set, errors] = g.knowledge().signatures();
  for (const auto& e : errors) std::fprintf(stderr, "torchsmith diagnose: kb: %s\n", e.c_str());
  if (!errors.empty()) return fail("the signatures have errors; fix them (torchsmith kb check lists them)");

  std::optional<HostFacts> facts;
  if (!o.facts_file.empty()) {
    HostFacts f;
    std::string err;
    if (!read_facts(o.facts_file, f, err)) return fail(err);
    facts = std::move(f);
  } else if (o.probe) {
    probe::ProbeOptions po;
    po.import_torch = false;
    po.list_gpu_code = false;
    facts = probe::probe(probe::Host::real(), po);
  }
  const kb::Kb* kb = load_kb(g);
  if (!kb) return fail("the knowledge base has errors");

  std::unique_ptr<triage::Engine> engine;
  try {
    engine = std::make_unique<triage::Engine>(set);
  } catch (const std::exception& e) {
    return fail(e.what());
  }
  triage::Scanner scanner(*engine);
  std::string err;
  if (!triage::scan_file(o.log, scanner, err)) return fail(err);
  triage::Diagnosis d = scanner.finish();
  triage::specialize(d, facts ? &*facts : nullptr, kb);

  if (o.json) {
    std::cout << triage::to_json(d, o.all || g.verbose).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    bool color = report::style_for(STDOUT_FILENO, g.no_color).color;
    std::cout << triage::render_text(d, o.all || g.verbose, color);
  }
  return d.known() ? 0 : 1;
}

}  // namespace

void register_diagnose(CLI::App& app, GlobalOptions& g, int& exit_code) {
  auto [cmd, o] = add_command<DiagnoseOptions>(
      app, exit_code, [&g](DiagnoseOptions& x) { return run(x, g); },
      "diagnose", "Name the root cause of a failed build from its log.");
  cmd->footer(
      "The log may be gzip'd, have CRLF line ends, colour codes or binary junk; '-' reads stdin.\n\n"
      "Exit codes: 0 a known cause was found, 1 only an unrecognised error (or none), 2 bad input.");
  cmd->add_option("log", o->log, "Build log file, or - for stdin")->required()->type_name("LOG|-");
  cmd->add_flag("--json", o->json, "Machine-readable output");
  cmd->add_flag("--all", o->all, "Show every finding, not only the root cause");
  cmd->add_option("--facts", o->facts_file, "Host facts (torchsmith doctor --json) to make fixes specific")
      ->type_name("FILE");
  cmd->add_flag("--probe", o->probe, "Probe this machine for facts (when the log is from here)");
}

}  // namespace ts::cli
