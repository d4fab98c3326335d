#pragma once
// Extension packages (torchvision, detectron2, flash-attn, a local C++ extension) planned against a
// torch that is already installed in a chosen Python: the contract check (src/plan/contract.h)
// first, then the exact environment, the steps (fetch, build without isolation, repair, verify)
// and the wheel expected. Pure: the source tree's facts come in a SourceScan read beforehand.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/host_facts.h"
#include "kb/kb.h"
#include "plan/cxx_std.h"
#include "plan/scale_step.h"
#include "plan/plan.h"
#include "plan/provision_request.h"
#include "plan/recipe.h"
#include "source/fix.h"

namespace ts::plan {

struct BuildKb;

// What the requirement names: a directory, a git URL at a ref, or a package at a version.
struct ExtensionSource {
  enum class Kind { dir, git, name };
  Kind kind = Kind::dir;
  std::string dir;            // Kind::dir: the path as given
  std::string url, ref;       // Kind::git
  std::string name;           // Kind::name: "torch-scatter"; also guessed for the others
  FactVersion version;        // Kind::name: "2.1.0", parsed with the requirement
};

// True when `text` asks for an extension rather than torch: a path, URL@REF, or NAME==VERSION
// whose name is not torch.
bool is_extension_requirement(std::string_view text);
// nullopt and *error ("'x==': ... (write NAME==VERSION, a directory or URL@REF)") when unreadable.
std::optional<ExtensionSource> parse_extension_source(std::string_view text, std::string* error);

// What a source tree shows before anything is built (read by scan_source_dir).
struct SourceScan {
  bool scanned = false;           // false: no tree to look at (a URL or a name: the recipe decides)
  std::string name;               // setup.py / pyproject name= ("" when not found)
  FactVersion version;            // a literal __version__ = / version= in setup.py or pyproject, parsed as read
  bool setup_py = false, pyproject = false, cmake_lists = false;
  bool cuda_sources = false;      // *.cu / *.cuh files
  int cu_files = 0;               // *.cu files (compile units; headers not counted)
  bool cuda_extension = false;    // setup.py uses CUDAExtension
  bool cpp_extension = false;     // setup.py uses CppExtension (a CPU path exists)
  bool ninja_off = false;         // setup.py passes use_ninja=False to torch's BuildExtension
  // setup.py builds no extension: no ext_modules, no Extension(...) call, no cmdclass, nvcc or cmake of its
  // own, and no CMake build (equi-pose's models/setup.py: a pure-Python vgtk wheel, while the tree's .cu
  // files are vgtk/setup.py's): its wheel holds no compiled code, whatever CUDAExtension it imports.
  bool no_extension = false;
  std::vector<std::string> pyproject_requires;  // [build-system] requires, as written
  // setup.cfg's [options] setup_requires, as written (pyronn-torch's `pyscaffold>=3.2a0,<3.3a0`): setuptools
  // fetches what the build lacks when setup() runs, which an offline build without isolation cannot.
  std::vector<std::string> setup_requires;
  // What setup.py does to its own build (scan_build_switches), read so the plan can repair it:
  bool gpu_check = false;               // asks torch.cuda about a GPU (is_available, capability, ...)
  bool own_arches = false;              // writes TORCH_CUDA_ARCH_LIST or passes -gencode/-arch flags
  bool own_includes = false;            // passes -I/-isystem flags of its own (relative ones break under ninja)
  // Compiler variables it writes (flame-1's rasterizer: `os.environ["CC"] = os.environ["CXX"] = "gcc-8"`;
  // LDSHARED/LDCXXSHARED, the command lines distutils links with),
  // each once with its first line: ("CC", "setup.py:6: os.environ[\"CC\"] = ..."), for build.host-compiler.
  std::vector<std::pair<std::string, std::string>> own_compiler_env;
  // Build tools it runs itself (pytorch_winoconv's `os.system('make -j%d' % os.cpu_count())`, a bare
  // nvcc), each once with its first line: ("make", "setup.py:5: os.system(...)"), for build.tool-flags.
  std::vector<std::pair<std::string, std::string>> build_tool_calls;
  std::vector<StdFlag> std_flags;       // -std=c++14 / gnu++1z, in order, once each, with the standard each names
  int setup_calls = 0;                  // setup(...) statements at the top level or of an `if __name__ == "__main__":` block (2+: one wheel cannot hold them)
  // Flags it removes from distutils' compiler command lists (motion-sparsity's
  // `self.compiler.compiler_so.remove('-Wstrict-prototypes')`), in order, once each.
  std::vector<std::string> compiler_flag_removals;
  // setup.py names a .cu file, or finds its sources (glob, listdir, walk): false when it builds none of
  // the tree's .cu files (fusedconvglu's CUDAExtension lists convtbcglu.cpp alone beside cudnnconvTBC.cu).
  bool setup_names_cu = true;
  std::vector<std::string> env_switches;  // variables it reads (os.environ.get / getenv / [..] / in / expandvars)
  // Command-line flags naming CUDA that setup.py looks for in sys.argv and removes before setup() parses
  // it (neuralnet-pytorch's `if '--cuda-ext' in sys.argv: ... sys.argv.remove("--cuda-ext")`, apex's
  // --cuda_ext): without one it builds no CUDA extension.
  std::vector<std::string> cuda_argv_flags;
  std::vector<std::string> include_env;   // of those, the ones it takes an include directory from ('$CUDA_SAMPLES_INC')
  // Of those, the ones it reads with no default (os.getenv('NCCL_HOME'), os.environ['CUDNN_PATH']), unset
  // None or a KeyError: (name, "setup.py:6: NCCL_HOME = os.getenv('NCCL_HOME')"), by scan_env_without_default.
  std::vector<std::pair<std::string, std::string>> env_no_default;
  std::vector<std::string> ext_modules;   // modules its extensions install as ("_ext", "pointnet2._ext"; ext_package's prefix too), in order
  // A CMake build driven from Python (scan_cmake_build): which driver, and what its CMake files or
  // its cmake arguments fix themselves that the plan must win over, each as "FILE:LINE: text".
  std::string cmake_driver;                    // "scikit-build-core", "scikit-build", "setup.py", "cmake" (no Python build) or ""
  std::vector<std::string> cmake_own_arches;   // set(CMAKE_CUDA_ARCHITECTURES 35 50), -gencode, ...
  // Compilers and toolkit paths its CMake files (or its cmake args) fix to literal values of the author's
  // machine (sphconv's `set(CMAKE_CUDA_COMPILER /usr/local/cuda-10.2/bin/nvcc)` ahead of project()), each
  // once with its first line: ("CMAKE_CUDA_COMPILER", "CMakeLists.txt:3: set(...)"), for build.cmake-toolchain.
  std::vector<std::pair<std::string, std::string>> cmake_own_toolchain;
  // find_package(Torch): against a CUDA torch, torch's Caffe2/public/cuda.cmake runs enable_language(CUDA),
  // so configure needs nvcc even when the package has no CUDA code.
  bool cmake_finds_torch = false;
  std::string cmake_finds_torch_at;  // its first line: "CMakeLists.txt:16: find_package(Torch REQUIRED)"
  std::vector<std::pair<int, std::string>> cmake_stds;  // (14, "CMakeLists.txt:3: set(CMAKE_CXX_STANDARD 14)")
  std::vector<std::pair<std::string, std::string>> cmake_fetches;  // ("pybind11", "cmake/pybind11.cmake:33: FetchContent_Declare(pybind11")
  std::vector<std::string> py_packages;   // the tree's top-level Python packages and modules (not setup.py)
  // Extensions another setup.py of the tree builds that the package's Python imports (FRNN's
  // external/prefix_sum): (module, that setup.py's path relative to the tree). This build makes none.
  std::vector<std::pair<std::string, std::string>> sibling_extensions;
  // Sources a script beside setup.py writes and setup.py does not run (fairseq's lightconv_layer:
  // cuda_function_gen.py writes the lightconv_cuda_forward.cu its kernel #includes): (script, files
  // it writes that a source of that directory includes and the tree lacks), for build.generate-sources.
  std::vector<std::pair<std::string, std::vector<std::string>>> generated_sources;
  // #include paths with a folder ("cutlass/gemm/device/gemm.h") that no file of the tree provides (no
  // header whose path is or ends with it, third_party/ included): (path, "FILE:LINE: #include ..."), the
  // first use of each, for build.header-wheel; found by scan_unshipped_includes.
  std::vector<std::pair<std::string, std::string>> unshipped_includes;
  std::string smoke;              // the tree's own smoke.py (used when no recipe in the KB has one)
  // A binding whose setup.py links a library its parent directory's CMake project builds (warp-ctc's,
  // warp-transducer's pytorch_binding: libwarprnnt.so from ../build), read by scan_parent_library.
  struct ParentLibrary {
    std::string target;      // the add_library name: "warprnnt"
    std::string declared;    // "../CMakeLists.txt:97: CUDA_ADD_LIBRARY(warprnnt SHARED src/rnnt_entrypoint.cu)"
    std::string referenced;  // "setup.py:33: if not os.path.exists(os.path.join(warp_rnnt_path, ..."
    std::string env_var;     // the variable setup.py takes the library's directory from ("" when none)
    std::string lib_dir;     // the directory it looks in by default ("../build"; "" when none is written)
  };
  std::optional<ParentLibrary> parent_library;
  // Its Python reads its own distribution's version as a number ("FILE:LINE: text"; InternImage's
  // `float(pkg_resources.get_distribution('DCNv3').version)`), which a '+local' label breaks.
  std::vector<std::string> own_version_numeric;
  // The top-level modules setup.py imports at its top level, each with its first line:
  // ("pkg_resources", "setup.py:10: import pkg_resources"), for build.removed-module.
  std::vector<std::pair<std::string, std::string>> build_imports;
  // setuptools_scm gives the package its version (build.scm-version), read by scan_scm_use: where the build
  // asks it ("setup.py:30: setup(use_pyscaffold=True,", "pyproject.toml:9: [tool.setuptools_scm]"), "" when
  // nowhere; whether it has a fallback_version of its own; whether the tree's top holds the VCS metadata it
  // reads (.git, .hg: the build's copy keeps them); and the Version: of a PKG-INFO there (an sdist's).
  std::string scm_use;
  bool scm_fallback = false;
  bool vcs_metadata = false;
  std::string pkg_info_version;
};

// Reads a directory's build files (setup.py, pyproject.toml, CMakeLists.txt) and looks for .cu
// sources (depth-limited, .git and build dirs skipped). Never throws; *error when dir is unusable.
SourceScan scan_source_dir(const std::string& dir, std::string* error);
// Which extensions the nested `setups` of the tree build that its own packages import (s.py_packages,
// s.ext_modules already read): into s.sibling_extensions.
void scan_sibling_extensions(const std::filesystem::path& root, const std::vector<std::filesystem::path>& setups,
                             SourceScan& s);
// The sources a script of setup.py's directory generates (open("x.cu", "w") in a script with a
// __main__ block) that a C/C++/CUDA file there #includes and the directory lacks: into s.generated_sources.
void scan_generated_sources(const std::filesystem::path& root, SourceScan& s);
// The C/C++/CUDA sources of the tree against its headers: into s.unshipped_includes.
void scan_unshipped_includes(const std::filesystem::path& root, SourceScan& s);
// The build switches of one setup.py's text (comment lines skipped), into s (extension_build_scan.cpp).
void scan_build_switches(const std::string& setup_py, SourceScan& s);
// One Python file of the tree (`rel`: its path in the tree): where it converts the installed version of
// the distribution s.name to a number (float/int/map(int, ...)), into s.own_version_numeric.
void scan_own_version_use(const std::string& rel, const std::string& text, SourceScan& s);
// Where the build takes its version from setuptools_scm (pyproject's [tool.setuptools_scm], setup.py's
// use_scm_version or use_pyscaffold, a setup_requires naming setuptools_scm; comment lines skipped) and
// whether it gives a fallback_version: into s.scm_use and s.scm_fallback.
void scan_scm_use(const std::string& setup_py, const std::string& pyproject, const std::vector<std::string>& setup_requires,
                  SourceScan& s);
// The modules setup.py imports (`import a.b, c`, `from a import b`; comment lines skipped, relative
// imports not), into s.build_imports.
void scan_build_imports(const std::string& setup_py, SourceScan& s);
// setup.py's reads of an environment variable with no default (getenv/environ.get of one argument,
// environ[...] not assigned to), into s.env_no_default; a read with a default is not one.
void scan_env_without_default(const std::string& setup_py, SourceScan& s);
// A binding's setup.py (its text) against its parent directory's CMakeLists.txt (parent_cmake): the
// add_library target setup.py links by name (lib<NAME>, libraries=['NAME']) or, the parent building
// one library, through a ../build directory; into s.parent_library (nothing when setup.py needs none).
void scan_parent_library(const std::string& parent_cmake, const std::string& setup_py, SourceScan& s);
// The CMake side of a tree (extension_cmake_scan.cpp): its driver (the pyproject's backend,
// skbuild's setup(), a setup.py that runs cmake), hard-coded CUDA arches and language standards.
void scan_cmake_build(const std::string& dir, const std::string& setup_py, const std::string& build_backend,
                      const std::string& pyproject, SourceScan& s);

// NAME==VERSION's source archive on the package index, looked up by the caller (the planner stays
// offline): found, or why not.
struct SdistLookup {
  bool asked = false;         // the index was asked (not for --source git)
  std::string url, filename, sha256, index;
  long long size = -1;
  std::string error;          // "" when found
  bool found() const { return asked && error.empty() && !url.empty(); }
};

struct ExtensionRequest {
  ExtensionSource source;
  std::string source_kind;   // --source for NAME==VERSION: "" (auto: the sdist when there is one), git, sdist
  SdistLookup sdist;
  SourceScan scan;
  std::string torch_python;  // --torch: the interpreter whose torch is the target ("" = the host's)
  std::string arch;          // --arch: "" = native (the GPUs here), or numbers / family names
  std::string arch_origin = "default";
  std::optional<Version> cuda;  // --cuda X.Y (checked with the request): which nvcc; none = the installed one matching torch's major
  bool cpu = false;          // --without cuda: build the CPU part only
  int jobs = 0;              // 0 = from memory
  int split_compile = -1;    // --split-compile: -1 = auto (speed_split.h), 1 = off, N = threads per CUDA compile
  std::vector<std::pair<std::string, std::string>> env;  // --env KEY=VALUE: the package's own build switches
  // --wheelhouse DIR (absolute) and the distributions its wheels hold (PEP 503 names): the build
  // overlay and verify take their requirements from there only.
  std::string wheelhouse;
  struct HouseWheel {
    std::string name;
    FactVersion version;  // from the file name, parsed as the directory is read
    std::string file;
  };
  std::vector<HouseWheel> wheelhouse_wheels;
  std::uint64_t mem_budget_bytes = 0;
  std::string source_dir;    // the absolute tree for Kind::dir ("" = from source.dir)
  // Where `scan` was read for a URL@REF or NAME==VERSION (the tree fetched into the cache at plan
  // time, as a directory is read), or why it could not be ("" when it was not tried).
  std::string scanned_from, scan_error;
  // What may be provisioned and where (--toolkit, the cache): null = installed toolkits only.
  const ProvisionContext* provision = nullptr;
  const BuildKb* build_kb = nullptr;  // build.toml (a missing backend's own requirements); null = none
  ScaleProbe scale;  // --cache / --distribute (scale_step.h): empty = none
};

// The Python whose torch is the target: --torch's path, else the first Python with torch.
const PythonFacts* target_python(const HostFacts& facts, const std::string& torch_python);

// The recipe for a request: by name (NAME==VERSION or the tree's name), by git URL, else nullptr.
const Recipe* find_recipe(const RecipeSet& set, const ExtensionRequest& req);

// The plan. `fixes` may be null (no fix KB: arches torch does not know become conflicts).
PlanResult make_extension_plan(const ExtensionRequest& req, const HostFacts& facts, const kb::Kb& kb,
                               const Recipe& recipe, const source::FixSet* fixes);

// Text output: a summary (or the conflicts), --explain, and the sh form, headed by the package.
std::string render_extension_summary(const PlanResult& r);
std::string render_extension_explain(const PlanResult& r);
std::string render_extension_sh(const Plan& p);

}  // namespace ts::plan
