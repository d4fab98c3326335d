// Text output: the summary people read first, and --explain with every decision.
#include <sstream>

#include "plan/render.h"
#include "util/split.h"

namespace ts::plan {

namespace {

// One line, and long upstream citations cut (the JSON keeps them whole), keeping the KB's file:line.
std::string line(std::string s, std::size_t max = 0) {
  for (auto& ch : s)
    if (ch == '\n') ch = ' ';
  if (!max || s.size() <= max) return s;
  std::string tail;
  if (s.back() == ')') {
    auto open = s.rfind(" (");
    if (open != std::string::npos && s.find(".toml:", open) != std::string::npos) tail = s.substr(open);
  }
  return s.substr(0, max - tail.size()) + "..." + tail;
}

}  // namespace

std::string render_conflicts(const std::vector<Conflict>& cs, bool with_rules) {
  std::ostringstream o;
  for (const auto& c : cs) {
    o << "conflict: " << line(c.what) << (with_rules && !c.rule.empty() ? " [" + c.rule + "]" : "") << "\n  why: " << line(c.why) << "\n";
    for (const auto& f : c.fixes) o << "  fix: " << line(f) << "\n";
    if (!c.source.empty()) o << "  source: " << line(c.source, 160) << "\n";
  }
  return o.str();
}

std::string render_scale_lines(const Plan& p) {
  std::ostringstream o;
  if (!p.scale.cache_engine.empty()) o << "  shared cache: " << p.scale.cache_engine << " with " << p.scale.cache_store << "\n";
  if (!p.scale.distribute.empty())
    o << "  distributed: " << p.scale.distribute << " on " << (p.scale.hosts.empty() ? "no host" : p.scale.hosts) << " ("
      << p.scale.remote_slots << " remote slots + " << p.scale.local_jobs << " local), nvcc " << p.scale.nvcc << "\n";
  return o.str();
}

std::string render_summary(const PlanResult& r) {
  std::ostringstream o;
  if (!r.bad_spec.empty()) return "bad spec: " + r.bad_spec + "\n";
  const Plan& p = r.plan;
  if (!r.ok()) {
    o << "torch " << p.torch_version << ": " << r.conflicts.size() << " conflict" << (r.conflicts.size() > 1 ? "s" : "")
      << ", no plan\n"
      << render_conflicts(r.conflicts);
    return o.str();
  }
  o << "torch " << p.build_version << " from " << (p.source_dir.empty() ? p.source_url + "@" + p.source_ref : p.source_dir)
    << "\n";
  if (p.cuda.is_chosen()) o << "  CUDA " << p.cuda.text() << " (" << p.cuda_home << "), arches " << p.arch_list.torch_cuda_arch_list() << "\n";
  o << "  Python " << p.python_version << " (" << p.python << "), " << p.host_compiler << ", MAX_JOBS=" << p.jobs << "\n";
  o << render_scale_lines(p);
  if (!p.fixes.empty()) {
    o << "  fixes:";
    for (const auto& f : p.fixes) o << " " << f.id;
    o << "\n";
  }
  for (const auto& a : p.artifacts)
    if (a.kind != "library") o << "  -> " << (a.name.empty() ? a.pattern : a.name) << "\n";
  int warnings = 0;
  for (const auto& d : p.decisions) warnings += d.warning;
  o << "  " << p.decisions.size() << " decisions"
    << (warnings ? ", " + std::to_string(warnings) + (warnings == 1 ? " warning" : " warnings") : "")
    << " (--explain shows each and why)\n";
  for (const auto& d : p.decisions)
    if (d.warning) o << "  warning: " << d.topic << ": " << line(d.value) << ": " << line(d.reason) << "\n";
  return o.str();
}

std::string render_explain(const PlanResult& r) {
  std::ostringstream o;
  if (!r.bad_spec.empty()) return "bad spec: " + r.bad_spec + "\n";
  const Plan& p = r.plan;
  o << "plan: torch==" << p.torch_version << (r.ok() ? "" : " (NOT buildable: conflicts below)") << "\n";
  o << "\ndecisions:\n";
  for (const auto& d : p.decisions) {
    o << (d.warning ? "! " : "- ") << d.topic << ": " << line(d.value) << (d.rule.empty() ? "" : " [" + d.rule + "]") << "\n";
    o << "    why: " << line(d.reason) << "\n";
    if (!d.source.empty()) o << "    source: " << line(d.source, 160) << "\n";
  }
  if (!r.conflicts.empty()) o << "\nconflicts:\n" << render_conflicts(r.conflicts, true);
  if (!r.ok()) return o.str();
  o << "\nenv:\n";
  for (const auto& [k, v] : p.env) o << "  " << k << "=" << v << "\n";
  o << "\ncmake options:\n";
  for (const auto& [k, v] : p.cmake_options) o << "  -D" << k << "=" << v << "\n";
  o << "\nfixes:\n";
  for (const auto& f : p.fixes) o << "  " << f.id << " (" << f.hash.substr(0, 12) << ")\n";
  o << "\nsteps:\n";
  for (const auto& s : p.steps) {
    o << "  " << s.name << ": " << (s.cwd.empty() ? "" : "(in " + s.cwd + ") ") << util::join(s.argv, " ") << "\n";
    if (!s.note.empty()) o << "    " << s.note << "\n";
  }
  o << "\nartifacts:\n";
  for (const auto& a : p.artifacts)
    o << "  " << a.kind << ": " << (a.name.empty() ? a.pattern : a.name)
      << (a.pattern.empty() || a.name.empty() ? "" : "  (matches " + a.pattern + ")") << "\n";
  return o.str();
}

}  // namespace ts::plan
