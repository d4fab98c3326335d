#pragma once
// Every check `torchsmith verify` reports, in one table: its id (the report's "check", unchanged in
// --json), what it reads, the worst outcome it gives, and what it proves. A check's verdicts are
// made through this table (`verdict(Check, ...)`), and readers of a report ask it for an id, so a
// new check is a row here plus the code that judges it (ccache's config-key table is the model).
#include <span>
#include <string>
#include <string_view>

#include "verify/verdict.h"

namespace ts::verify {

// What a check looks at: the ELF bytes, the wheel archive and its metadata, a Python that imports
// torch (and the package), pip and the package index, or a GPU through torch.
enum class Reads { elf, wheel, python, pip, gpu };
const char* reads_name(Reads r);  // "elf", "wheel", "python", "pip", "gpu"

// X(enumerator, id, named, reads, worst outcome, description). A named check's id is the fixed part
// followed by a name: "dependency " + "scipy", "gpu cuda:" + "1".
#define TS_VERIFY_CHECKS(X) \
  X(elf, "elf", false, elf, fail, "the file reads as ELF; its kind and SONAME") \
  X(needed, "needed", false, elf, fail, \
    "every NEEDED resolves (RPATH/RUNPATH, the loader's paths, --preload)") \
  X(symbol_versions, "symbol versions", false, elf, note, \
    "the newest GLIBC_, GLIBCXX_ and CXXABI_ versions it needs") \
  X(cuda_arches, "cuda arches", false, elf, fail, \
    "the fatbin's SASS and PTX cover the arch list asked for") \
  X(cuda_runtime, "cuda runtime", false, elf, fail, \
    "the libcudart it needs is of the imported torch's CUDA major") \
  X(cuda_code, "cuda code", false, elf, fail, \
    "the CUDA release that compiled its fatbin is of torch's CUDA major") \
  X(wheel, "wheel", false, wheel, fail, \
    "the wheel opens, its RECORD is true and its libraries extract") \
  X(wheel_metadata, "wheel metadata", false, wheel, fail, \
    "the wheel's METADATA and top-level modules read") \
  X(modules, "modules", false, wheel, note, \
    "no plan's module in the wheel: its own top-level modules are imported") \
  X(library, "library ", true, wheel, note, \
    "an op library the package loads itself, not imported") \
  X(install, "install", false, python, fail, \
    "the wheel installs into a directory only the check sees") \
  X(dependencies, "dependencies", false, pip, fail, \
    "the wheel's runtime dependencies install together") \
  X(dependency, "dependency ", true, pip, fail, \
    "one Requires-Dist (or recipe runtime_requires) installs here") \
  X(dependency_constraints, "dependency constraints", false, pip, note, \
    "what torch's binaries need, kept while installing") \
  X(python, "python", false, python, fail, \
    "the check script's Python ran to its end and reported") \
  X(import_torch, "import torch", false, python, fail, \
    "torch imports, from the installed wheel when one is checked") \
  X(torch_of_wheel, "torch of wheel", false, python, warn, \
    "the torch the wheel's version names (+pt113cpu) is here") \
  X(torch_facts, "torch facts", false, python, fail, "the script read torch's build facts") \
  X(torch_version, "torch version", false, python, fail, "torch's version is the plan's") \
  X(config, "config", false, python, fail, "torch.__config__.show() parses") \
  X(cuda, "cuda", false, python, fail, \
    "torch's CUDA is the plan's (an extension: the same major)") \
  X(cudnn, "cudnn", false, python, fail, \
    "torch has cuDNN when the plan builds with it, none when not") \
  X(arch_list, "arch list", false, python, fail, "torch's compiled-in arches are the plan's") \
  X(cxx11_abi, "cxx11 abi", false, python, fail, "torch's _GLIBCXX_USE_CXX11_ABI is the plan's") \
  X(build_settings, "build settings", false, python, fail, \
    "the plan's CMake options torch records (USE_*) are as planned") \
  X(import_module, "import ", true, python, fail, \
    "the package's module imports, from the installed wheel") \
  X(load_module, "load ", true, python, fail, \
    "a compiled module loads from its file alone, its package's __init__ not run (after its import failed)") \
  X(needs_module, "needs ", true, python, fail, \
    "a module the smoke code imports, which the wheel does not make, is installed here") \
  X(smoke, "smoke", false, python, fail, "the plan's smoke code runs on the CPU") \
  X(gpu, "gpu", false, gpu, note, "the GPU checks were not asked for (--gpu)") \
  X(gpu_devices, "gpu devices", false, gpu, fail, "torch sees the GPUs a CUDA build needs") \
  X(gpu_arch, "gpu arch", false, gpu, fail, "every GPU here runs some compiled-in arch") \
  X(gpu_randn, "gpu randn", false, gpu, fail, \
    "a float16 randn on the GPU is finite and of the asked shape") \
  X(gpu_matmul, "gpu matmul", false, gpu, fail, "a matmul on the GPU matches the CPU's") \
  X(gpu_device, "gpu cuda:", true, gpu, fail, "a tensor moved to this GPU and back is intact") \
  X(gpu_smoke, "gpu smoke", false, gpu, fail, "the plan's smoke code runs on the GPU")

enum class Check {
#define TS_VERIFY_CHECK_ENUM(e, id, named, reads, worst, description) e,
  TS_VERIFY_CHECKS(TS_VERIFY_CHECK_ENUM)
#undef TS_VERIFY_CHECK_ENUM
};

struct CheckInfo {
  Check check;
  std::string_view id;           // a named check's fixed part ("dependency ")
  bool named;                    // the id is followed by a name (a module, a dependency, a GPU)
  Reads reads;
  Outcome worst;                 // the worst outcome it gives: a note-only check never fails verify
  std::string_view description;  // what a pass proves
  std::string_view enumerator;   // "torch_of_wheel": the Check it is (tests find its uses by it)
};

std::span<const CheckInfo> check_table();
const CheckInfo& check_info(Check c);

// The row a report's check id belongs to: an exact id, else the named check it starts with
// ("dependency scipy" -> dependency). nullptr for an id no check makes.
const CheckInfo* find_check(std::string_view id);
// Whether a report's check id is this check's ("dependency scipy" is Check::dependency).
bool is_check(std::string_view id, Check c);

// A check as a report names it: the id, and a named check's name.
struct CheckName {
  Check check;
  std::string name;  // only for a named check
  CheckName(Check c) : check(c) {}  // NOLINT: a plain check reads as its Check
  CheckName(Check c, std::string n) : check(c), name(std::move(n)) {}
  std::string id() const;  // "cuda arches", "dependency scipy"
};

Verdict verdict(std::string file, const CheckName& c, Outcome o, std::string detail);

}  // namespace ts::verify
