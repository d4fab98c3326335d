#include "run/remedy.h"

#include <algorithm>
#include <optional>

#include <re2/re2.h>

#include "compat/jobs_rule.h"
#include "core/arch_list.h"
#include "plan/parallelism.h"
#include "plan/plan.h"
#include "run/header_source.h"

namespace ts::run {

namespace {

std::string appended(const std::map<std::string, std::string>& env, const char* key, const std::string& more) {
  auto it = env.find(key);
  return it == env.end() || it->second.empty() ? more : it->second + " " + more;
}

std::string evidence_line(const triage::Finding& f) {
  return f.evidence.empty() ? "" : f.evidence.front().text;
}

// "C++20 or later", "requires at least C++17", "the ISO C++ 2017 standard", CMake's 'the language dialect
// "CUDA20"' -> 20 / 17 / 17 / 20; 0 when the line names no standard.
int standard_named(const std::string& line) {
  static const RE2 iso(R"(ISO C\+\+ 20([0-9][0-9]) standard)");
  static const RE2 cxx(R"(C\+\+ ?([0-9][0-9])\b)");
  static const RE2 dialect(R"re(language dialect "(?:CUDA|CXX|HIP)([0-9][0-9])")re");
  int y = 0;  // RE2 reads the two digits as the number
  if (RE2::PartialMatch(line, iso, &y) || RE2::PartialMatch(line, cxx, &y) || RE2::PartialMatch(line, dialect, &y))
    return y;
  return 0;
}

// "Unsupported gpu architecture 'compute_35'" -> 3.5 (the arch nvcc refused), when the line names one.
std::optional<CudaArch> arch_refused(const std::string& line) {
  static const RE2 re(R"((?:compute|sm|lto)_([0-9]+[af]?))");
  std::string a;
  if (!RE2::PartialMatch(line, re, &a)) return std::nullopt;
  return CudaArch::parse(a);
}

std::string env_of(const std::map<std::string, std::string>& env, const char* key) {
  auto it = env.find(key);
  return it == env.end() ? "" : it->second;
}

void with_helper(RemedyPlan& r, const std::map<std::string, std::string>& env) {
  r.env["PYTHONPATH"] = plan::pythonpath_with_pyshim(env_of(env, "PYTHONPATH"));
}

// The header joins the space-separated list env[key] holds for the retry; false (r.refused) when the
// list has it already: the same remedy for the same header ran and did not help.
bool add_header_once(const std::map<std::string, std::string>& env, const char* key, const std::string& header,
                     const std::string& refused, RemedyPlan& r) {
  const std::string had = env_of(env, key);
  if ((" " + had + " ").find(" " + header + " ") != std::string::npos) {
    r.refused = refused;
    return false;
  }
  r.env[key] = had.empty() ? header : had + " " + header;
  return true;
}

// build.header-source: the header the line names, for the pipeline to bring (run/header_source.h); no
// build helper (the compilers read CPATH). False with r.refused when it cannot help.
bool header_source(const triage::Finding& root, const std::map<std::string, std::string>& env, const std::string& line,
                   const std::string& quoted, RemedyPlan& r) {
  const std::string header = missing_header_in(line);
  if (header.empty()) { r.refused = "the log line names no missing header (" + quoted + ")"; return false; }
  if (!add_header_once(env, "TORCHSMITH_HEADER_SOURCES", header,
                       header + " was already brought from its repository: the remedy did not help", r))
    return false;
  r.header_source = header;
  r.kind = "build_remedy";
  r.reason = root.id + ": [build.header-source] " + header + " is in no toolkit, system or PyPI package: its "
             "repository's folder (build.toml [[header_source]]) brought into the cache and the build's copy, first "
             "on CPATH; the log: " + quoted;
  return true;
}

// build.own-header-dir: the header as the line names it ("DeviceSqrt.cuh", "sub/x.h"), for the pipeline
// to look for in the build's source (pipeline.cpp); no build helper (the compilers read CPATH).
bool own_header_dir(const triage::Finding& root, const std::map<std::string, std::string>& env, const std::string& line,
                    const std::string& quoted, RemedyPlan& r) {
  const std::string header = missing_include_in(line);
  if (header.empty()) {
    r.refused = "the log line names no missing header (" + quoted + ")";
    return false;
  }
  if (!add_header_once(env, "TORCHSMITH_OWN_HEADERS", header,
                       header + "'s directory in the source was already on CPATH: the remedy did not help", r))
    return false;
  r.own_header = header;
  r.kind = "build_remedy";
  r.reason = root.id + ": [build.own-header-dir] " + header + " is no header of torch, the toolkit or the system: the "
             "one directory of the package's own source that holds it goes first on CPATH (a package's header found "
             "only where its own build ran); the log: " + quoted;
  return true;
}

// build.cpp-kernel-launch: the helper compiles C++ sources that launch kernels with nvcc; the
// signature's env names nvcc's template-stub flag (r.env has it already).
bool cpp_kernel_launch(const triage::Finding& root, const std::map<std::string, std::string>& env, RemedyPlan& r) {
  if (!env_of(env, "TORCHSMITH_CPP_LAUNCH").empty()) {
    r.refused = "the C++ sources that launch kernels are already compiled by nvcc: the remedy did not help";
    return false;
  }
  r.env["TORCHSMITH_CPP_LAUNCH"] = "1";
  r.reason = "[build.cpp-kernel-launch] a C++ source of a CUDA extension launches kernels (<<<...>>>), which the "
             "host compiler cannot read: each such source is compiled by nvcc through a .cu in build_temp that "
             "includes it, the package's file unchanged (TORCHSMITH_CPP_LAUNCH" +
             std::string(env_of(root.remedy.env, "TORCHSMITH_NVCC_TEMPLATE_STUB").empty() ? "" : ", TORCHSMITH_NVCC_TEMPLATE_STUB") + ")";
  return true;
}

// The build helper remedies that are one switch: the variable the helper reads, what a second
// trigger is refused with, and what the retry says.
struct SwitchRemedy {
  const char* rule;
  const char* env;
  const char* refused;
  const char* reason;
};
constexpr SwitchRemedy kSwitchRemedies[] = {
    {"build.no-lto", "TORCHSMITH_NO_LTO",
     "link-time optimisation is already off: the remedy did not help",
     "[build.no-lto] the linker could not run GCC's link-time optimisation: retried with it off "
               "(-DCMAKE_INTERPROCEDURAL_OPTIMIZATION=OFF and every target's INTERPROCEDURAL_OPTIMIZATION off; "
               "-flto* dropped from setup.py's extra_compile_args/extra_link_args; TORCHSMITH_NO_LTO)"},
    {"build.source-reroot", "TORCHSMITH_REROOT",
     "setup.py's paths are already rerooted: the remedy did not help",
     "[build.source-reroot] an extension had no source: setup.py's globs, sources, include dirs and -I "
               "that name nothing in this tree are tried with the leading directories the tree lacks dropped "
               "(TORCHSMITH_REROOT)"},
    {"build.source-name", "TORCHSMITH_SOURCE_NAME",
     "setup.py's missing sources were already looked for under the names beside them: the remedy did not help",
     "[build.source-name] an extension lists a source the tree lacks: one listed by an absolute path outside the "
               "tree (the author's machine) is the tree's file at that path's longest tail that names one; else each "
               "such source is replaced by the one "
               "file beside it with its suffix, listed by no extension, whose name holds every word of the missing "
               "name, where exactly one does, else whose words the missing name holds with one more, where exactly "
               "one does (TORCHSMITH_SOURCE_NAME)"},
    {"build.extension-name", "TORCHSMITH_EXT_NAME",
     "the extension is already named from the package's load(): the remedy did not help",
     "[build.extension-name] setup.py's extension has no name: it gets the one the package's own "
               "torch.utils.cpp_extension.load(name=...) gives the same sources, where exactly one does (TORCHSMITH_EXT_NAME)"},
    {"build.cmake-toolchain", "TORCHSMITH_CMAKE_TOOLCHAIN",
     "the CMake project already gets the plan's compilers and toolkit: the remedy did not help",
     "[build.cmake-toolchain] the CMake project names a compiler or toolkit this machine does not have: retried "
               "with the build helper's CMake include setting the plan's (CUDACXX, CUDA_HOME, CC/CXX) at every "
               "project() and wherever the project sets them again (TORCHSMITH_CMAKE_TOOLCHAIN)"},
    {"build.cpp-extension-device-type", "TORCHSMITH_CPP_EXT_DEVICE_TYPE",
     "include_paths/library_paths already take cuda= as device_type: the remedy did not help",
     "[build.cpp-extension-device-type] setup.py passes cuda= to torch.utils.cpp_extension's include_paths or "
               "library_paths, which torch 2.6 made device_type=: inside the build, cuda=True/False is "
               "device_type=\"cuda\"/\"cpu\" (TORCHSMITH_CPP_EXT_DEVICE_TYPE)"},
};

const SwitchRemedy* switch_remedy(const std::string& rule) {
  for (const auto& x : kSwitchRemedies)
    if (rule == x.rule) return &x;
  return nullptr;
}

// A build helper remedy (src/run/pyshim/, planned from the source scan by plan/build_remedies.cpp)
// that the scan did not foresee, triggered by the failed build's log: false with r.refused when it
// cannot help. The values come from the run's own environment (the plan's arch list) or the line.
bool build_remedy(const std::string& rule, const triage::Finding& root, const std::map<std::string, std::string>& env,
                  const Ran& now, RemedyPlan& r) {
  const std::string line = evidence_line(root);
  const std::string quoted = line.size() > 200 ? line.substr(0, 200) + "..." : line;
  if (const SwitchRemedy* sw = switch_remedy(rule)) {
    if (!env_of(env, sw->env).empty()) { r.refused = sw->refused; return false; }
    r.env[sw->env] = "1";
    r.reason = sw->reason;
  } else if (rule == "build.cxx-std") {
    int need = standard_named(line);
    if (!need) { r.refused = "the log line names no C++ standard (" + quoted + ")"; return false; }
    if (now.cxx_std >= need) {
      r.refused = "the package's -std is already raised to C++" + std::to_string(now.cxx_std) + ": the remedy did not help";
      return false;
    }
    r.cxx_std = need;
    r.env["TORCHSMITH_CXX_STD"] = r.env["TORCHSMITH_CMAKE_STD"] = std::to_string(need);
    r.reason = "[build.cxx-std] -std raised to C++" + std::to_string(need) +
               " (setup.py's flags and the CMake targets; TORCHSMITH_CXX_STD, TORCHSMITH_CMAKE_STD)";
  } else if (rule == "build.gpu-target") {
    const ArchList* list = &now.arch_list;
    if (list->empty()) { r.refused = "no planned CUDA arch to answer for (a CPU build)"; return false; }
    if (!env_of(env, "TORCHSMITH_GPU_TARGET").empty()) {
      r.refused = "torch.cuda already answers for " + env_of(env, "TORCHSMITH_GPU_TARGET") + ": the remedy did not help";
      return false;
    }
    std::string target = list->arches().front().capability();
    r.env["TORCHSMITH_GPU_TARGET"] = target;
    r.reason = "[build.gpu-target] the build asked for a GPU: torch.cuda answers for the planned target " + target +
               " inside the build (TORCHSMITH_GPU_TARGET)";
  } else if (rule == "build.arch-list") {
    const ArchList* list = &now.arch_list;
    if (list->empty()) { r.refused = "the plan names no arch list (TORCH_CUDA_ARCH_LIST)"; return false; }
    if (!env_of(env, "TORCHSMITH_ARCH_LIST").empty()) {
      r.refused = "the plan's arch list is already forced: the remedy did not help";
      return false;
    }
    r.env["TORCHSMITH_ARCH_LIST"] = list->torch_cuda_arch_list();
    r.env["TORCHSMITH_CMAKE_ARCHES"] = list->cmake_cuda_architectures();
    r.reason = "[build.arch-list] nvcc refused an arch the plan's " + list->torch_cuda_arch_list() +
               " does not have: the package's own list; the plan's wins (TORCHSMITH_ARCH_LIST, TORCHSMITH_CMAKE_ARCHES)";
  } else if (rule == "build.pybind11-torch") {
    // The signature's env carries the oldest pybind11 each Python needs (r.env has it already).
    const std::string table = env_of(root.remedy.env, "TORCHSMITH_PYBIND11_FOR");
    if (table.empty()) { r.refused = "the signature names no pybind11 per Python (TORCHSMITH_PYBIND11_FOR)"; return false; }
    if (!env_of(env, "TORCHSMITH_PYBIND11_FOR").empty()) {
      r.refused = "an old vendored pybind11 is already set aside: the remedy did not help";
      return false;
    }
    r.reason = "[build.pybind11-torch] an include directory whose pybind11 is older than the target Python needs (" + table +
               ") is set aside for torch's own or another new enough one (TORCHSMITH_PYBIND11_FOR)";
    r.pybind11_for = table;
  } else if (rule == "build.python-alias") {
    // The signature's env names each removed name and the one it aliased (r.env has it already).
    const std::string aliases = env_of(root.remedy.env, "TORCHSMITH_PY_ALIASES");
    if (aliases.empty()) { r.refused = "the signature names no alias (TORCHSMITH_PY_ALIASES)"; return false; }
    if (!env_of(env, "TORCHSMITH_PY_ALIASES").empty()) {
      r.refused = "the removed names are already given back as their aliases: the remedy did not help";
      return false;
    }
    r.reason = "[build.python-alias] a name the target Python removed is given back, inside the build only and where "
               "absent, as the alias it was (" + aliases + "; TORCHSMITH_PY_ALIASES)";
  } else if (rule == "build.cuda-half-operators") {
    // The signature's env names the defines torch's cpp_extension gives nvcc; a CMake build has none.
    const std::string defines = env_of(root.remedy.env, "TORCHSMITH_NVCC_HALF_DEFINES");
    if (defines.empty()) { r.refused = "the signature names no nvcc defines (TORCHSMITH_NVCC_HALF_DEFINES)"; return false; }
    if (env_of(env, "NVCC_APPEND_FLAGS").find("-D__CUDA_NO_HALF_OPERATORS__") != std::string::npos) {
      r.refused = "nvcc already gets -D__CUDA_NO_HALF_OPERATORS__: the remedy did not help";
      return false;
    }
    r.env.erase("TORCHSMITH_NVCC_HALF_DEFINES");
    r.env["NVCC_APPEND_FLAGS"] = appended(env, "NVCC_APPEND_FLAGS", defines);
    r.reason = "[build.cuda-half-operators] nvcc gets the defines torch's cpp_extension passes it (" + defines +
               "), which a CMake build does not: c10::Half's own operators, not also cuda_fp16's (NVCC_APPEND_FLAGS)";
  } else if (rule == "build.torch-prefix") {
    // CMake reads CMAKE_PREFIX_PATH from the environment (':'-separated); a value already there stays after it.
    const std::string& prefix = now.torch_cmake_prefix;
    if (prefix.empty()) { r.refused = "the plan names no target torch's cmake_prefix_path"; return false; }
    const std::string was = env_of(env, "CMAKE_PREFIX_PATH");
    if (was == prefix || was.rfind(prefix + ":", 0) == 0) {
      r.refused = "CMAKE_PREFIX_PATH already starts with the target torch's " + prefix + ": the remedy did not help";
      return false;
    }
    r.env["CMAKE_PREFIX_PATH"] = was.empty() ? prefix : prefix + ":" + was;
    r.reason = "[build.torch-prefix] find_package(Torch) found no TorchConfig.cmake: CMAKE_PREFIX_PATH starts with the "
               "target torch's torch.utils.cmake_prefix_path " + prefix;
  } else if (rule == "build.scm-version") {
    // The plan sets it from the source scan; here the scan did not see setuptools_scm (a backend's own use).
    if (!env_of(env, "SETUPTOOLS_SCM_PRETEND_VERSION").empty()) {
      r.refused = "SETUPTOOLS_SCM_PRETEND_VERSION is already " + env_of(env, "SETUPTOOLS_SCM_PRETEND_VERSION") +
                  ": the remedy did not help";
      return false;
    }
    const std::string v = now.version.empty() ? "0.0.0" : now.version;
    r.env["SETUPTOOLS_SCM_PRETEND_VERSION"] = v;
    r.kind = "build_remedy";
    r.reason = root.id + ": [build.scm-version] setuptools_scm found no VCS metadata in the tree: it is given " + v +
               (now.version.empty() ? " (no version known)" : " (the version asked for)") +
               " (SETUPTOOLS_SCM_PRETEND_VERSION); the log: " + quoted;
    return true;
  } else if (rule == "build.header-source") {
    return header_source(root, env, line, quoted, r);
  } else if (rule == "build.own-header-dir") {
    return own_header_dir(root, env, line, quoted, r);
  } else if (rule == "build.cpp-kernel-launch") {
    if (!cpp_kernel_launch(root, env, r)) return false;
  } else {
    r.refused = "no build helper remedy '" + rule + "' in this torchsmith";
    return false;
  }
  with_helper(r, env);
  r.reconfigure = true;  // CMake reads the helper's include at configure time
  r.kind = "build_remedy";
  r.reason = root.id + ": " + r.reason + "; the log: " + quoted;
  return true;
}

// Each remedy kind's decision: true to retry with r, false when it cannot help (r.refused says why).
// halve_jobs: typed counts in, typed counts out; the knobs are written from them (plan/parallelism.h).
// nvcc --split-compile threads (plan/speed_split.h) hold memory too: halved with the jobs.
bool halve_jobs(const triage::Finding& root, const std::map<std::string, std::string>& env,
                const plan::Parallelism& now, RemedyPlan& r) {
  plan::Parallelism next = now;
  next.split = now.split >= 2 && now.split / 2 >= 2 ? now.split / 2 : 0;
  std::string split_note = now.split >= 2 ? ", nvcc split-compile " + std::to_string(now.split) + " -> " +
                                                std::to_string(std::max(next.split, 1)) : "";
  if (now.jobs <= 1 && now.split < 2) { r.refused = "already at 1 job: memory, not parallelism, is short"; return false; }
  if (now.jobs > 1) next.jobs = compat::jobs_after_oom(now.jobs);
  for (const char* k : plan::kJobKnobs) r.env.erase(k);  // the signature's own count yields to the halved one
  // The slots side-by-side extensions share (jobs x nvcc threads, run/pyshim.h) follow the jobs.
  for (auto& [k, v] : plan::job_env(next, env)) r.env[k] = v;
  r.parallel = next;
  r.reason = root.id + (now.jobs > 1 ? ": jobs " + std::to_string(now.jobs) + " -> " + std::to_string(next.jobs)
                                     : ": jobs stay at 1") + split_note;
  return true;
}

bool set_env(const triage::Finding& root, const std::map<std::string, std::string>& env, RemedyPlan& r) {
  const auto& rem = root.remedy;
  if (rem.env.empty()) { r.refused = "the signature names no variables"; return false; }
  bool changes = false;
  for (const auto& [k, v] : rem.env)
    if (auto it = env.find(k); it == env.end() || it->second != v) changes = true;
  if (!changes) { r.refused = "its variables are already set: the remedy did not help"; return false; }
  std::string what;
  for (const auto& [k, v] : rem.env) what += (what.empty() ? "" : " ") + k + "=" + v;
  r.reason = root.id + ": set " + what;
  r.reconfigure = true;  // CMake reads most of these at configure time only
  return true;
}

bool shorten_arch_list(const triage::Finding& root, const std::map<std::string, std::string>& env, const Ran& now,
                       const RetryPolicy& policy, const ArchList& native_arches, bool build_step, RemedyPlan& r) {
  // nvcc refused an arch the plan's list does not have: the package passes its own list, and
  // shortening the plan's would change nothing; the plan's list is made to win instead.
  auto refused = arch_refused(evidence_line(root));
  if (build_step && refused && !now.arch_list.empty() && !now.arch_list.contains_capability(*refused) &&
      env_of(env, "TORCHSMITH_ARCH_LIST").empty())
    return build_remedy("build.arch-list", root, env, now, r);
  if (!policy.allow_arch_shrink) {
    r.refused = "shortening the arch list changes what is built: pass --allow-arch-shrink to allow it";
    return false;
  }
  // Compared as TORCH_CUDA_ARCH_LIST spells both, so "already only these" compares like with like.
  const std::string native = native_arches.torch_cuda_arch_list();
  if (native_arches.empty() || now.arch_list.torch_cuda_arch_list() == native) {
    r.refused = "no shorter arch list known (no GPU detected, or already only the GPUs here)";
    return false;
  }
  r.arch_list = native_arches;
  r.env["TORCH_CUDA_ARCH_LIST"] = native;
  r.reason = root.id + ": arch list -> " + native + " (the GPUs here; allowed by --allow-arch-shrink)";
  return true;
}

// A header the sources forgot, included in front of every C++ and CUDA file: nvcc reads
// NVCC_APPEND_FLAGS itself, CMake reads CXXFLAGS at configure, and torch's BuildExtension
// gets it through the build helper (TORCHSMITH_FORCE_INCLUDE, run/pyshim/sitecustomize.py).
// A header only CUDA sources use (Thrust's, CUB's: the table's row says compiler = "nvcc") goes to
// nvcc alone: in front of a plain C++ file it would need CUDA's headers there, and it is not needed.
bool force_include(const triage::Finding& root, const std::map<std::string, std::string>& env, RemedyPlan& r) {
  std::string h = triage::expand_captures(root.remedy.header, root.captures);
  if (!triage::valid_header_name(h)) { r.refused = "no header name in the log line"; return false; }
  const bool nvcc_only = root.remedy.compiler == "nvcc";
  // The variable that records this remedy's headers, and the header as it stands there.
  const std::string key = nvcc_only ? "NVCC_APPEND_FLAGS" : "TORCHSMITH_FORCE_INCLUDE";
  std::string have;
  if (auto it = env.find(key); it != env.end()) have = " " + it->second + " ";
  if (have.find(std::string(nvcc_only ? " -include " : " ") + h + " ") != std::string::npos) {
    r.refused = "<" + h + "> is already force-included: the remedy did not help";
    return false;
  }
  if (nvcc_only) {
    r.env["NVCC_APPEND_FLAGS"] = appended(env, "NVCC_APPEND_FLAGS", "-include " + h);
    r.reason = root.id + ": <" + h + "> force-included (-include " + h + " for nvcc, CUDA sources only)";
    return true;
  }
  if (have.empty()) {
    auto py = env.find("PYTHONPATH");
    r.env["PYTHONPATH"] = plan::pythonpath_with_pyshim(py == env.end() ? "" : py->second);
  }
  r.env["TORCHSMITH_FORCE_INCLUDE"] = appended(env, "TORCHSMITH_FORCE_INCLUDE", h);
  r.env["NVCC_APPEND_FLAGS"] = appended(env, "NVCC_APPEND_FLAGS", "-include " + h);
  r.env["CXXFLAGS"] = appended(env, "CXXFLAGS", "-include " + h);
  r.reconfigure = true;  // CMake reads CXXFLAGS when it configures
  r.reason = root.id + ": <" + h + "> force-included (-include " + h + " for the host compiler and nvcc)";
  return true;
}

// Automatic only when triage named an installed compiler that fits (triage/specialize.cpp
// fills CC/CXX/CUDAHOSTCXX from the machine's facts); otherwise the plan must change.
bool switch_host_compiler(const triage::Finding& root, const std::map<std::string, std::string>& env, RemedyPlan& r) {
  const auto& rem = root.remedy;
  auto to = rem.env.find("CUDAHOSTCXX");
  if (to == rem.env.end()) to = rem.env.find("CXX");
  if (to == rem.env.end() || to->second.empty()) {
    r.refused = "needs a different plan: no installed host compiler that fits is known (" + rem.note + ")";
    return false;
  }
  auto now = env.find(to->first);
  if (now != env.end() && now->second == to->second) {
    r.refused = to->second + " is already the host compiler: the remedy did not help";
    return false;
  }
  std::string what;
  for (const auto& [k, v] : rem.env) what += (what.empty() ? "" : " ") + k + "=" + v;
  r.clean_build = true;  // CMake cannot change the compiler of a configured build directory
  r.reason = root.id + ": host compiler " + (now == env.end() ? std::string("(default)") : now->second) +
             " -> " + to->second + " (installed, fits; " + what + "; build directory cleaned)";
  return true;
}

}  // namespace

Ran ran_of(const plan::Plan& p) { return {plan::parallelism_of(p), p.arch_list, p.cxx_std, p.torch_cmake_prefix, p.spec.version}; }

RemedyPlan choose_remedy(const triage::Diagnosis& d, const std::map<std::string, std::string>& env,
                         const Ran& now, const RetryPolicy& policy, int retries_done,
                         const ArchList& native_arches, bool build_step, const std::vector<std::string>& tried) {
  RemedyPlan r;
  const triage::Finding* root = d.root();
  if (!root || !root->sig) return r;
  const auto& rem = root->remedy;
  if (rem.kind == triage::RemedyKind::none) return r;
  r.kind = std::string(triage::to_string(rem.kind));
  if (!policy.auto_fix) { r.refused = "auto-fix is off (--no-auto-fix)"; return r; }
  if (retries_done >= policy.max_retries) {
    r.refused = "already retried " + std::to_string(retries_done) + " times (--max-retries)";
    return r;
  }
  r.env = rem.env;
  bool retry = false;
  switch (rem.kind) {
    case triage::RemedyKind::halve_jobs:
      retry = halve_jobs(*root, env, now.parallel, r);
      break;
    case triage::RemedyKind::set_env:
      retry = set_env(*root, env, r);
      break;
    case triage::RemedyKind::clean_build_dir:
      r.clean_build = true;
      r.reason = root->id + ": the build directory is stale; cleaned (its logs kept)";
      retry = true;
      break;
    case triage::RemedyKind::reconfigure:
      r.reconfigure = true;
      r.reason = root->id + ": configure again from scratch (CMakeCache.txt removed)";
      retry = true;
      break;
    case triage::RemedyKind::shorten_arch_list:
      retry = shorten_arch_list(*root, env, now, policy, native_arches, build_step, r);
      break;
    case triage::RemedyKind::force_include:
      retry = force_include(*root, env, r);
      break;
    case triage::RemedyKind::switch_host_compiler:
      retry = switch_host_compiler(*root, env, r);
      break;
    case triage::RemedyKind::build_remedy:
      if (!build_step) {
        r.refused = "a build helper remedy acts on a package's build; this step is not one (" + rem.note + ")";
        return r;
      }
      retry = build_remedy(rem.rule, *root, env, now, r);
      break;
    default:
      r.refused = "needs a different plan (" + rem.note + ")";
      return r;
  }
  // A retry that repeats one already made (reconfigure, clean) changes nothing the first did not.
  if (retry && std::find(tried.begin(), tried.end(), r.reason) != tried.end()) {
    r.refused = "the same retry already ran for this step (" + r.reason + ") and it failed the same way: running it "
                "again changes nothing";
    retry = false;
  }
  r.retry = retry;
  return r;
}

}  // namespace ts::run
