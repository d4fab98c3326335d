// torchsmith doctor: what this machine has, and what will not work with it.
#include <unistd.h>

#include <stdlib.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/kb_access.h"
#include "plan/machine_toolkits.h"
#include "compat/assess.h"
#include "core/version_range.h"
#include "plan/provision_request.h"
#include "probe/probe.h"
#include "provision/provision.h"
#include "report/doctor_report.h"
#include "scale/farm.h"
#include "util/cache_dir.h"

namespace ts::cli {

namespace {

struct DoctorOptions {
  bool json = false;
  std::string root = "/";
  std::vector<std::string> pythons;
  std::string target;  // "torch==1.12.1"
  bool import_torch = false;
  int python_timeout_s = 15;     // each interpreter's probe (probe::ProbeOptions' default)
  bool no_torch_import = false;  // the old opt-out, now the default: accepted, ignored
  std::string hosts, cache;      // the build farm to check (src/scale/farm.h)
  std::string compiler = "c++";
};

int run_doctor(const GlobalOptions& g, const DoctorOptions& o) {
  compat::Target target;
  if (!o.target.empty()) {
    std::string err;
    auto c = Constraint::parse(o.target, &err);
    auto lo = c ? c->range.min_inclusive() : std::nullopt;
    if (!c || c->name != "torch" || !lo) {
      std::fprintf(stderr, "torchsmith doctor: --for '%s': %s\n", o.target.c_str(),
                   err.empty() ? "expected torch==X.Y[.Z]" : err.c_str());
      return 2;
    }
    target.torch = lo->str();
  }
  std::string root_error = probe::check_root(o.root);
  if (!root_error.empty()) {
    std::fprintf(stderr, "torchsmith doctor: %s\n", root_error.c_str());
    return 2;
  }
  std::string err;
  auto host = probe::Host::at(o.root, &err);
  if (!host) {
    std::fprintf(stderr, "torchsmith doctor: %s\n", err.c_str());
    return 2;
  }
  // An interpreter asked for by name that is not there is a typo to say, not a note in the report.
  for (const auto& p : o.pythons)
    if (!host->exists(p)) {
      std::fprintf(stderr, "torchsmith doctor: --python %s: no such file%s; give the path of a Python interpreter "
                   "(`command -v python3` prints one)\n", p.c_str(), o.root == "/" ? "" : (" under " + o.root).c_str());
      return 2;
    }
  const kb::Kb* known = load_kb(g);
  if (!known) return 2;
  kb::Kb kb = *known;  // this machine's toolkits may replace what it recalls
  probe::ProbeOptions po;
  po.pythons = o.pythons;
  po.import_torch = o.import_torch;
  po.python_timeout = std::chrono::seconds(o.python_timeout_s);
  std::optional<scale::FarmCheck> farm;
  if (!o.hosts.empty() || !o.cache.empty()) {
    std::string path = std::getenv("PATH") ? std::getenv("PATH") : "/usr/bin:/bin";
    const char* tmp = std::getenv("TMPDIR");
    std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/torchsmith-hosts-XXXXXX";
    std::vector<char> buf(templ.begin(), templ.end());
    buf.push_back('\0');
    std::string work = mkdtemp(buf.data()) ? std::string(buf.data()) : "";
    farm = scale::check_farm(o.cache, o.hosts, o.compiler, path, work);
    std::error_code ec;
    if (!work.empty()) std::filesystem::remove_all(work, ec);
    if (!farm->error.empty()) {
      std::fprintf(stderr, "torchsmith doctor: %s\n", farm->error.c_str());
      return 2;
    }
  }
  HostFacts facts = probe::probe(*host, po);
  // On the real machine, each toolkit's own nvcc replaces what the KB only recalls about it.
  std::vector<std::string> read_lines;
  if (o.root == "/") read_lines = kb::adopt_read_toolkits(kb, plan::toolkits_read(facts));
  compat::identify_gpus(facts, kb);
  auto verdicts = compat::assess(facts, kb, target);
  // This machine's provisioned toolkits (torchsmith toolkit list); a --root machine's cache is not ours to read.
  std::vector<provision::Manifest> cached;
  std::string cache;
  if (o.root == "/") {
    cache = util::cache_dir();
    if (!cache.empty()) cached = provision::list_cached(cache);
  }
  if (o.json) {
    auto j = report::doctor_json(facts, verdicts);
    j["toolkit_facts"] = read_lines;
    if (o.root == "/") {
      j["provisioned"] = {{"cache", cache}, {"toolkits", nlohmann::json::array()}};
      for (const auto& m : cached)
        j["provisioned"]["toolkits"].push_back({{"kind", m.kind}, {"version", m.version}, {"provider", m.provider},
                                                {"dir", m.dir}, {"missing", provision::missing_files(m.kind, m.dir)}});
    }
    if (farm) j["farm"] = scale::farm_json(*farm);
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << report::doctor_text(facts, verdicts, report::style_for(STDOUT_FILENO, g.no_color));
    if (farm) std::cout << "\n" << scale::farm_text(*farm);
    if (!read_lines.empty()) {
      std::cout << "\nToolkit facts read from the toolkits (they replace what the KB recalls):\n";
      for (const auto& l : read_lines) std::cout << "  " << l << "\n";
    }
    if (!cached.empty()) {
      std::printf("\nProvisioned by torchsmith (%s; torchsmith toolkit list):\n", cache.c_str());
      for (const auto& m : cached) {
        auto missing = provision::missing_files(m.kind, m.dir);
        std::printf("  %s %s from %s: %s%s\n", m.kind.c_str(), m.version.c_str(),
                    m.provider == "pip" ? "PyPI" : ("the wheelhouse " + m.from).c_str(), m.dir.c_str(),
                    missing.empty() ? "" : ("  DAMAGED: no " + missing.front() + " (toolkit remove, then add)").c_str());
      }
    }
  }
  return 0;  // it ran; what it found is in the report, not the exit code
}

}  // namespace

void register_doctor(CLI::App& app, GlobalOptions& g, int& exit_code) {
  auto [cmd, o] = add_command<DoctorOptions>(
      app, exit_code, [&g](DoctorOptions& x) { return run_doctor(g, x); },
      "doctor",
      "Look at this machine: GPUs (by PCI id, named from the knowledge base), driver, CUDA\n"
      "toolkits, cuDNN/NCCL/MAGMA/MKL, compilers, CMake and tools, every Python with its build\n"
      "packages and torch; then say what works together and what does not, why, and what to do.");
  exit_codes(cmd, "0 it ran, whatever it found (the verdicts say what works); 2 bad input (--for, --root, "
                  "--python, --hosts, or a broken knowledge-base overlay)");
  cmd->add_flag("--json", o->json, "Complete facts and verdicts as JSON (input for plan --facts).");
  cmd->add_option("--root", o->root,
                  "Read the machine under DIR instead of / (a copied or fake root: DIR/proc, "
                  "DIR/sys, DIR/usr/local/cuda*, commands from DIR's bin directories).")
      ->type_name("DIR");
  cmd->add_option("--python", o->pythons, "Also probe this interpreter (repeatable; a path).")
      ->type_name("PATH");
  cmd->add_option("--for", o->target,
                  "The torch release you mean to build, e.g. torch==1.12.1: verdicts then say "
                  "whether CMake, Python and NumPy fit it.")
      ->type_name("SPEC");
  cmd->add_flag("--import-torch", o->import_torch,
                "Import torch in each Python (2-7 s each) instead of reading its installed files.");
  cmd->add_option("--python-timeout", o->python_timeout_s,
                  "Seconds each Python may take to answer the probe (default 15); one that does not answer "
                  "becomes a verdict.")
      ->type_name("SECONDS")
      ->check(CLI::Range(1, 3600));
  cmd->add_flag("--no-torch-import", o->no_torch_import, "The default now; kept for old scripts.")->group("");
  cmd->add_option("--hosts", o->hosts,
                  "Also check these distcc hosts, \"HOST[:PORT][/SLOTS] ...\": reachable, compiler the same as "
                  "here (a probe compile through distcc), slots.")
      ->type_name("LIST");
  cmd->add_option("--cache", o->cache, "Also check this shared cache store (ccache+redis://HOST:PORT, ...).")
      ->type_name("ENGINE+STORE");
  cmd->add_option("--compiler", o->compiler, "The compiler the --hosts probe compares (default c++).")
      ->type_name("CXX");
}

}  // namespace ts::cli
