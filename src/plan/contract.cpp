// The torch <-> extension contract checks (see contract.h); rules cite the cpp_extension code they mirror.
#include "plan/contract.h"

#include <algorithm>

#include "compat/arch_rule.h"
#include "compat/assess.h"
#include "compat/facts_util.h"
#include "compat/host_compiler_rule.h"
#include "compat/toolkit_rule.h"
#include "core/version_range.h"

namespace ts::plan {

namespace {

const char* kCheckCuda =
    "pytorch/pytorch@v2.6.0:torch/utils/cpp_extension.py (_check_cuda_version)";
const char* kArchFlags =
    "pytorch/pytorch@v2.6.0:torch/utils/cpp_extension.py (_get_cuda_arch_flags)";
const char* kAbi =
    "pytorch/pytorch@v2.6.0:torch/utils/cpp_extension.py (-D_GLIBCXX_USE_CXX11_ABI=<torch's value>)";
const char* kIsolation =
    "https://pip.pypa.io/en/stable/cli/pip_install/ (always --no-build-isolation --no-deps); pytorch/pytorch#52598";
const char* kCppExtFile = "torch/utils/cpp_extension.py";

std::string recipe_cite(const Recipe& r) {
  return r.origin.file.empty() ? r.source : compat::cite(r.source, r.origin);
}

// The id a contract check's decisions and conflicts carry while it runs (unless they name compat's).
class RuleScope {
 public:
  RuleScope(ContractOut& o, const char* id) : o_(o), was_(o.rule) { o_.rule = id; }
  ~RuleScope() { o_.rule = was_; }
  RuleScope(const RuleScope&) = delete;
  RuleScope& operator=(const RuleScope&) = delete;

 private:
  ContractOut& o_;
  std::string was_;
};

// A fix that only edits torch's cpp_extension.py: safe to apply to an installed torch.
bool cpp_extension_fix(const source::Fix& f) {
  return !f.edits.empty() &&
         std::all_of(f.edits.begin(), f.edits.end(), [](const source::FileEdit& e) { return e.file == kCppExtFile; });
}

// The version compared against pins: the release only (Debian's "1.13.0a0" is torch 1.13.0).
std::optional<Version> torch_release(const PythonFacts& py) {
  auto v = py.torch.version.parsed();
  if (!v) return std::nullopt;
  return v->base_version();
}

}  // namespace

std::string torch_label(const PythonFacts& py) {
  return "torch " + py.torch.version + " at " + (py.torch.path.empty() ? py.path : py.torch.path);
}

void check_cuda_major(const PythonFacts& py, const CudaToolkitFacts& nvcc, ContractOut& out) {
  RuleScope scope(out, compat::kTorchNvccRule);
  using compat::NvccForTorch;
  NvccForTorch m = compat::nvcc_for_torch(py.torch.cuda, nvcc.version);
  const char* rule = compat::kTorchNvccRule;
  if (m == NvccForTorch::unknown) {
    out.record("cuda", "nvcc " + nvcc.version, "torch's or nvcc's CUDA version could not be read: the major check is "
           "left to cpp_extension", kCheckCuda, true, rule);
    return;
  }
  auto tc = py.torch.cuda.parsed();
  auto nv = nvcc.version.parsed();
  std::string who = "nvcc " + nv->major_minor() + " (" + nvcc.path + ")";
  if (m == NvccForTorch::other_major) {
    out.conflict(who + " with " + torch_label(py),
             "torch was built with CUDA " + py.torch.cuda + "; cpp_extension refuses nvcc of another major: 'The "
             "detected CUDA version (" + nv->major_minor() + ") mismatches the version that was used to compile "
             "PyTorch (" + py.torch.cuda + "). Please make sure to use the same CUDA versions.'",
             {"install CUDA " + tc->major_minor() + " (any " + std::to_string(tc->major()) +
                  ".x works) and plan with --cuda " + tc->major_minor(),
              "or use a torch built for CUDA " + std::to_string(nv->major()) + ".x in --torch"},
             kCheckCuda, rule);
    return;
  }
  if (m == NvccForTorch::other_minor) {
    out.record("cuda", who, "same major as torch's CUDA " + py.torch.cuda + ", minor differs: cpp_extension warns "
           "('minor version mismatch ... Most likely this shouldn't be a problem') and builds", kCheckCuda, true, rule);
    return;
  }
  out.record("cuda", who, "matches torch's CUDA " + py.torch.cuda, kCheckCuda, false, rule);
}

bool decide_cuda(const PythonFacts& py, bool cuda_only, bool has_cuda_code, bool asked_cuda, bool asked_cpu,
                 const Recipe& recipe, ContractOut& out) {
  RuleScope scope(out, "contract.cuda");
  std::string src = recipe_cite(recipe);
  bool torch_cuda = !py.torch.cuda.empty();
  if (asked_cpu) {
    if (cuda_only) {
      out.conflict(recipe.name + " without CUDA", recipe.name + " has no CPU build (it is CUDA code only)",
               {"build it with CUDA against a CUDA torch (leave out --without cuda)"}, src);
      return false;
    }
    out.decide("cuda", "off", "a CPU build, asked for (--without cuda)", "--without");
    return false;
  }
  if (!has_cuda_code && !asked_cuda) {
    out.decide("cuda", "off", "the package has no CUDA code", src);
    return false;
  }
  if (torch_cuda) {
    out.decide("cuda", "on", torch_label(py) + " was built with CUDA " + py.torch.cuda, src);
    return true;
  }
  std::string why = torch_label(py) + " was built without CUDA (torch.version.cuda is None): cpp_extension's "
                    "CUDAExtension needs a CUDA torch (CUDA_HOME, libc10_cuda, torch.cuda)";
  if (cuda_only || asked_cuda) {
    std::vector<std::string> fixes;
    if (!cuda_only) fixes.push_back("build the CPU part only: leave out --cuda (or give --without cuda)");
    fixes.push_back("give --torch a Python whose torch was built with CUDA (pip's torch+cuXXX wheels)");
    if (cuda_only) why += "; " + recipe.name + " is CUDA code only (no CPU build exists)";
    out.conflict((cuda_only ? recipe.name + " (CUDA code)" : std::string("--cuda")) + " against a CPU torch", why,
             fixes, (recipe.origin.file.empty() ? "the source tree (CUDAExtension, .cu sources)" : src) + "; " + kCheckCuda);
    return false;
  }
  out.record("cuda", "off", why + "; " + recipe.name + " also builds without CUDA, so this is a CPU build", src, true);
  return false;
}

void check_host_compiler(const HostFacts& facts, const kb::Kb& kb, const CompilerFacts& cc,
                         const CudaToolkitFacts* nvcc, ContractOut& out) {
  RuleScope scope(out, compat::kHostCompilerRule);
  if (!nvcc) return;
  HostFacts one = facts;  // compat's rule, on this compiler and this toolkit only
  one.compilers = {cc};
  one.cuda_toolkits = {*nvcc};
  std::vector<compat::Verdict> vs;
  compat::check_compilers(one, kb, compat::Target{}, vs);
  for (const auto& v : vs) {
    std::string src = v.source + (v.where.empty() ? "" : " (" + v.where + ")");
    if (v.level == compat::Level::fail)
      out.conflict(v.subject, v.reason, {v.fix.empty() ? "use a host compiler nvcc accepts (CC/CXX)" : v.fix}, src,
               v.rule);
    else
      out.record("compiler", v.subject, v.reason, src, v.level == compat::Level::warn, v.rule);
  }
}

void check_abi(const PythonFacts& py, const CompilerFacts& cc, const Recipe& recipe,
               const std::map<std::string, std::string>& env, ContractOut& out) {
  RuleScope scope(out, "contract.abi");
  std::string want = py.torch.cxx11_abi ? "1" : "0";
  auto cv = cc.version.parsed();
  // GCC before 5 has only the old std::string/std::list ABI.
  if (py.torch.cxx11_abi && cc.family == "gcc" && cv && cv->major() < 5) {
    out.conflict("gcc " + cc.version + " with " + torch_label(py),
             "torch uses the C++11 ABI (_GLIBCXX_USE_CXX11_ABI=1), which gcc " + cc.version +
                 " cannot produce: the extension would fail to load with undefined std::__cxx11 symbols",
             {"install g++ 5 or newer and plan again"}, kAbi);
    return;
  }
  // Knobs that pin the ABI themselves (FLASH_ATTENTION_FORCE_CXX11_ABI, CXXFLAGS with the define).
  for (const auto& [k, v] : env) {
    std::string forced;
    if (k.size() >= 15 && k.compare(k.size() - 15, 15, "FORCE_CXX11_ABI") == 0) {
      if (v == "TRUE" || v == "1" || v == "true") forced = "1";
    }
    auto at = v.find("-D_GLIBCXX_USE_CXX11_ABI=");
    if (at != std::string::npos && at + 25 < v.size()) forced = v.substr(at + 25, 1);
    if (forced.empty() || forced == want) continue;
    out.conflict(k + "=" + v + " with " + torch_label(py),
             "it builds with _GLIBCXX_USE_CXX11_ABI=" + forced + " but torch uses " + want +
                 ": the extension would fail to import with 'undefined symbol' on std::string functions",
             {"drop " + k + " from the recipe's env (a --kb overlay's packages/" + recipe.name + ".toml)",
              "or use a torch built with _GLIBCXX_USE_CXX11_ABI=" + forced},
             recipe_cite(recipe));
  }
  out.decide("abi", "_GLIBCXX_USE_CXX11_ABI=" + want,
         std::string("torch's C++ ABI (") + (py.torch.cxx11_abi ? "C++11" : "pre-C++11") +
             "); cpp_extension passes it to every compile, and the plan passes it to CMake builds",
         kAbi);
}

void check_arches(const PythonFacts& py, const kb::Kb& kb, const CudaToolkitFacts& nvcc, const CompilerFacts* cc,
                  const ArchList& arches, const Recipe& recipe, const source::FixSet* fixes, ContractOut& out) {
  RuleScope scope(out, "contract.arches");
  const kb::CudaRelease* crel = kb.find_cuda(nvcc.version);
  std::string nv_mm = nvcc.version.major_minor();
  // nvcc: its own --list-gpu-code when probed, else the KB's list for its release.
  for (const auto& a : arches.arches()) {
    if (compat::nvcc_compiles(nvcc.arches.code(), crel, a)) continue;
    out.conflict("arch " + a.sass_only().str() + " with nvcc " + nv_mm,
             "nvcc " + nv_mm + " does not compile for " + a.sm() + ": it stops with 'Unsupported gpu architecture " +
                 a.compute() + "'",
             {"leave " + a.sass_only().str() + " out of --arch", "or use a CUDA whose nvcc lists it (nvcc --list-gpu-code)"},
             crel ? compat::cite(crel->source, crel->origin) : "nvcc --list-gpu-code", compat::kArchToolkitRule);
  }
  // Fixes for torch's cpp_extension.py that hold for this torch, nvcc, compiler and arch list.
  std::vector<const source::Fix*> chosen;
  if (fixes) {
    source::FixContext ctx;
    ctx.version = py.torch.version;
    if (auto v = nvcc.version.parsed()) ctx.cuda = FactVersion(v->truncated(2));
    if (cc) ctx.gcc = cc->version;
    ctx.arches = arches.arches();
    for (const auto* f : source::select_fixes(*fixes, ctx))
      if (cpp_extension_fix(*f)) chosen.push_back(f);
  }
  for (const auto* f : chosen) {
    out.fixes.push_back({f->id, f->reason, f->source, source::fix_hash(*f)});
    out.record("fix", f->id, f->reason + " (applied to the installed torch's " + std::string(kCppExtFile) +
           ", journaled: torchsmith fix --revert undoes it)", f->source, true);
  }
  // Packages with their own arch knob pass -gencode themselves: torch's arch check does not run.
  if (recipe.arch_env != "TORCH_CUDA_ARCH_LIST") return;
  const kb::TorchRelease* rel = kb.find_torch(py.torch.version);
  if (!rel || rel->arch_names.empty()) {
    out.record("arch", arches.torch_cuda_arch_list(), "torch " + py.torch.version + " is not in the knowledge base: "
           "whether its cpp_extension accepts these arches is left to the build", kArchFlags, true);
    return;
  }
  std::string src = compat::cite(rel->source, rel->origin);
  for (const auto& a : arches.arches()) {
    if (compat::arch_listed(rel->arch_names, a)) continue;
    std::string ids;
    for (const auto* f : chosen)
      if (std::any_of(f->when.arches_any.begin(), f->when.arches_any.end(),
                      [&](const CudaArch& x) { return x.same_capability(a); }))
        ids += (ids.empty() ? "" : ", ") + f->id;
    if (!ids.empty()) {
      out.decide("arch", a.sass_only().str() + " (with fix " + ids + ")",
             "torch " + rel->version.original() + "'s cpp_extension does not accept " + a.sass_only().str() +
                 " by itself; the fix teaches it",
             src);
      continue;
    }
    std::string highest;
    for (const auto& p : rel->arch_names)
      if (p.major <= a.major && p < a.sass_only()) highest = p.sass_only().str();
    std::vector<std::string> ways;
    if (!highest.empty())
      ways.push_back("--arch " + highest + "+PTX: PTX that the driver compiles for " + a.sm() + " at first use");
    ways.push_back("use a torch whose cpp_extension knows " + a.sass_only().str() + " in --torch");
    ways.push_back("or add a fix for " + std::string(kCppExtFile) + " under fixes/ in a --kb overlay");
    out.conflict("arch " + a.sass_only().str() + " with " + torch_label(py),
             "torch " + rel->version.original() + "'s cpp_extension stops with 'Unknown CUDA arch (" + a.sass_only().str() +
                 ") or GPU not supported', and no fix in the knowledge base teaches it",
             ways, src + "; " + kArchFlags);
  }
}

namespace {
// pip without isolation leaves [build-system] requires unchecked unless asked (pip 22.1's option).
constexpr const char* kBuildDepsUnchecked =
    "https://pip.pypa.io/en/stable/cli/pip_wheel/#cmdoption-check-build-dependencies";

// Every version the range admits is older than v: an exact or upper-bounded pin, never a lower bound
// or an exclusion (`>=2.10`, `!=2.15.0` still refuse).
bool older_than(const VersionRange& r, const Version& v) {
  if (auto hi = r.max_exclusive(); hi && !(v < *hi)) return true;
  if (auto hi = r.max_inclusive(); hi && *hi < v) return true;
  return false;
}
}  // namespace

void check_torch_pin(const PythonFacts& py, const Recipe& recipe, const FactVersion& version,
                     const std::vector<std::string>& pyproject_requires, ContractOut& out) {
  RuleScope scope(out, "contract.torch_pin");
  auto tv = torch_release(py);
  if (!tv) {
    out.record("torch", py.torch.version, "torch's version could not be read: pins are not checked", "facts", true);
    return;
  }
  std::string src = recipe_cite(recipe);
  const VersionRange& r = recipe.torch;  // parsed when the recipe loaded; any = not known
  if (!r.is_any() && !r.contains(*tv))
    out.conflict(recipe.name + " with " + torch_label(py),
                 "no version of " + recipe.name + " supports torch " + tv->str() + " (it needs torch " + r.describe() + ")",
                 {"use a torch " + r.describe() + " in --torch"}, src);
  const auto& pv = version.parsed();
  if (pv && !recipe.compat.empty()) {
    const RecipeCompat* entry = nullptr;
    for (const auto& c : recipe.compat)
      if (c.version.contains(*pv)) entry = &c;
    if (!entry) {
      out.record("torch", recipe.name + " " + version, "the recipe names no torch range for this version", src, true);
    } else if (const VersionRange& tr = entry->torch; !tr.contains(*tv)) {
      std::vector<std::string> ways;
      for (const auto& c : recipe.compat)
        if (c.torch.contains(*tv))
          ways.push_back(recipe.name + " " + c.version.original() + " goes with torch " + tv->str());
      ways.push_back("or a torch " + tr.describe() + " in --torch");
      out.conflict(recipe.name + "==" + version + " with " + torch_label(py),
               recipe.name + " " + version + " builds against torch " + tr.describe(), ways,
               entry->source.empty() ? src : entry->source);
    } else {
      out.decide("torch", recipe.name + " " + version + " with torch " + tv->str(),
             "within the recipe's torch range " + entry->torch.original(), entry->source.empty() ? src : entry->source);
    }
  }
  // pyproject's build requirement: not enforced without isolation, so checked here.
  for (const auto& req : pyproject_requires) {
    auto c = Constraint::parse(req);
    if (!c || c->normalized_name() != "torch") continue;
    if (c->range.contains(*tv))
      out.decide("torch", req, "the tree's build requirement holds for torch " + tv->str(), "pyproject.toml");
    else if (older_than(c->range, *tv))
      out.warn("torch", req,
               "only an isolated build installs [build-system] requires, and this build has no isolation (pip "
               "checks them only with --check-build-dependencies): it pins the torch the package was written "
               "for, older than the target torch " + tv->str() + ", so the build goes on against the target and "
               "the APIs that torch removed are the source ports' to repair",
               "pyproject.toml [build-system] requires; " + std::string(kBuildDepsUnchecked));
    else
      out.conflict("pyproject.toml requires " + req, "the target is torch " + tv->str() +
               ": the sources expect a newer or older torch API",
               {"use a torch " + c->range.describe() + " in --torch", "or an older/newer release of the package"},
               "pyproject.toml [build-system] requires");
  }
}

std::vector<std::string> build_command(const PythonFacts& py, bool setup_py, bool pyproject, const LegacyBackend* legacy,
                                       ContractOut& out) {
  RuleScope scope(out, "contract.build");
  auto has = [&](const char* n) { return py.packages.count(n) > 0; };
  // setuptools' legacy backend (a setup.py with no build-backend named): from the version build.toml names.
  auto st = py.packages.find("setuptools");
  std::optional<Version> stv = st == py.packages.end() ? std::nullopt : st->second.parsed();
  const std::optional<Version> since = legacy ? legacy->setuptools_min : std::nullopt;
  if ((setup_py || pyproject) && stv && since && *stv >= *since) {
    out.decide("build", "torchsmith's PEP 517 frontend, no isolation, no dependencies",
               "the backend pyproject.toml names (setuptools' legacy backend when none) runs in the target Python, "
               "so the build sees the target torch (an isolated build installs a fresh torch from the index, "
               "flash-attention's most common failure) and installs nothing; its build_wheel hook alone, as "
               "pypa/build asks it: pip wheel first runs the metadata hook in a process of its own, a second run of "
               "setup.py that imports torch (seconds on every build). The helper torchsmith_pep517.py is written "
               "beside the build helper",
               std::string(kIsolation) + "; https://peps.python.org/pep-0517/#build-wheel; " +
                   compat::cite(legacy->source, legacy->origin) + "; src/run/pyshim/torchsmith_pep517.py");
    return frontend_argv(py.path);
  }
  if (has("pip") && (setup_py || pyproject)) {
    out.decide("build", "pip wheel --no-build-isolation --no-deps",
           "the build must see the target torch: a PEP 517 isolated build installs a fresh torch from the "
           "index (or fails offline), flash-attention's most common failure; --no-deps keeps pip from "
           "replacing anything",
           kIsolation);
    // -v: pip passes the build's own output through (compile lines, ninja progress, errors as they
    // happen) instead of a spinner, so the log, the live status and triage see it.
    return {py.path, "-m", "pip", "wheel", "-v", "--no-build-isolation", "--no-deps", "-w", "dist", "."};
  }
  if (setup_py && has("setuptools") && has("wheel")) {
    out.decide("build", "setup.py bdist_wheel", "no pip in " + py.path + ": setup.py builds in the target "
           "Python itself (no isolation)", kIsolation);
    return {py.path, "setup.py", "bdist_wheel", "-d", "dist"};
  }
  std::string missing = !setup_py && !pyproject ? "the tree has no setup.py or pyproject.toml"
                                                : "neither pip nor setuptools+wheel is installed in " + py.path;
  out.conflict("building a wheel with " + py.path, missing,
           {setup_py || pyproject ? py.path + " -m ensurepip, or apt-get install python3-pip" : "point at the package's root"},
           kIsolation);
  return {};
}

}  // namespace ts::plan
