// USE_*/BUILD_* features: defaults from build.toml, --with/--without, redistributable packages,
// then dependencies (a feature whose need is off is off, as PyTorch's cmake_dependent_option does).
#include <algorithm>

#include "plan/resolve_ctx.h"

namespace ts::plan::detail {

namespace {

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

std::string names(const BuildKb& b) {
  std::string s;
  for (const auto& f : b.features) s += (s.empty() ? "" : ", ") + f.name;
  return s;
}

}  // namespace

void choose_features(Ctx& c) {
  const auto& spec = c.spec();
  const auto& b = c.in->build;
  auto avail = b.features_for(c.torch_version());
  std::map<std::string, std::string> why;
  for (const auto* f : avail) {
    c.p.features[f->name] = f->default_on;
    why[f->name] = "default";
  }
  for (const auto* list : {&spec.with, &spec.without}) {
    bool on = list == &spec.with;
    for (const auto& n : *list) {
      const Feature* f = b.feature(n);
      if (!f) {
        c.out.bad_spec = std::string(on ? "--with" : "--without") + ": '" + n + "' is not a feature (known: " +
                         names(b) + ")";
        return;
      }
      if (!c.p.features.count(n)) {
        if (on)
          c.conflict("--with " + n, "torch " + c.version() + " has no " + f->option + " (it exists in torch " +
                     f->torch.original() + ")", {"drop --with " + n}, cite(f->source, f->origin));
        continue;
      }
      c.p.features[n] = on;
      why[n] = "asked (" + spec.origin_of(on ? "with" : "without") + ")";
    }
  }
  // A package for other machines gets what official builds use: static cuDNN and NCCL.
  c.redistributable = spec.wants("conda") || spec.arch == "portable";
  if (c.redistributable)
    for (const char* n : {"static-cudnn", "static-nccl"})
      if (c.p.features.count(n) && why[n] == "default") {
        c.p.features[n] = true;
        why[n] = std::string("a redistributable package (") + (spec.wants("conda") ? "conda" : "--arch portable") +
                 ") links it statically, as the official builds do, so it runs without a matching system library";
      }
  // Tegra's integrated GPU: features that do not work there (tegra.toml [[feature_off]]).
  std::map<std::string, std::string> tegra_src;
  if (c.facts().jetson.present)
    for (const auto& off : c.in->kb.tegra_features_off) {
      if (!c.p.features.count(off.feature) || !c.p.features[off.feature]) continue;
      if (has(spec.with, off.feature)) {
        c.conflict("--with " + off.feature + " on " + (c.facts().jetson.soc.empty() ? "Jetson" : c.facts().jetson.soc),
                   off.reason, {"drop --with " + off.feature}, cite(off.source, off.origin));
        continue;
      }
      c.p.features[off.feature] = false;
      why[off.feature] = "off on Jetson/Tegra: " + off.reason;
      tegra_src[off.feature] = cite(off.source, off.origin);
    }
  // Needs: repeat until nothing changes (chains such as static-nccl -> nccl -> distributed).
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto* f : avail) {
      if (!c.p.features[f->name]) continue;
      for (const auto& need : f->needs) {
        if (!c.p.features.count(need) || c.p.features[need]) continue;
        c.p.features[f->name] = false;
        changed = true;
        if (has(spec.with, f->name))
          c.conflict("--with " + f->name, f->name + " needs " + need + ", which is off",
                     {"drop --without " + need, "or drop --with " + f->name}, cite(f->source, f->origin));
        why[f->name] = "off because it needs " + need + " (" + why[need] + ")";
        break;
      }
    }
  }
  c.cuda_on = c.p.features.count("cuda") && c.p.features["cuda"];
  for (const auto* f : avail) {
    bool on = c.p.features[f->name];
    std::string v = on ? "1" : "0";
    c.p.cmake_options[f->option] = on ? "ON" : "OFF";
    std::string reason = why[f->name];
    if (f->name == "test" && !on && reason == "default")
      reason = "tests are off unless asked (--with test): they double the build, and BUILD_TEST=OFF cured a build's "
               "'nvcc fatal : Unknown option -Wno-unused-variable'";
    if (f->name == "split-cuda" && on && reason == "default")
      reason = "torch " + c.release->version.original() + " still has BUILD_SPLIT_CUDA and official wheels set it: "
               "libtorch_cuda_cu.so and libtorch_cuda_cpp.so as in the official wheels";
    c.decide("feature", f->option + "=" + v, f->name + ": " + reason,
             tegra_src.count(f->name) ? tegra_src[f->name] : cite(f->source, f->origin));
  }
}

}  // namespace ts::plan::detail
