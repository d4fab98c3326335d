// resolve(): runs the parts in dependency order; each records decisions or conflicts on the Ctx.
#include "plan/resolve.h"

#include "compat/facts_util.h"
#include "plan/provision_choice.h"
#include "plan/resolve_ctx.h"

namespace ts::plan {

namespace detail {

std::optional<Version> ver(std::string_view s) { return compat::ver(s); }
std::string cite(const std::string& source, const kb::Origin& o) { return compat::cite(source, o); }

std::string dir_of(const std::string& path) {
  auto s = path.rfind('/');
  if (s == std::string::npos) return "";
  return s == 0 ? "/" : path.substr(0, s);
}

std::string Ctx::cuda_mm() const {
  if (!toolkit) return "";
  auto v = ver(toolkit->version);
  return v ? v->major_minor() : toolkit->version;
}

void Ctx::set_env(const std::string& name, const std::string& value, const std::string& reason,
                  std::string source, std::string rule) {
  p.env[name] = value;
  if (source.empty())
    if (const EnvVar* e = in.build.env_var(name, version())) source = cite(e->source, e->origin);
  decide("env", name + "=" + value, reason, source, std::move(rule));
}

}  // namespace detail

namespace {

// The steps in dependency order, each under its own rule id, which its decisions and conflicts
// carry. A step whose answer the rest needs stops the run when it has none.
void run_steps(detail::Ctx& c) {
  const PlanResult& r = c.out;
  auto step = [&c](const char* rule, void (*part)(detail::Ctx&)) {
    c.rule = rule;
    part(c);
  };
  step("plan.release", detail::choose_release);
  if (!c.release) return;  // nothing else can be judged without the release's facts
  step("plan.features", detail::choose_features);
  if (!r.bad_spec.empty()) return;
  step("plan.python", detail::choose_python);
  step("plan.toolkit", detail::choose_toolkit);
  step("plan.compiler", detail::choose_compiler);
  step("plan.cmake", detail::choose_cmake);
  step("plan.arches", detail::choose_arches);
  if (!r.bad_spec.empty()) return;
  step("plan.fixes", detail::choose_fixes);
  step("plan.arch_fixes", detail::check_arch_fixes);
  step("plan.libraries", detail::choose_libraries);
  step("plan.version", detail::choose_version);
  step("plan.jobs", detail::choose_jobs);
  step("plan.steps", detail::choose_steps);
  insert_provision_steps(c.p.steps, c.provision_steps);
}

}  // namespace

PlanResult resolve(const Inputs& in) {
  PlanResult r;
  r.plan.spec = in.spec;
  r.plan.torch_version = in.spec.version;
  detail::Ctx c(in, r);
  run_steps(c);
  c.move_into(r);
  return r;
}

}  // namespace ts::plan
