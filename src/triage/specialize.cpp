#include "triage/specialize.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <set>

#include <re2/re2.h>

#include "compat/arch_rule.h"
#include "compat/facts_util.h"
#include "compat/host_compiler_rule.h"
#include "compat/jobs_rule.h"
#include "core/arch_list.h"
#include "core/version.h"
#include "triage/grammar.h"

namespace ts::triage {
namespace {

int major_of(std::string_view v) {
  auto p = Version::parse(v);
  return p ? p->major() : 0;
}

// The CUDA version this build used: what the log says, else the machine's only/first toolkit.
std::string cuda_version(const Diagnosis& d, const HostFacts* facts) {
  if (!d.log_facts.cuda_version.empty()) return d.log_facts.cuda_version;
  if (facts && !facts->cuda_toolkits.empty()) {
    const auto& v = facts->cuda_toolkits.front().version.parsed();
    if (v) return v->major_minor();
  }
  return "";
}

// Host compiler too new for nvcc: name an installed gcc that fits.
void host_compiler(Finding& f, const Diagnosis& d, const HostFacts* facts, const kb::Kb* kb) {
  std::string cuda = cuda_version(d, facts);
  int gcc_max = 0;
  if (f.sig->specialize == Specializer::nvcc_gcc_max && !f.captures.empty()) gcc_max = std::atoi(f.captures[0].c_str());
  if (!gcc_max && kb && !cuda.empty())
    gcc_max = compat::gcc_max_major(*kb, cuda);
  if (!gcc_max) return;
  std::string current;
  const std::string& cc = d.log_facts.cxx_compiler;  // "GNU 13.2.0"
  if (f.sig->specialize == Specializer::compiler_bounds) {
    if (f.captures.size() < 2 || f.captures[1] != "greater") return;  // too old: another story
    current = "gcc " + std::to_string(major_of(f.captures[0]));
  } else if (cc.rfind("GNU ", 0) == 0) {
    current = "gcc " + std::to_string(major_of(cc.substr(4)));
  }
  std::string head = (current.empty() ? std::string("the host gcc") : current) + " is newer than " +
                     (cuda.empty() ? std::string("this CUDA toolkit") : "CUDA " + cuda) + " allows (<= " +
                     std::to_string(gcc_max) + ")";
  if (!facts) { f.fix = head + ". " + f.fix; return; }
  const CompilerFacts* best = compat::newest_gcc(*facts, 0, gcc_max);
  if (!best) {
    f.fix = head + "; no installed gcc <= " + std::to_string(gcc_max) + " was found: " +
            compat::install_gcc_advice(gcc_max) + ", or use a newer CUDA toolkit.";
    return;
  }
  int m = best->version.parsed() ? best->version.parsed()->major() : 0;
  const std::string best_cc = best->cc.empty() ? best->cxx : best->cc;  // a user's $CXX alone has no C driver
  f.fix = head + "; gcc-" + std::to_string(m) + " is installed at " + best_cc + ": set CUDAHOSTCXX=" + best->cxx +
          " (and CC=" + best_cc + " CXX=" + best->cxx + "), then reconfigure.";
  f.remedy.kind = RemedyKind::switch_host_compiler;
  f.remedy.env["CC"] = best_cc;
  f.remedy.env["CXX"] = best->cxx;
  f.remedy.env["CUDAHOSTCXX"] = best->cxx;
  f.notes.push_back("gcc-" + std::to_string(m) + " " + best->version + " at " + best_cc);
}

// The log's arch list, in TORCH_CUDA_ARCH_LIST spelling ("8.0;8.6"), from any form it was printed in.
std::string log_arch_list(const std::string& text) {
  if (text.empty()) return "";
  if (auto l = ArchList::parse(text)) return l->torch_cuda_arch_list();
  std::vector<CudaArch> arches;  // "-gencode;arch=compute_80,code=sm_80;..."
  re2::StringPiece in(text);
  std::string num;
  static const RE2 sm(R"(sm_([0-9]+[af]?))");
  while (RE2::FindAndConsume(&in, sm, &num))
    if (auto a = CudaArch::parse(num)) arches.push_back(*a);
  if (arches.empty()) return text;
  return ArchList(arches).torch_cuda_arch_list();
}

// The GPUs' capabilities vs the arch list the build used.
void arch_list(Finding& f, const Diagnosis& d, const HostFacts* facts, const kb::Kb* kb) {
  if (!facts) return;
  std::vector<CudaArch> gpus;
  std::string names;
  for (const auto& g : facts->gpus) {
    const auto& a = g.compute_capability;
    if (!a) continue;
    if (std::find(gpus.begin(), gpus.end(), *a) == gpus.end()) gpus.push_back(*a);
    if (names.empty()) names = g.name;
  }
  if (gpus.empty()) return;
  std::string cuda = cuda_version(d, facts);
  const kb::CudaRelease* rel = kb && !cuda.empty() ? kb->find_cuda(cuda) : nullptr;
  std::vector<CudaArch> target;
  std::vector<std::string> notes;
  for (const auto& g : gpus) {
    CudaArch t = g;
    if (rel && !rel->arches.empty()) {
      // The toolkit may not know this GPU: the newest arch it knows below it, with PTX for JIT.
      bool known = false;
      std::optional<CudaArch> below;
      for (const auto& s : rel->arches)
        if (std::optional<CudaArch> a = s) {  // parsed when the KB loaded
          if (a->same_capability(g) && !a->suffix) known = true;
          if (!a->suffix && *a < g && (!below || *below < *a)) below = *a;
        }
      if (!known && below) {
        t = *below;
        t.ptx = true;
        notes.push_back("CUDA " + cuda + " cannot compile for " + g.capability() + "; " + t.str() +
                        " runs there through PTX JIT (a newer toolkit gives native code)");
      }
    }
    target.push_back(t);
  }
  std::string want = ArchList(target).torch_cuda_arch_list();
  std::string was = log_arch_list(d.log_facts.arch_list);
  std::string gpu_caps;
  for (const auto& g : gpus) gpu_caps += (gpu_caps.empty() ? "" : ", ") + g.capability();
  f.fix = "This GPU is " + gpu_caps + (names.empty() ? "" : " (" + names + ")") +
          (was.empty() ? "" : ", the arch list was " + was) + ": set TORCH_CUDA_ARCH_LIST=\"" + want +
          "\" and rebuild. " + f.fix;
  f.remedy.env["TORCH_CUDA_ARCH_LIST"] = want;
  for (auto& n : notes) f.notes.push_back(n);
}

// The arch nvcc refused, against the toolkits that compile for it (cuda.toml, rule gpu.toolkit): the
// span says whether the toolkit that refused it is too old for it or already dropped it, and which
// toolkits to build with. The log's own CUDA release (nvcc --version, CMake) places it in the span.
void arch_range(Finding& f, const Diagnosis& d, const kb::Kb* kb) {
  if (!kb || f.id != "NVCC_UNSUPPORTED_GPU_ARCH") return;
  std::optional<CudaArch> arch;
  std::uint64_t line = 0;
  for (const auto& e : f.evidence)
    for (const auto& en : entities_of(e.text))
      if (en.kind == "arch" && !arch)
        if ((arch = CudaArch::parse(en.value))) line = e.line;
  if (!arch) return;
  const compat::ArchSpan span = compat::arch_span(*kb, *arch);
  const std::string name = arch->compute();
  if (span.describe().empty()) {
    f.notes.push_back(name + " (line " + std::to_string(line) + ") is compiled by no CUDA toolkit the KB lists (cuda.toml, rule " +
                      compat::kArchToolkitRule + "): check the spelling of the arch list");
    return;
  }
  const std::string span_text = (span.still_supported ? "" : "in ") + span.describe();  // "since CUDA 11.1", "in CUDA 6.0 to 11.8"
  std::string where;
  if (auto cuda = Version::parse(d.log_facts.cuda_version)) {
    if (span.first && *cuda < *span.first) where = "; the CUDA " + cuda->major_minor() + " here is older than that";
    else if (!span.still_supported && span.hi && *cuda > span.hi->version) where = "; the CUDA " + cuda->major_minor() + " here no longer has it";
  }
  f.fix = "nvcc compiles for " + name + " " + span_text + where + ": build with a toolkit in that range, or take " +
          arch->str() + " out of the arch list. " + f.fix;
  f.notes.push_back(name + " (line " + std::to_string(line) + ") is compiled by nvcc " + span_text + " (cuda.toml, rule " +
                    compat::kArchToolkitRule + (span.first_source.empty() ? "" : ", source " + span.first_source) + ")");
}

// Out of memory: the job count this machine's memory carries, by the KB's per-job model.
void job_count(Finding& f, const HostFacts* facts, const kb::Kb* kb, std::uint64_t budget) {
  if (!facts || !kb) return;
  const bool nvcc = runs_in_nvcc_job(f.sig->tool);
  const compat::JobCost cost = compat::job_cost_of(kb->resources, nvcc);
  const double per_job = cost.gib;
  const compat::UsableMemory mem = compat::usable_memory(facts->memory, budget);
  std::uint64_t bytes = mem.bytes;
  if (per_job <= 0 || bytes == 0) return;
  const double gib = static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0);
  const int jobs = compat::jobs_for_memory(bytes, mem.what, compat::usable_cores(facts->cpu), cost).jobs;
  char buf[200];
  std::snprintf(buf, sizeof buf, "%s %.1f GiB%s; at about %.1f GiB per %s job that is %d job%s: set MAX_JOBS=%d",
                budget ? "The build may use" : "This machine has", gib, budget ? " (--mem-budget)" : " usable", per_job,
                nvcc ? "nvcc" : "C++ compile", jobs, jobs == 1 ? "" : "s", jobs);
  f.fix = std::string(buf) + (nvcc ? " and NVCC_THREADS=1. " : ". ") + f.fix;
  f.remedy.env["MAX_JOBS"] = std::to_string(jobs);
  f.notes.push_back(std::string("per-job memory from the KB resource model (resources.toml), rule ") + compat::kJobsRule);
}

// Python.h missing where the evidence is under an embeddable Python distribution (ComfyUI's
// python_embeded, python-3.x-embed-amd64): that distribution ships no include/ (or libs/), so no
// -dev package helps (python.org's Windows notes; triton-windows' README, "embeded Python").
void embedded_python(Finding& f) {
  auto embedded = [](const std::string& t) {
    return t.find("python_embeded") != std::string::npos || t.find("python_embedded") != std::string::npos ||
           t.find("-embed-") != std::string::npos || t.find("-embed\\") != std::string::npos || t.find("-embed/") != std::string::npos;
  };
  const Evidence* hit = nullptr;
  for (const auto* v : {&f.evidence, &f.context})
    for (const auto& e : *v)
      if (!hit && embedded(e.text)) hit = &e;
  if (!hit) return;
  f.fix = "The Python here is an embeddable distribution, which ships no include/ and libs/ folders: copy "
          "them from a full installation of the same Python version into its folder (next to python.exe). " + f.fix;
  f.notes.push_back("header Python.h is provided by the Python installation's include/, which an embeddable Python "
                    "lacks (line " + std::to_string(hit->line) + " is under one)");
}

}  // namespace

void specialize(Diagnosis& d, const HostFacts* facts, const kb::Kb* kb, std::uint64_t mem_budget_bytes) {
  for (auto& f : d.findings) {
    if (!f.sig) continue;
    const Specializer how = f.sig->specialize;
    if (how == Specializer::embedded_python) embedded_python(f);
    if (how == Specializer::nvcc_gcc_max || how == Specializer::compiler_bounds) host_compiler(f, d, facts, kb);
    else if (f.remedy.kind == RemedyKind::shorten_arch_list) {
      arch_list(f, d, facts, kb);
      arch_range(f, d, kb);
    }
    else if (f.remedy.kind == RemedyKind::halve_jobs) job_count(f, facts, kb, mem_budget_bytes);
  }
}

}  // namespace ts::triage
