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

void Ctx::decide(std::string topic, std::string value, std::string reason, std::string source) {
  p.decisions.push_back({std::move(topic), std::move(value), std::move(reason), std::move(source), false});
}

void Ctx::warn(std::string topic, std::string value, std::string reason, std::string source) {
  p.decisions.push_back({std::move(topic), std::move(value), std::move(reason), std::move(source), true});
}

void Ctx::conflict(std::string what, std::string why, std::vector<std::string> fixes, std::string source) {
  out.conflicts.push_back({std::move(what), std::move(why), std::move(fixes), std::move(source)});
}

void Ctx::set_env(const std::string& name, const std::string& value, const std::string& reason,
                  std::string source) {
  p.env[name] = value;
  if (source.empty())
    if (const EnvVar* e = in.build.env_var(name, version())) source = cite(e->source, e->origin);
  decide("env", name + "=" + value, reason, source);
}

}  // namespace detail

PlanResult resolve(const Inputs& in) {
  PlanResult r;
  r.plan.spec = in.spec;
  r.plan.torch_version = in.spec.version;
  detail::Ctx c(in, r);
  detail::choose_release(c);
  if (!c.release) return r;  // nothing else can be judged without the release's facts
  detail::choose_features(c);
  if (!r.bad_spec.empty()) return r;
  detail::choose_python(c);
  detail::choose_toolkit(c);
  detail::choose_compiler(c);
  detail::choose_cmake(c);
  detail::choose_arches(c);
  if (!r.bad_spec.empty()) return r;
  detail::choose_fixes(c);
  detail::check_arch_fixes(c);
  detail::choose_libraries(c);
  detail::choose_version(c);
  detail::choose_jobs(c);
  detail::choose_steps(c);
  insert_provision_steps(r.plan.steps, c.provision_steps);
  return r;
}

}  // namespace ts::plan
