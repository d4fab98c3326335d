// The one step table: every kind of plan runs it, each kind the rows that name it, in this order.
#include "plan/steps.h"

#include "plan/build_remedies.h"
#include "plan/extension_internal.h"
#include "plan/resolve_ctx.h"

namespace ts::plan::steps {

namespace {

using core::kEveryKind;
using core::kExtensionBuild;
using core::kTorchBuild;
using core::PlanStep;

bool no_release(const Ctx& c) { return !c.release; }  // nothing else can be judged without its facts
bool no_torch(const Ctx& c) { return !c.python || !c.python->torch.present; }
bool bad_spec(const Ctx& c) { return !c.out.bad_spec.empty(); }

// The steps in dependency order, each under its own rule id, which its decisions and conflicts
// carry; conflicts are gathered, not thrown. A step whose answer the rest needs stops the run when
// it has none. Each kind sees its rows in this order (decisions, conflicts and locks follow it).
constexpr PlanStep kSteps[] = {
    {"plan.release", detail::choose_release, kTorchBuild, nullptr, no_release},
    {"plan.features", detail::choose_features, kTorchBuild, nullptr, bad_spec},
    {"plan.python", detail::choose_python, kTorchBuild},
    {"plan.torch", ext::choose_torch, kExtensionBuild, nullptr, no_torch},
    {"plan.toolkit", choose_toolkit, kEveryKind},
    {"plan.compiler", choose_compiler, kEveryKind},
    {"plan.cmake", detail::choose_cmake, kTorchBuild},
    {"plan.arches", choose_arches, kEveryKind, nullptr, bad_spec},
    {"plan.env", ext::choose_env_and_abi, kExtensionBuild},
    {"plan.fixes", choose_fixes, kEveryKind},
    {"plan.arch_fixes", detail::check_arch_fixes, kTorchBuild},
    {"plan.remedies", ext::choose_build_remedies, kExtensionBuild},
    {"plan.search_paths", core::keep_search_paths, kEveryKind},
    {"plan.plain_version", ext::choose_plain_version, kExtensionBuild},
    {"plan.libraries", detail::choose_libraries, kTorchBuild},
    {"plan.version", detail::choose_version, kTorchBuild},
    {"plan.scale", core::scale_step, kEveryKind},
    {"plan.jobs", choose_jobs, kEveryKind},
    {"plan.split_compile", ext::choose_nvcc_split, kExtensionBuild},
    {"plan.steps", choose_steps, kEveryKind},
    {"plan.ninja", ext::choose_ninja, kExtensionBuild},
    {"plan.parallel", ext::choose_parallel_extensions, kExtensionBuild},
};

}  // namespace

void run(Ctx& c) { core::run(c, kSteps); }

std::span<const core::PlanStep> table() { return kSteps; }

}  // namespace ts::plan::steps
