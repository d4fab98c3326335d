// make_extension_plan: the target torch, then CUDA on/off, nvcc, compiler, arches (each through the
// contract checks), then env, jobs, steps and artifacts.
#include <algorithm>

#include "compat/facts_util.h"
#include "compat/host_compiler_rule.h"
#include "plan/build_remedies.h"
#include "plan/extension_internal.h"
#include "plan/provision_choice.h"
#include "plan/resolve_ctx.h"
#include "plan/steps.h"

namespace ts::plan {

namespace ext {

namespace {

// The installed toolkit to use: --cuda's, else torch's major.minor, else the newest of its major,
// else the newest (the contract check then says why it cannot be used).
const CudaToolkitFacts* pick_toolkit(const Ctx& c, std::string& why) {
  const auto& tks = c.facts().cuda_toolkits;
  if (c.req->cuda) {
    for (const auto& t : tks)
      if (core::usable_toolkit(t) && t.version.parsed()->major_minor() == c.req->cuda->major_minor()) {
        why = "asked for (--cuda)";
        return &t;
      }
    return nullptr;
  }
  auto tc = c.python->torch.cuda.parsed();
  const CudaToolkitFacts *exact = nullptr, *same_major = nullptr, *newest = nullptr;
  for (const auto& t : tks) {
    if (!core::usable_toolkit(t)) continue;
    auto v = *t.version.parsed();
    if (!newest || v > *newest->version.parsed()) newest = &t;
    if (tc && v.major() == tc->major() && (!same_major || v > *same_major->version.parsed())) same_major = &t;
    if (tc && v.major_minor() == tc->major_minor()) exact = &t;
  }
  if (exact) return why = "the installed toolkit of torch's CUDA " + c.python->torch.cuda, exact;
  if (same_major) return why = "the newest installed toolkit of torch's CUDA major", same_major;
  why = "the only kind installed: none has torch's CUDA major";
  return newest;
}

}  // namespace

// A provisioned toolkit for torch's CUDA (or --cuda's): nvcc points at it and the run's provision
// step makes it exist. False with a conflict when the catalog cannot give a whole one.
bool provision_cuda(Ctx& c, const Version& series, const std::string& why) {
  const ProvisionContext& pc = *c.req->provision;
  const std::string mm = series.major_minor();
  // PyPI where its wheels are whole, else NVIDIA's redistributable archives, else conda (--toolkit narrows it).
  const ToolRelease* rel = provisionable_cuda(pc, {series});
  if (!rel && pc.catalog) rel = pc.catalog->find("cuda", series);  // to say why not
  std::vector<std::string> ways{runfile_advice(mm)};
  if (!c.recipe->cuda_only) ways.push_back("or build the CPU part only: --without cuda");
  // A release of a provider --toolkit did not ask for only says why not: it is never used.
  const auto order = provider_order(pc);
  bool other_provider = rel && std::find(order.begin(), order.end(), rel->via) == order.end();
  if (!rel || other_provider || !rel->complete || pc.cache_root.empty()) {
    std::string reason = !rel ? "provision.toml has no CUDA " + mm + " (add a [[cuda]] entry in a --kb overlay)"
                         : other_provider ? "provision.toml has no CUDA " + mm + " from " + provision_from(pc) +
                                                " (it has one from " + rel->via + ": --toolkit " + rel->via + ")"
                         : !rel->complete ? no_whole_compiler(*rel)
                                          : "no cache directory (no $HOME, no --cache-dir)";
    c.conflict("CUDA " + mm + " for " + torch_label(*c.python), why + "; " + reason, ways,
               rel ? compat::cite(rel->source, rel->origin) : "provision.toml");
    return false;
  }
  core::use_provisioned_toolkit(c, pc, *rel);
  c.decide("cuda", rel->version.original() + " (" + c.provisioned.path + ")",
           why + ": provisioned from " + provision_where(pc, *rel) + " into the cache (" + std::to_string(rel->wheels.size()) +
               (rel->via == "pip" ? " wheels" : rel->via == "redist" ? " archives" : " packages") + ", reused when there)",
           pc.cli_source.empty() ? compat::cite(rel->source, rel->origin) : pc.cli_source);
  return true;
}

// An extension's toolkit: --toolkit as asked, --cuda's, else the installed one of the torch's CUDA
// (of its major, else the newest), provisioned when none of its major is installed; false when
// refused (a conflict says why).
bool pick_toolkit(Ctx& c) {
  std::string why;
  using K = ToolkitChoice::Kind;
  const ProvisionContext* pc = c.req->provision;
  K kind = pc ? pc->choice.kind : K::automatic;
  // --cuda's, else the CUDA torch was built with: compared by major.minor.
  const std::optional<Version> wanted = c.req->cuda ? c.req->cuda : c.python->torch.cuda.parsed();
  const std::string want = wanted ? wanted->major_minor() : "";
  if (kind == K::pip || kind == K::wheelhouse || kind == K::redist || kind == K::conda) {
    if (want.empty()) {
      c.conflict("--toolkit " + provision_from(*pc), "torch's CUDA version is not known, so no toolkit can be chosen to provision",
                 {"name it: --cuda X.Y"}, "facts");
      return false;
    }
    if (!provision_cuda(c, wanted->truncated(2), "asked for (" + pc->cli_source + "), CUDA " + want + " (torch's CUDA" +
                                    (!c.req->cuda ? "" : ", --cuda") + ")"))
      return false;
  } else if (kind == K::path) {
    c.toolkit = core::toolkit_at(c, pc->choice.dir);
    if (!c.toolkit) {
      c.conflict("--toolkit " + pc->choice.dir, "no CUDA toolkit with bin/nvcc was found there",
                 {"give the directory that holds bin/nvcc (a CUDA_HOME)"}, "--toolkit");
      return false;
    }
    c.decide("cuda", c.toolkit->version + " (" + c.toolkit->path + ")", "asked for (--toolkit)", "--toolkit");
  } else {
    c.toolkit = pick_toolkit(c, why);
    bool exact = c.toolkit && !want.empty() && c.toolkit->version.parsed() && c.toolkit->version.parsed()->major_minor() == want;
    bool same_major = c.toolkit && wanted && c.toolkit->version.parsed() &&
                      c.toolkit->version.parsed()->major() == wanted->major();
    // No installed toolkit of torch's major: one of torch's own CUDA, provisioned, if it can be.
    if (kind == K::automatic && pc && !want.empty() && !exact && !same_major) {
      std::string had = "no CUDA toolkit with nvcc is installed";
      if (c.toolkit) {
        auto nv = c.toolkit->version.parsed();
        std::string mm = nv ? nv->major_minor() : c.toolkit->version;
        had = "the installed nvcc " + mm + " (" + c.toolkit->path + ") is not of torch's CUDA major: cpp_extension stops with "
              "'The detected CUDA version (" + mm + ") mismatches the version that was used to compile PyTorch (" +
              c.python->torch.cuda + ")'";
      }
      c.toolkit = nullptr;
      if (!provision_cuda(c, wanted->truncated(2), had + ", torch was built with CUDA " + c.python->torch.cuda)) return false;
    } else if (!c.toolkit) {
      std::vector<std::string> ways{"install CUDA " + want + " (nvcc) and plan again; CUDA_HOME is then set by the plan"};
      if (!c.recipe->cuda_only) ways.push_back("or build the CPU part only: --without cuda");
      const std::string asked = c.req->cuda ? c.req->cuda->original() : "";  // as the user wrote it
      c.conflict(asked.empty() ? "no nvcc for a CUDA build" : "--cuda " + asked,
                 "no installed CUDA toolkit with nvcc" + (asked.empty() ? std::string() : " " + asked) +
                     " was found (cpp_extension: 'CUDA was not found on the system, please set the CUDA_HOME ...')",
                 ways, "facts");
      return false;
    } else {
      c.decide("cuda", c.toolkit->version + " (" + c.toolkit->path + ")", why, !c.req->cuda ? "facts" : "--cuda");
    }
  }
  return true;
}

// An extension keeps the default GCC when no installed one fits nvcc (the contract's check says
// why); its CC/CXX come in plan.env.
void take_compiler(Ctx& c, const CompilerFacts& def, const compat::HostGcc& host) {
  c.compiler = &def;
  std::string why = host.user ? detail::user_compiler_why(def) : "the default compiler (g++ on PATH)";
  // nvcc refuses a GCC newer than its gcc_max: take the newest installed one it accepts.
  if (host.moved && host.pick) {
    c.compiler = host.pick;
    why = "gcc " + def.version + " is newer than nvcc " + c.toolkit->version.major_minor() +
          " accepts (<= " + c.kb().find_cuda(c.toolkit->version)->gcc_max.original() + "): the newest installed one it does";
  }
  c.record("compiler", c.compiler->family + " " + c.compiler->version + " (" + c.compiler->cxx + ")", why,
           host.user ? "facts ($CC/$CXX)" : "facts", false, host.user ? compat::kUserCompilerRule : compat::kHostCompilerRule);
  check_host_compiler(c.facts(), c.kb(), *c.compiler, c.cuda_on ? c.toolkit : nullptr, c);
}

// An extension's list: --arch (its own name "torch": every arch the target torch was built with) or
// the GPUs here, decided; nullopt when refused (bad_spec or a conflict).
std::optional<ArchList> read_arches(Ctx& c, const std::string& text) {
  core::ArchNames names;
  names.own = [&](const std::string& n, std::string* err) -> std::optional<std::vector<CudaArch>> {
    if (n != "torch") return std::nullopt;
    std::vector<CudaArch> out;  // every arch the target torch was built with: the package's default build
    for (const auto& a : c.python->torch.arch_list.code())
      if (!a.ptx) out.push_back(a);  // its SASS targets (sm_NN); a compute_ entry is PTX only
    if (out.empty()) *err = "the target torch's arch list is not known";
    return out;
  };
  names.unknown_error = [](const std::string& n) {
    return "'" + n + "' is not an arch name (write native, torch, a family such as ampere, or numbers 8.6;9.0)";
  };
  std::string err;
  auto list = core::parse_arches(c, text, names, &err);
  if (!list) {
    if (names.no_gpu)
      c.conflict("--arch native", "no GPU with a known compute capability was found here, and a CUDA extension "
                 "without TORCH_CUDA_ARCH_LIST falls over (torch 1.13: IndexError in _get_cuda_arch_flags)",
                 [&] {
                   auto ways = core::no_gpu_ways_out(c.facts());
                   ways.push_back("or --arch torch: every arch the target torch was built with (slow)");
                   return ways;
                 }(),
                 "facts; pytorch/pytorch@v1.13.1:torch/utils/cpp_extension.py (_get_cuda_arch_flags)");
    else
      c.out.bad_spec = "--arch: " + err;
    return std::nullopt;
  }
  std::string why = c.req->arch.empty() ? "the GPUs on this machine only (target-only: a default build compiles every "
                                         "arch torch has, many times slower)"
                                       : "asked for (" + c.req->arch_origin + ")";
  c.decide("arch", list->torch_cuda_arch_list(), why, c.req->arch.empty() ? "facts" : c.req->arch_origin);
  return list;
}

// An extension's list through the contract (nvcc and this torch's cpp_extension accept every arch);
// the torch fixes the check asks for go into the plan.
void check_arch_list(Ctx& c) {
  check_arches(*c.python, c.kb(), *c.toolkit, c.compiler, c.arches, *c.recipe, c.fix_set, c);
  for (const auto& f : c.fixes) c.p.fixes.push_back(f);
}

}  // namespace ext

const PythonFacts* target_python(const HostFacts& facts, const std::string& torch_python) {
  for (const auto& py : facts.pythons) {
    if (torch_python.empty() ? py.torch.present : py.path == torch_python) return &py;
  }
  return nullptr;
}

namespace ext {

// The target torch: the Python whose torch the package builds against, the recipe, torch's pin,
// and whether CUDA is compiled at all.
void choose_torch(Ctx& c) {
  const auto& req = *c.req;
  c.python = target_python(c.facts(), req.torch_python);
  if (!c.python || !c.python->torch.present) {
    std::string who = req.torch_python.empty() ? "no Python here" : req.torch_python;
    std::string why = !c.python ? (req.torch_python.empty() ? "no Python with an importable torch was found"
                                                            : "this interpreter was not found or could not be probed")
                                : "it has no torch" + (c.python->torch.error.empty() ? std::string() : ": " + c.python->torch.error);
    c.conflict("the target torch (" + who + ")", why,
               {"give --torch the Python whose torch the extension is for (/usr/bin/python3, a venv's bin/python)",
                "or install torch there first (torchsmith plan torch==X.Y.Z builds one)"},
               "facts");
    return;
  }
  const auto& py = *c.python;
  const auto& r = *c.recipe;
  c.p.python = py.path;
  c.p.python_version = py.version;
  c.p.torch_version = py.torch.version;
  c.p.torch_cuda = py.torch.cuda;
  c.p.torch_cmake_prefix = ext::torch_cmake_prefix(py.torch);
  c.decide("torch", torch_label(py),
           std::string(req.torch_python.empty() ? "the first Python here with torch" : "asked for (--torch)") +
               ": CUDA " + (py.torch.cuda.empty() ? "none" : py.torch.cuda) + ", C++11 ABI " +
               (py.torch.cxx11_abi ? "1" : "0") + ", built for " +
               (py.torch.arch_list_unknown() ? std::string("arches not known (its arch list could not be read)")
               : py.torch.arch_list.empty() ? std::string("no GPU arches")
                                            : std::to_string(py.torch.arch_list.size()) + " arches"),
           req.torch_python.empty() ? "facts" : "--torch");
  c.decide("recipe", r.name, r.origin.file.empty() ? "no recipe in the knowledge base: the generic cpp_extension path"
                                             : "the recipe for " + r.name, c.recipe_source());
  check_torch_pin(py, r, req.source.version, req.scan.pyproject_requires, c);
  // A CMake build finding a CUDA torch configures CUDA whatever its own sources (torch's cuda.cmake).
  const bool cmake_cuda = req.scan.cmake_finds_torch && !req.scan.cmake_driver.empty() && !py.torch.cuda.empty();
  // A setup.py that builds no extension makes a pure-Python wheel, whatever .cu files other setup.py files own.
  const bool pure = req.scan.scanned && req.scan.no_extension && r.origin.file.empty();
  bool has_cuda = req.scan.scanned ? (req.scan.cuda_sources || req.scan.cuda_extension || cmake_cuda) && !pure : true;
  bool cuda_only = r.cuda_only || (req.scan.scanned && req.scan.cuda_extension && !req.scan.cpp_extension && !pure);
  if (pure && (req.scan.cuda_sources || req.scan.cuda_extension))
    c.decide("extension", "none (a pure-Python wheel)",
             "setup.py builds no extension (no ext_modules, no Extension(...) call, no build command of its own), so "
             "its wheel holds no compiled code: the tree's CUDA sources" +
                 std::string(req.scan.sibling_extensions.empty() ? "" : " are other setup.py files' (" +
                                                                         req.scan.sibling_extensions.front().second + ")") +
                 " and no CUDA is compiled here",
             "setup.py");
  c.cuda_on = decide_cuda(py, cuda_only, has_cuda, req.cuda.has_value(), req.cpu, r, c);
  // Read from the tree: CUDAExtension (or --cuda) over C++ files only makes a library with no GPU code.
  // Or a setup.py that names none of the tree's .cu files and finds no sources (fusedconvglu: a
  // CUDAExtension of one .cpp calling cuDNN, beside a .cu no extension lists).
  const bool unlisted_cu = req.scan.cuda_sources && req.scan.setup_py && req.scan.cmake_driver.empty() &&
                           req.scan.cuda_extension && !req.scan.setup_names_cu;
  if (c.cuda_on && req.scan.scanned && (!req.scan.cuda_sources || unlisted_cu)) {
    c.p.no_device_code = true;
    std::string how = unlisted_cu ? "setup.py names no .cu file and finds no sources, so its CUDAExtension compiles "
                                    "C++ files only"
                      : req.scan.cuda_extension ? "its CUDAExtension compiles C++ files only"
                      : cmake_cuda ? "its CMake files find_package(Torch), and a CUDA torch's CMake config runs "
                                     "enable_language(CUDA), so configure needs the plan's nvcc (CUDACXX)"
                                   : "--cuda over C++ files";
    c.decide("device-code", "none", std::string(unlisted_cu ? "no extension builds the tree's .cu sources: "
                                                            : "the tree has no .cu/.cuh source: ") +
             how + " (CUDA's headers and runtime, no GPU code); verify expects no GPU code in the library",
             cmake_cuda ? "pytorch/pytorch@v2.6.0:cmake/public/cuda.cmake (enable_language(CUDA))" : "source scan");
  }
}

// A CPU build says which of the arch options it does not use rather than dropping them silently.
void unused_arch_options(Ctx& c) {
  const auto& req = *c.req;
  if (!req.arch.empty())
    c.record("arch", "none", "--arch " + req.arch + " is not used: this build compiles no CUDA code (the cuda "
             "decision says why)", req.arch_origin.empty() ? "--arch" : req.arch_origin, true);
  if (req.split_compile > 1)
    c.record("split-compile", "off", "--split-compile " + std::to_string(req.split_compile) +
             " is not used: this build compiles no CUDA code", "--split-compile", true);
}

void choose_env_and_abi(Ctx& c) {
  choose_env(c);
  if (c.compiler) check_abi(*c.python, *c.compiler, *c.recipe, c.p.env, c);
}

}  // namespace ext

PlanResult make_extension_plan(const ExtensionRequest& req, const HostFacts& facts, const kb::Kb& kb,
                               const Recipe& recipe, const source::FixSet* fixes) {
  PlanResult out;
  Plan& p = out.plan;
  p.spec.package = recipe.name;
  p.spec.version = req.source.version;
  p.spec.arch = req.arch;
  p.spec.cuda = req.cuda;
  p.spec.python.path = req.torch_python;  // --torch names an interpreter
  p.spec.jobs = req.jobs;
  p.spec.mem_budget_bytes = req.mem_budget_bytes;
  p.spec.source = req.source.kind == ExtensionSource::Kind::git ? req.source.url + "@" + req.source.ref : req.source.dir;
  core::Ctx c(facts, kb, out);
  c.req = &req;
  c.recipe = &recipe;
  c.fix_set = fixes;
  c.scale = req.scale ? &req.scale : nullptr;
  c.kind = core::kExtensionBuild;
  steps::run(c);
  return out;
}

}  // namespace ts::plan
