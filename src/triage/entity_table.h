#pragma once
// The entity tables triage reasons with (data/kb/headers.toml, modules.toml, triton.toml, ptx.toml,
// libstdcxx.toml, programs.toml, dependencies.toml, stdlib.toml, cuda_api.toml):
// what provides a header, what a missing Python module means in a build and at import, which Triton
// release first knows a GPU arch, which CUDA release first reads a PTX ISA version. Loaded beside the
// signatures (signature.h), each entry with its source; the rules that use them are in entity.h.
#include <string>
#include <string_view>
#include <vector>

#include "kb/table.h"

namespace ts::triage {

struct HeaderEntry {
  std::string header;  // "cudnn.h", or a folder "boost/" that every header under it shares
  std::string provider, kind, debian, pypi, conda, signature, source;
  std::string file;
  int line = 0;
};

struct ModuleEntry {
  std::string name;             // the top-level module ("torch", "yaml")
  std::string pypi;             // the distribution that installs it ("pyyaml")
  std::string build_signature;  // the cause when a package's build step lacks it
  std::string source;
  std::string file;
  int line = 0;
};

// A name a module's release removed: `cannot import name 'X' from 'M'` then means the installed M is
// that release or newer, while the code importing X was written for an older one.
struct RemovedName {
  std::string module;      // the top-level module ("huggingface_hub")
  std::string name;        // the name it no longer has ("cached_download")
  std::string removed_in;  // the release of the module (or of Python, for the standard library) that removed it
  std::string use;         // what replaces it, if anything
  std::string source;
  std::string file;
  int line = 0;
};

struct TritonArch {
  std::string arch;           // "sm_120"
  std::string first_triton;   // the first Triton release that compiles for it
  std::string ptxas;          // the CUDA release of the ptxas that release bundles for it
  std::string source;
  std::string file;
  int line = 0;
};

// An FP8 type Triton names (its IR's name) and the oldest compute capability its CUDA backend compiles it
// for: a kernel using it on an older GPU is refused ("type fp8e4nv not supported in this architecture").
struct TritonFp8 {
  std::string dtype;       // "fp8e4nv"
  std::string name;        // what users call it ("FP8 E4M3, torch.float8_e4m3fn")
  std::string capability;  // "8.9"
  std::string source;
  std::string file;
  int line = 0;
};

struct PtxIsa {
  std::string version;  // "8.4": the PTX file's `.version`
  std::string cuda;     // "12.4": the first CUDA release whose ptxas (and driver) reads it
  std::string source;
  std::string file;
  int line = 0;
};

// A GLIBCXX symbol version and the first GCC release whose libstdc++.so.6 exports it: a loader that
// did not find it loaded a libstdc++ older than that GCC.
struct GlibcxxVersion {
  std::string version;  // "3.4.32" (after GLIBCXX_)
  std::string gcc;      // "13.2.0"
  std::string source;
  std::string file;
  int line = 0;
};

// Something a build or run names and could not have: a program it starts (programs.toml, entity kind
// "program"), a library or package its finder looks for (dependencies.toml, kind "dependency") or a
// Python distribution an installer found no installable file of (dependencies.toml's [[distribution]],
// kind "distribution"). Its entry names what provides it and the cause; the tables differ only in how a
// name is written.
struct ProvidedEntry {
  std::string name;       // lower case: a program as run, without ".exe" ("nvcc", "cl"); a dependency as a finder prints it ("cudnn")
  std::string provider;   // what installs it (and, for a dependency, how the build finds it), in words
  std::string signature;  // the cause
  std::string source;
  std::string file;
  int line = 0;
};

// A vendor's tools named with a GNU target prefix (programs.toml's [[prefix]]): a program
// "x86_64-conda-linux-gnu-c++" is the program c++ of that target, and the vendor field of its triplet
// ("conda", "conda_cos6") says which packages install it.
struct TargetVendor {
  std::string vendor;    // the triplet's vendor field, or its start ("conda" covers conda_cos6)
  std::string provider;  // what installs the vendor's prefixed tools, in words
  std::string source;
  std::string file;
  int line = 0;
};

// A program named with a target prefix: the program it is, the prefix, and the prefix's vendor entry.
struct PrefixedProgram {
  const ProvidedEntry* program = nullptr;
  std::string prefix;                   // "x86_64-conda_cos6-linux-gnu"
  const TargetVendor* vendor = nullptr;  // nullptr: the table has no entry for the vendor
};

// A name of a library namespace and the header that declares it (stdlib.toml): a source that uses
// `std::NAME` (or `thrust::NAME`, `cub::NAME`) without including it gets that header force-included.
struct StdMember {
  std::string ns;        // the namespace as the source writes it: "std" (when absent), "thrust", "thrust::cuda"
  std::string name;      // "cout"
  std::string header;    // "iostream", "thrust/execution_policy.h"
  std::string compiler;  // "" = the host compiler and nvcc; "nvcc" = CUDA sources only (a header only nvcc's sources use)
  std::string source;
  std::string file;
  int line = 0;
};

// An entry point of a CUDA library that a CUDA release removed (cuda_api.toml): a compile error naming
// it as undeclared, or a link error naming its symbol, means the code was written for an older toolkit.
struct RemovedEntryPoint {
  std::string library;     // "cuSPARSE"
  std::string names;       // RE2 a removed name matches in full ("cusparse[SDCZ]gthr")
  std::string removed_in;  // the first CUDA release (MAJOR.MINOR) whose headers lack it
  std::string use;         // what replaces it
  std::string port;        // the source port that gives a compatibility definition ("" = none)
  std::string source, checked;
  std::string file;
  int line = 0;
};

struct EntityTables {
  std::vector<HeaderEntry> headers;
  std::vector<ModuleEntry> modules;
  std::vector<RemovedName> removed_names;
  std::vector<TritonArch> triton_arches;
  std::vector<TritonFp8> triton_fp8;
  std::vector<PtxIsa> ptx_isas;
  std::vector<GlibcxxVersion> glibcxx;
  std::vector<ProvidedEntry> programs;
  std::vector<ProvidedEntry> dependencies;
  std::vector<ProvidedEntry> distributions;
  std::vector<ProvidedEntry> extensions;  // a package whose compiled modules an import loads (dependencies.toml [[extension]])
  std::vector<ProvidedEntry> libraries;   // a library a linker is asked for by name, -lX (dependencies.toml [[library]])
  std::vector<TargetVendor> target_vendors;
  std::vector<StdMember> std_members;
  std::vector<RemovedEntryPoint> removed_entry_points;
  std::string triton_min_capability;  // "7.0": below it Triton compiles for no GPU
  std::string triton_min_capability_source;

  // The entry for an included name: its own, else the longest folder entry it is under.
  const HeaderEntry* find_header(std::string_view name) const;
  // The entry for a module ("torch.utils.cpp_extension" is torch's).
  const ModuleEntry* find_module(std::string_view name) const;
  // The entry for a name a module removed (module "huggingface_hub.file_download" is huggingface_hub's).
  const RemovedName* find_removed(std::string_view module, std::string_view name) const;
  // The entry for an arch ("sm_120a" is sm_120's).
  const TritonArch* find_triton_arch(std::string_view arch) const;
  // The entry for a Triton FP8 type ("fp8e4nv"), exactly.
  const TritonFp8* find_triton_fp8(std::string_view dtype) const;
  // The entry for a PTX ISA version ("8.4"), exactly.
  const PtxIsa* find_ptx_isa(std::string_view version) const;
  // The entry for a GLIBCXX version ("3.4.32"), exactly.
  const GlibcxxVersion* find_glibcxx(std::string_view version) const;
  // The entry for a name an entity of `kind` ("program", "dependency", "distribution" or "extension") carries, as a log
  // writes it: in any case ("CuDNN" is cudnn's), a program with its ".exe" ("cl.EXE" is cl's), a
  // distribution by its PEP 503 name ("Torch_Scatter" is torch-scatter's). Another kind: nullptr.
  const ProvidedEntry* find_provided(std::string_view kind, std::string_view name) const;
  // A program run by its GNU target-prefixed name (GCC's naming of a cross or vendor toolchain: the target
  // triplet, '-', the tool): the entry of the tool after a prefix that is a triplet (two or more fields, one
  // of them an OS: linux, darwin, mingw32, w64, ...). {} when the name has no such prefix or the tool no entry.
  PrefixedProgram find_prefixed_program(std::string_view name) const;
  // The entry for a name of namespace std ("cout"), exactly.
  const StdMember* find_std_member(std::string_view name) const { return find_member("std", name); }
  // The entry for a name of namespace `ns` ("thrust", "device"), exactly; nullptr for a name the table lacks.
  const StdMember* find_member(std::string_view ns, std::string_view name) const;
  // Whether any entry is of namespace `ns`: a namespace the table knows, whose members it can name.
  bool knows_namespace(std::string_view ns) const;
  // The entry whose `names` matches a CUDA library entry point in full ("cusparseSgthr"); nullptr for
  // one no release removed (cusparseSpMV) or a name of no library.
  const RemovedEntryPoint* find_removed_entry_point(std::string_view name) const;
};

// Parses one table file into `out` (headers.toml, modules.toml, triton.toml, ptx.toml or libstdcxx.toml,
// told by `name`);
// errors are "file:line: message", and an entry with errors is left out.
std::vector<std::string> load_entity_text(std::string_view name, std::string_view file, std::string_view text,
                                          EntityTables& out);

// The embedded tables, then each overlay's (an overlay entry with the same key replaces the built-in one).
EntityTables load_entity_tables(const std::vector<std::string>& overlay_dirs, std::vector<std::string>& errors);

// Whether every `signature` the tables name exists in `ids` (checked when both are loaded).
std::vector<std::string> check_entity_signatures(const EntityTables& t, const std::vector<std::string>& ids);

// The four files as KB tables (kb/table.h): kb check validates each with load_entity_text; one
// reader stacks them all (triage reads them with the signatures, signature.h).
void validate_headers_file(std::string_view file, std::string_view text, std::vector<kb::KbError>& errors);
void validate_modules_file(std::string_view file, std::string_view text, std::vector<kb::KbError>& errors);
void validate_triton_file(std::string_view file, std::string_view text, std::vector<kb::KbError>& errors);
void validate_ptx_file(std::string_view file, std::string_view text, std::vector<kb::KbError>& errors);
void validate_libstdcxx_file(std::string_view file, std::string_view text, std::vector<kb::KbError>& errors);
void validate_programs_file(std::string_view file, std::string_view text, std::vector<kb::KbError>& errors);
void validate_dependencies_file(std::string_view file, std::string_view text, std::vector<kb::KbError>& errors);
void validate_stdlib_file(std::string_view file, std::string_view text, std::vector<kb::KbError>& errors);
void validate_cuda_api_file(std::string_view file, std::string_view text, std::vector<kb::KbError>& errors);
inline constexpr kb::TableDef<EntityTables> kHeaderTable{{"headers", "headers.toml", &validate_headers_file}, &load_entity_tables};
inline constexpr kb::TableDef<EntityTables> kModuleTable{{"modules", "modules.toml", &validate_modules_file}, &load_entity_tables};
inline constexpr kb::TableDef<EntityTables> kTritonTable{{"triton", "triton.toml", &validate_triton_file}, &load_entity_tables};
inline constexpr kb::TableDef<EntityTables> kPtxTable{{"ptx", "ptx.toml", &validate_ptx_file}, &load_entity_tables};
inline constexpr kb::TableDef<EntityTables> kLibstdcxxTable{{"libstdcxx", "libstdcxx.toml", &validate_libstdcxx_file},
                                                            &load_entity_tables};
inline constexpr kb::TableDef<EntityTables> kProgramTable{{"programs", "programs.toml", &validate_programs_file},
                                                          &load_entity_tables};
inline constexpr kb::TableDef<EntityTables> kDependencyTable{{"dependencies", "dependencies.toml", &validate_dependencies_file},
                                                             &load_entity_tables};
inline constexpr kb::TableDef<EntityTables> kStdlibTable{{"stdlib", "stdlib.toml", &validate_stdlib_file}, &load_entity_tables};
inline constexpr kb::TableDef<EntityTables> kCudaApiTable{{"cuda_api", "cuda_api.toml", &validate_cuda_api_file},
                                                          &load_entity_tables};

}  // namespace ts::triage
