#pragma once
// BuildKb: data/kb/build.toml, how each torch release line is built (commands, features and their
// dependencies, official arch lists, environment variables read, RPATHs, docker images). The core
// KB loader leaves this file to the plan stage; the same overlay rules apply (a later entry with
// the same key replaces an earlier one).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/version.h"
#include "core/version_range.h"
#include "kb/kb.h"
#include "kb/table.h"

namespace ts::plan {

struct Invocation {
  VersionRange torch;                // range over the torch version (parsed when the KB loads)
  std::string package;               // wheel, conda, libtorch
  std::vector<std::string> command;  // {python} {dist} {build} are filled by the plan
  std::string source;
  kb::Origin origin;
};

struct Feature {
  std::string name;                // "cudnn" (what --with/--without take)
  std::string option;              // "USE_CUDNN"
  bool default_on = true;
  std::vector<std::string> needs;  // feature names that must be on
  VersionRange torch;              // range where the option exists; any = every release
  std::string source;
  kb::Origin origin;
};

struct PortableList {
  Version cuda;        // "11.8"
  VersionRange torch;  // any = every release
  std::string arches;  // TORCH_CUDA_ARCH_LIST form
  std::string source;
  kb::Origin origin;
};

struct EnvVar {
  std::string name;
  VersionRange torch;  // any = every release
  std::string source;
  kb::Origin origin;
};

struct Rpath {
  std::string package;
  std::vector<std::string> files;
  std::string rpath;
  std::string source;
};

struct Image {
  Version cuda;                   // "11.7"
  std::vector<Version> versions;  // tags: "11.7.0", "11.7.1" (.original() as written)
  std::string cudnn;                  // "8"; "" = no cuDNN variant in the tag
  std::vector<std::string> os;        // "ubuntu18.04"
  std::string source;
  kb::Origin origin;
};

// What to tell a user whose build lacks a library, per CPU architecture (MKL and magma-cuda
// packages exist for x86-64 only). {cuda_tag} in the advice is "cuda118" for the chosen CUDA.
struct LibraryAdvice {
  std::string library;   // "mkl", "magma"
  std::string cpu;       // "x86_64", "aarch64" (CpuFacts::arch)
  std::string advice;    // the way to get it, or what replaces it on this CPU
  bool absent_is_normal = false;  // no such package for this CPU: not having it is no warning
  std::string source;
  kb::Origin origin;
};

// A PEP 517 build backend a package's pyproject may name, with what it imports at build time (its
// own [project] dependencies, markers kept for pip): installed with it into the build overlay.
struct BuildBackend {
  std::string name;                   // "scikit-build-core" (the distribution, as requires writes it)
  std::vector<std::string> needs;  // "pathspec>=0.10.1", "tomli>=1.2.2; python_version<'3.11'"
  std::string source;
  kb::Origin origin;
};

// A package's own environment variable for a well-known library's location (NCCL_HOME, CUDNN_PATH): what
// it means and where the plan finds a value when the package reads it with no default (build.lib-env).
struct PackageEnv {
  std::string name;     // "NCCL_HOME"
  std::string library;  // "nccl", "cudnn" (HostFacts' library names) or "cuda" (the plan's toolkit)
  std::string points;   // "prefix" (the directory holding include/ and lib/), "include" or "lib"
  std::string meaning;  // in words, for the decision
  std::string source;
  kb::Origin origin;
};

// Headers a package #includes and does not ship, which a PyPI distribution carries (CUTLASS in
// nvidia-cutlass): installed into the build overlay with --no-deps, its include folders on the build's
// CPATH (build.header-wheel).
struct HeaderWheel {
  std::string header;                 // the folder every such include starts with: "cutlass/"
  std::string distribution;           // "nvidia-cutlass" (as pip names it)
  std::vector<std::string> include;   // folders inside the installed distribution: "cutlass_library/source/include"
  std::string source;
  kb::Origin origin;
};

// A module a build script imports that a release of the distribution shipping it removed
// (build.removed-module): the target Python's distribution at or past removed_in gets `requirement`
// (a release that still has it) into the build overlay.
struct RemovedModule {
  std::string module;        // "pkg_resources"
  std::string distribution;  // "setuptools"
  Version removed_in;        // 82.0.0
  std::string requirement;   // "setuptools<82"
  std::string source;
  kb::Origin origin;
};

// A module a build script may import that a PyPI distribution installs ("pybind11" -> pybind11,
// "yaml" -> pyyaml): modules.toml's [[module]] entries that name a build-time dependency, which the
// command fills in from that table (cli/knowledge.cpp), so the plan and triage read one table.
struct BuildModule {
  std::string module;        // "pybind11"
  std::string distribution;  // "pybind11"
  std::string source;        // "data/kb/modules.toml:29; https://pybind11.readthedocs.io/..."
};

// Headers no toolkit, system or PyPI package ships, which a public repository keeps in one folder
// (the CUDA samples' Common/ helpers): each file pinned by the commit and its sha256. When a build
// stops on one of them, the run brings the folder's listed files into torchsmith's cache (from
// TORCHSMITH_HEADER_SOURCE_MIRROR, else the repository's raw files at the commit), copies them into the
// build's copy of the source (journaled) and puts them on CPATH (build.header-source, run/header_source.h).
struct HeaderSource {
  std::vector<std::string> headers;  // file names inside `path`: "helper_math.h"
  std::vector<std::string> sha256;   // one per header, in the same order
  std::string repository;            // "NVIDIA/cuda-samples"
  std::string tag;                   // "v13.0" (what a reader recognises; the commit is what is fetched)
  std::string commit;                // 40 hex digits
  std::string path;                  // the folder inside the repository: "Common"
  std::string source;
  kb::Origin origin;
};

// setuptools' legacy PEP 517 backend, which torchsmith's frontend (src/run/pyshim/torchsmith_pep517.py)
// calls for a tree whose pyproject names no build-backend, or that has only setup.py.
struct LegacyBackend {
  std::string module;                     // "setuptools.build_meta:__legacy__"
  std::optional<Version> setuptools_min;  // the first setuptools that has it: "40.8.0" (none: not known)
  std::string source;
  kb::Origin origin;
};

struct BuildKb {
  std::vector<Invocation> invocations;
  std::vector<Feature> features;
  std::vector<PortableList> portable;
  std::vector<EnvVar> env;
  std::vector<Rpath> rpaths;
  std::vector<Image> images;
  std::vector<LibraryAdvice> library_advice;
  std::vector<BuildBackend> backends;
  std::vector<PackageEnv> package_env;
  std::vector<HeaderWheel> header_wheels;
  std::vector<RemovedModule> removed_modules;
  std::vector<HeaderSource> header_sources;
  std::vector<BuildModule> build_modules;  // from modules.toml, not build.toml (see BuildModule)
  LegacyBackend legacy_backend;  // [legacy_backend]
  int max_arches = 8;
  std::string max_arches_source;
  kb::Origin limits_origin;

  const Invocation* invocation(const Version& torch_version, std::string_view package) const;
  const Feature* feature(std::string_view name) const;
  // Features whose option exists in this torch version, in file order.
  std::vector<const Feature*> features_for(const Version& torch_version) const;
  // The official list for this CUDA (major.minor); nullptr when the KB has none.
  const PortableList* portable_for(const Version& cuda, const Version& torch_version) const;
  const EnvVar* env_var(std::string_view name, const Version& torch_version) const;
  const Image* image(const Version& cuda) const;  // the image of this CUDA's major.minor
  // The advice for a missing library on this CPU; x86_64's when the CPU has no entry of its own.
  const LibraryAdvice* advice(std::string_view library, std::string_view cpu) const;
  // The backend of that (normalized) distribution name; nullptr when the KB has none.
  const BuildBackend* backend(std::string_view name) const;
  // The entry of a package's own library variable; nullptr when the KB has none.
  const PackageEnv* library_env(std::string_view name) const;
  // The entry whose folder an #include path starts with ("cutlass/gemm/device/gemm.h"); nullptr when none.
  const HeaderWheel* header_wheel(std::string_view include) const;
  // The entry of a top-level module a build script imports ("pkg_resources"); nullptr when none.
  const RemovedModule* removed_module(std::string_view module) const;
  // The distribution of a build-time module ("pybind11"); nullptr when modules.toml names none.
  const BuildModule* build_module(std::string_view module) const;
  // The entry that lists this header file name ("helper_math.h"); nullptr when none.
  const HeaderSource* header_source(std::string_view header) const;
};

// True when the version's public part ("2.4.1" of "2.4.1+cu121") is in range (any holds every version).
bool in_range(const VersionRange& range, const Version& version);

// The embedded build.toml, then DIR/build.toml of each overlay. Errors are "file:line: message".
BuildKb load_build_kb(const std::vector<std::string>& overlay_dirs, std::vector<std::string>& errors);
// One file's text merged into kb; returns false (and adds errors) when it has problems.
bool read_build_text(BuildKb& kb, std::string_view file_name, std::string_view text,
                     std::vector<std::string>& errors);

// build.toml as a KB table (kb/table.h), with kb check's validator.
void validate_build_file(std::string_view file, std::string_view text, std::vector<kb::KbError>& errors);
inline constexpr kb::TableDef<BuildKb> kBuildTable{{"build", "build.toml", &validate_build_file}, &load_build_kb};

}  // namespace ts::plan
