// Text and sh output for an extension plan, headed by the package (the torch renderers' bodies reused).
#include <sstream>

#include "plan/extension.h"
#include "plan/render.h"
#include "util/printable.h"

namespace ts::plan {

namespace {

std::string what(const Plan& p) {
  std::string v = p.spec.version.empty() ? "" : "==" + p.spec.version;
  return p.spec.package + v + " against torch " + p.torch_version;
}

std::string after_first_line(const std::string& s) {
  auto nl = s.find('\n');
  return nl == std::string::npos ? "" : s.substr(nl + 1);
}

}  // namespace

std::string render_extension_summary(const PlanResult& r) {
  if (!r.bad_spec.empty()) return "bad spec: " + r.bad_spec + "\n";
  const Plan& p = r.plan;
  std::ostringstream o;
  if (!r.ok()) {
    o << what(p) << ": " << r.conflicts.size() << " conflict" << (r.conflicts.size() > 1 ? "s" : "")
      << ", no plan\n"
      << render_conflicts(r.conflicts);
    return o.str();
  }
  o << what(p) << " from " << (p.source_dir.empty() ? p.source_url + "@" + p.source_ref : p.source_dir) << "\n";
  if (p.cuda.is_chosen())
    o << "  CUDA " << p.cuda.text() << " (" << p.cuda_home << "), arches " << p.arch_list.torch_cuda_arch_list()
      << (p.no_device_code ? "; no GPU code (no extension builds a .cu source)" : "") << "\n";
  else o << "  CPU build\n";
  o << "  Python " << p.python_version << " (" << p.python << "), " << p.host_compiler << ", jobs " << p.jobs << "\n";
  if (!p.fixes.empty()) {
    o << "  fixes:";
    for (const auto& f : p.fixes) o << " " << f.id;
    o << "\n";
  }
  // What the plan found in setup.py and repairs in the build (build_remedies.cpp), and its own switches.
  std::string repairs, switches;
  for (const auto& d : p.decisions) {
    if (d.topic == "remedy") repairs += (repairs.empty() ? "" : ", ") + d.value;
    if (d.topic == "switches") switches = d.value;
  }
  if (!repairs.empty()) o << "  repairs: " << repairs << "\n";
  if (!switches.empty()) o << "  its own switches (--env KEY=VALUE): " << switches << "\n";
  if (p.plain_version) o << "  version: as the package writes it, no local label (its Python reads it as a number)\n";
  o << render_scale_lines(p);
  o << "  import " << p.import_name << (p.smoke.empty() ? "" : " + the recipe's smoke op") << "\n";
  // The torch summary's tail: artifacts, the decision count and the warnings.
  std::string tail = render_summary(r);
  auto at = tail.find("  -> ");
  if (at == std::string::npos) at = tail.find("  " + std::to_string(p.decisions.size()) + " decisions");
  if (at != std::string::npos) o << tail.substr(at);
  return o.str();
}

std::string render_extension_explain(const PlanResult& r) {
  if (!r.bad_spec.empty()) return "bad spec: " + r.bad_spec + "\n";
  return "plan: " + what(r.plan) + (r.ok() ? "" : " (NOT buildable: conflicts below)") + "\n" +
         after_first_line(render_explain(r));
}

std::string render_extension_sh(const Plan& p) {
  std::string body = render_sh(p);
  // render_sh names a fetched tree after torch's checkout; an extension's is named after it.
  if (p.source_dir.empty()) {
    std::string from = "  src='pytorch'\n", to = "  src=" + sh_quote(p.import_name) + "\n";
    if (auto at = body.find(from); at != std::string::npos) body.replace(at, from.size(), to);
  }
  return "# torchsmith plan for " + util::printable(what(p)) + "\n" + after_first_line(body);
}

}  // namespace ts::plan
