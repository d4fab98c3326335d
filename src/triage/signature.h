#pragma once
// Failure signatures (data/kb/signatures.toml): what a failure looks like in a log, what caused it,
// and what to do. Loaded and validated here; matched by the Engine (engine.h).
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "kb/table.h"
#include "triage/entity_table.h"

namespace ts::triage {

enum class Severity { error, warning, info, wrapper };
enum class RemedyKind { none, halve_jobs, set_env, clean_build_dir, shorten_arch_list,
                        switch_host_compiler, reconfigure, force_include, build_remedy };

struct Remedy {
  RemedyKind kind = RemedyKind::none;
  std::map<std::string, std::string> env;  // for set_env (and extra env for the others)
  std::string note;                        // what the runner should do, in words
  std::string header;                      // force_include: "cstdint", or "$1" for capture group 1
  std::string rule;                        // build_remedy: the build helper's remedy it triggers ("build.cxx-std")
  std::string compiler;                    // force_include: "" = the host compiler and nvcc, "nvcc" = CUDA sources only
};

// A force_include header is a plain relative header name: letters, digits, _ . / - and no "..".
bool valid_header_name(std::string_view h);
// `tmpl` with "$1".."$9" replaced by the captures of the finding's first evidence line ("" if absent).
std::string expand_captures(std::string_view tmpl, const std::vector<std::string>& captures);

// Which tool's failure a signature is (`tool = "nvcc"`): what specialising its fix needs to know,
// asked of the trait, never read out of the id's spelling.
enum class Tool { unknown, nvcc, ptxas, cxx, linker, cmake, ninja, pip, python };
// How triage makes the signature's fix specific to this machine (specialize.h), by what its
// captures hold: "nvcc_gcc_max" (capture 1: the newest gcc major nvcc accepts), "compiler_bounds"
// (captures 1, 2: the compiler's version, "greater"/"less" than torch's bounds), "embedded_python".
enum class Specializer { none, nvcc_gcc_max, compiler_bounds, embedded_python };

// ptxas is nvcc's assembler, run inside an nvcc compile job: its memory is an nvcc job's.
inline bool runs_in_nvcc_job(Tool t) { return t == Tool::nvcc || t == Tool::ptxas; }

struct Signature {
  std::string id;
  Tool tool = Tool::unknown;
  Specializer specialize = Specializer::none;
  std::string phase;                  // configure | compile | link | package | import | runtime
  Severity severity = Severity::error;
  std::vector<std::string> patterns;  // RE2, per line, Latin-1
  std::string cause, fix, versions, source;
  Remedy remedy;
  std::vector<std::string> supersedes;
  std::vector<std::string> see_also;
  // Ids merged into this one (two entries the log cannot tell apart): a diagnosis of this id is
  // also the answer to them, for scripts and labelled logs that name an old id.
  std::vector<std::string> formerly;
  // false: a root cause when the step fails, but no reason to stop a running step (a tool may
  // print it on a fallback path and then succeed, e.g. pip's legacy setup.py install).
  bool stops_build = true;
  // A warning that is the cause when the log's failure is a failure line of this grammar phase
  // (grammar.h: "resolve"): a command's option that makes a resolver fail, read off its command line.
  std::string explains;
  // "rule": no line names this cause alone; an entity or ranking rule reaches it (patterns may be empty).
  std::string reached_by;
  std::string file;                   // where it was defined, for messages
  int line = 0;
};

// A value the log itself tells (the CUDA version configure found, the compiler, the arch list),
// used to make fixes specific. [[log_fact]] name = "...", patterns = [...] (capture group 1).
struct LogFactRule {
  std::string name;  // cuda_version | cxx_compiler | arch_list
  std::vector<std::string> patterns;
  std::string file;
  int line = 0;
};

struct SignatureSet {
  std::vector<Signature> signatures;
  std::vector<LogFactRule> log_facts;
  EntityTables entities;  // headers.toml, modules.toml, triton.toml: what the entities a log names mean (entity.h)
  const Signature* find(std::string_view id) const;
};

// Whether a finding of `sig` answers `id`: its own id, or one it was merged from (formerly).
bool answers(const Signature& sig, std::string_view id);

// Parses and validates one signatures TOML text: unique ids, known phase/severity/remedy kind,
// every pattern compiles with RE2, supersedes names existing ids. Errors are "file:line: message";
// entries with errors are left out of `out`.
std::vector<std::string> load_signatures_text(std::string_view file_name, std::string_view text,
                                              SignatureSet& out);
// The check `torchsmith kb check` calls: only the errors.
std::vector<std::string> check_signatures_text(std::string_view file_name, std::string_view text);

// The embedded data/kb/signatures.toml, then `signatures.toml` in each overlay dir (an overlay
// entry with an existing id replaces it), and the entity tables the same way. Errors go to `errors`.
SignatureSet load_signatures(const std::vector<std::string>& overlay_dirs,
                             std::vector<std::string>& errors);
// signatures.toml as a KB table (kb/table.h): kb check validates each file with check_signatures_text.
void validate_signatures_file(std::string_view file, std::string_view text, std::vector<kb::KbError>& errors);
inline constexpr kb::TableDef<SignatureSet> kSignatureTable{{"signatures", "signatures.toml", &validate_signatures_file},
                                                            &load_signatures};

std::string_view to_string(Severity s);
std::string_view to_string(RemedyKind k);
std::string_view to_string(Tool t);          // "nvcc", "c++", ... ("" for unknown)
std::string_view to_string(Specializer s);   // "nvcc_gcc_max", ... ("none")

}  // namespace ts::triage
