#include "plan/speed_arches.h"

#include "core/version.h"

namespace ts::plan {

bool fix_sets_arches(const source::Fix& fix) {
  for (const auto& e : fix.edits)
    if (e.templated && e.text.find("{{arch_list}}") != std::string::npos) return true;
  return false;
}

namespace {

// "causal-conv1d-arches: 1.0.0 to 1.6.1" for each fix of the package that sets arches.
std::string covering_fixes(const source::FixSet* all, const std::string& package) {
  std::string out;
  if (!all) return out;
  for (const auto& f : all->fixes) {
    if (f.when.package != package || !fix_sets_arches(f)) continue;
    out += (out.empty() ? "" : ", ") + f.id + ": " +
           (f.when.version ? f.when.version->describe() : std::string("any version"));
  }
  return out;
}

}  // namespace

std::optional<ArchSteering> arch_steering(const Recipe& recipe, const std::string& recipe_source,
                                          const FactVersion& version, const ArchList& arches,
                                          const std::vector<const source::Fix*>& chosen,
                                          const source::FixSet* all) {
  if (arches.empty()) return std::nullopt;
  const std::string list = arches.torch_cuda_arch_list();
  std::string ids, src;
  for (const auto* f : chosen) {
    if (!fix_sets_arches(*f)) continue;
    ids += (ids.empty() ? "" : ", ") + f->id;
    src += (src.empty() ? "" : "; ") + f->source;
  }
  const std::string own = recipe.name + "'s build passes its own -gencode list to nvcc";
  // Its knob carries the arches (choose_env), from the version that reads it on.
  std::string knob_from;
  const auto& since = recipe.arch_env_since;  // parsed when the recipe loaded
  const auto& v = version.parsed();
  if (!recipe.arch_env.empty() && since)
    knob_from = "; " + recipe.arch_env + " is read only from " + since->original() + " on";
  if (!ids.empty()) {
    return ArchSteering{list + " (through fix " + ids + ")",
                        own + (recipe.arch_env.empty() ? " and has no arch knob" : knob_from) + "; fix " + ids +
                            " puts the plan's arches in its place, so only these are compiled",
                        src, false};
  }
  if (!recipe.arch_env.empty()) {
    if (!since) return std::nullopt;
    if (v && *v >= *since) return std::nullopt;
    if (!v) {
      return ArchSteering{list + " (if it reads " + recipe.arch_env + ")",
                          recipe.name + " reads " + recipe.arch_env + " only from " + since->original() +
                              " on and the version being built is not known: an older tree compiles its own "
                              "-gencode list, which verify --plan then reports; way out: ask for " +
                              recipe.name + "==VERSION",
                          recipe_source, true};
    }
  }
  std::string covered = covering_fixes(all, recipe.name);
  std::string which = version.empty()
                          ? "the version being built is not known"
                          : recipe.name + " " + version + " is not among the versions checked";
  std::string why =
      own + (knob_from.empty() ? " and has no arch knob" : knob_from) + ": the build compiles that list, not " + list +
      ", and verify --plan reports the arches it adds. No fix steers it: " +
      (covered.empty() ? "none in the knowledge base does" : which + " (" + covered + ")");
  std::vector<std::string> ways;
  if (!covered.empty())
    ways.push_back("ask for " + recipe.name + "==VERSION with a version a fix covers");
  ways.push_back(
      "add a fix for its setup.py's -gencode list under fixes/ in a --kb overlay "
      "(data/kb/fixes/README.md)");
  std::string way;
  for (const auto& w : ways) way += (way.empty() ? "" : ", or ") + w;
  return ArchSteering{list + " (not steered)", why + "; way out: " + way, recipe_source, true};
}

}  // namespace ts::plan
