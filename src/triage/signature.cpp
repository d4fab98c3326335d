// Loading and validating data/kb/signatures.toml. Every problem is reported with file:line so a
// person editing the KB sees where; a broken entry is skipped, never half-loaded.
#include "triage/signature.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <re2/re2.h>
#include "kb/tomlpp.h"

#include "kb/embedded.h"
#include "kb/layers.h"
#include "kb/toml_parse.h"
#include "triage/grammar.h"

namespace ts::triage {
namespace {

constexpr std::string_view kPhases[] = {"configure", "compile", "link", "package", "import", "runtime"};
// build_step: a package's build step is running (its line numbers, for the phase of `No module named`).
// torch_preload: torch/__init__.py's preload of the CUDA libraries of its nvidia-* wheels (its line numbers).
// cuda_compiler_absent: CMake's check_language(CUDA) found no CUDA compiler (the first such line).
constexpr std::string_view kFactNames[] = {"cuda_version", "cxx_compiler", "arch_list", "build_step", "torch_preload",
                                          "cuda_compiler_absent"};

std::string where(std::string_view file, const toml::node& n) {
  return std::string(file) + ":" + std::to_string(n.source().begin.line) + ": ";
}

bool parse_severity(std::string_view s, Severity& out) {
  for (auto v : {Severity::error, Severity::warning, Severity::info, Severity::wrapper})
    if (to_string(v) == s) { out = v; return true; }
  return false;
}

bool parse_remedy(std::string_view s, RemedyKind& out) {
  for (auto v : {RemedyKind::none, RemedyKind::halve_jobs, RemedyKind::set_env, RemedyKind::clean_build_dir,
                 RemedyKind::shorten_arch_list, RemedyKind::switch_host_compiler, RemedyKind::reconfigure,
                 RemedyKind::force_include, RemedyKind::build_remedy})
    if (to_string(v) == s) { out = v; return true; }
  return false;
}

bool parse_tool(std::string_view s, Tool& out) {
  for (auto v : {Tool::nvcc, Tool::ptxas, Tool::cxx, Tool::linker, Tool::cmake, Tool::ninja, Tool::pip, Tool::python})
    if (to_string(v) == s) { out = v; return true; }
  return false;
}

bool parse_specializer(std::string_view s, Specializer& out) {
  for (auto v : {Specializer::none, Specializer::nvcc_gcc_max, Specializer::compiler_bounds, Specializer::embedded_python})
    if (to_string(v) == s) { out = v; return true; }
  return false;
}

// Reads an array of strings; false (with an error) when it is something else.
bool string_array(const toml::table& t, std::string_view key, std::string_view file,
                  std::vector<std::string>& out, std::vector<std::string>& errors, bool required) {
  const toml::node* n = t.get(key);
  if (!n) {
    if (required) errors.push_back(where(file, t) + "missing '" + std::string(key) + "'");
    return !required;
  }
  const toml::array* a = n->as_array();
  if (!a) { errors.push_back(where(file, *n) + "'" + std::string(key) + "' must be an array of strings"); return false; }
  for (const auto& e : *a) {
    auto v = e.value<std::string>();
    if (!v) { errors.push_back(where(file, e) + "'" + std::string(key) + "' must hold strings"); return false; }
    out.push_back(*v);
  }
  return true;
}

bool string_field(const toml::table& t, std::string_view key, std::string_view file, std::string& out,
                  std::vector<std::string>& errors, bool required) {
  const toml::node* n = t.get(key);
  if (!n) {
    if (required) errors.push_back(where(file, t) + "missing '" + std::string(key) + "'");
    return !required;
  }
  auto v = n->value<std::string>();
  if (!v) { errors.push_back(where(file, *n) + "'" + std::string(key) + "' must be a string"); return false; }
  out = *v;
  return true;
}

// Patterns must compile in the mode the engine uses (Latin-1, per line).
bool check_patterns(const toml::table& t, std::string_view file, const std::vector<std::string>& pats,
                    std::vector<std::string>& errors) {
  bool ok = !pats.empty();
  if (pats.empty()) errors.push_back(where(file, t) + "'patterns' is empty");
  const toml::node* arr = t.get("patterns");
  for (std::size_t i = 0; i < pats.size(); ++i) {
    const toml::node& at = arr && arr->as_array() && i < arr->as_array()->size() ? *arr->as_array()->get(i) : *arr;
    if (pats[i].find('\n') != std::string::npos) {
      errors.push_back(where(file, at) + "pattern contains a newline; patterns match one line");
      ok = false;
      continue;
    }
    RE2::Options o;
    o.set_encoding(RE2::Options::EncodingLatin1);
    o.set_log_errors(false);
    RE2 re(pats[i], o);
    if (!re.ok()) { errors.push_back(where(file, at) + "pattern does not compile: " + re.error()); ok = false; }
  }
  return ok;
}

void load_signature(const toml::table& t, std::string_view file, SignatureSet& out,
                    std::set<std::string>& ids, std::vector<std::string>& errors) {
  std::size_t before = errors.size();
  Signature s;
  s.file = std::string(file);
  s.line = static_cast<int>(t.source().begin.line);
  string_field(t, "id", file, s.id, errors, true);
  std::string phase, severity;
  if (string_field(t, "phase", file, phase, errors, true) && !phase.empty()) {
    bool known = false;
    for (auto p : kPhases) known |= p == phase;
    if (!known) errors.push_back(where(file, *t.get("phase")) + "unknown phase '" + phase + "'");
    s.phase = phase;
  }
  if (string_field(t, "severity", file, severity, errors, true) && !severity.empty() &&
      !parse_severity(severity, s.severity))
    errors.push_back(where(file, *t.get("severity")) + "unknown severity '" + severity + "'");
  if (string_field(t, "reached_by", file, s.reached_by, errors, false) && !s.reached_by.empty() && s.reached_by != "rule")
    errors.push_back(where(file, *t.get("reached_by")) + "unknown reached_by '" + s.reached_by + "' (rule)");
  if (string_array(t, "patterns", file, s.patterns, errors, true) && !(s.reached_by == "rule" && s.patterns.empty()))
    check_patterns(t, file, s.patterns, errors);
  string_field(t, "cause", file, s.cause, errors, true);
  string_field(t, "fix", file, s.fix, errors, true);
  string_field(t, "versions", file, s.versions, errors, false);
  string_field(t, "source", file, s.source, errors, true);
  string_array(t, "supersedes", file, s.supersedes, errors, false);
  string_array(t, "see_also", file, s.see_also, errors, false);
  string_array(t, "formerly", file, s.formerly, errors, false);
  std::string tool, specialize;
  if (string_field(t, "tool", file, tool, errors, false) && t.get("tool") && !parse_tool(tool, s.tool))
    errors.push_back(where(file, *t.get("tool")) + "unknown tool '" + tool +
                     "' (nvcc, ptxas, c++, ld, cmake, ninja, pip, python)");
  if (string_field(t, "specialize", file, specialize, errors, false) && t.get("specialize") &&
      !parse_specializer(specialize, s.specialize))
    errors.push_back(where(file, *t.get("specialize")) + "unknown specialize '" + specialize +
                     "' (nvcc_gcc_max, compiler_bounds, embedded_python)");
  if (string_field(t, "explains", file, s.explains, errors, false) && !s.explains.empty()) {
    bool known = false;
    for (const auto& g : grammars()) known |= s.explains == g.phase;
    if (!known) errors.push_back(where(file, *t.get("explains")) + "unknown explains '" + s.explains + "' (a failure grammar's phase: resolve, compile, ...)");
    if (s.severity != Severity::warning) errors.push_back(where(file, *t.get("explains")) + "explains is for a warning (it becomes the error when the failure is of that phase)");
  }
  if (const toml::node* sb = t.get("stops_build")) {
    if (auto v = sb->value<bool>()) s.stops_build = *v;
    else errors.push_back(where(file, *sb) + "stops_build must be true or false");
  }
  if (const toml::node* r = t.get("remedy")) {
    if (const toml::table* rt = r->as_table()) {
      std::string kind = "none";
      string_field(*rt, "kind", file, kind, errors, true);
      if (!parse_remedy(kind, s.remedy.kind))
        errors.push_back(where(file, *r) + "unknown remedy kind '" + kind + "'");
      string_field(*rt, "note", file, s.remedy.note, errors, false);
      string_field(*rt, "header", file, s.remedy.header, errors, false);
      string_field(*rt, "rule", file, s.remedy.rule, errors, false);
      if (s.remedy.kind == RemedyKind::build_remedy && s.remedy.rule.rfind("build.", 0) != 0)
        errors.push_back(where(file, *r) + "remedy kind build_remedy needs rule = \"build.cxx-std\" (the build "
                         "helper's remedy it triggers: build.cxx-std, build.arch-list or build.gpu-target)");
      if (s.remedy.kind == RemedyKind::force_include) {
        bool capture = s.remedy.header.size() == 2 && s.remedy.header[0] == '$' && s.remedy.header[1] >= '1' &&
                       s.remedy.header[1] <= '9';
        if (!capture && !valid_header_name(s.remedy.header))
          errors.push_back(where(file, *r) + "remedy kind force_include needs header = \"cstdint\" (a relative "
                           "header name) or \"$1\" (a capture group of the patterns)");
      }
      if (const toml::node* e = rt->get("env")) {
        if (const toml::table* et = e->as_table()) {
          for (const auto& [k, v] : *et) {
            auto sv = v.value<std::string>();
            if (!sv) errors.push_back(where(file, v) + "remedy env values must be strings");
            else s.remedy.env[std::string(k.str())] = *sv;
          }
        } else {
          errors.push_back(where(file, *e) + "remedy env must be a table");
        }
      }
      if (s.remedy.kind == RemedyKind::set_env && s.remedy.env.empty())
        errors.push_back(where(file, *r) + "remedy kind set_env needs env = { NAME = \"value\" }");
    } else {
      errors.push_back(where(file, *r) + "'remedy' must be a table { kind = ... }");
    }
  }
  if (!s.id.empty() && !ids.insert(s.id).second)
    errors.push_back(where(file, t) + "duplicate id '" + s.id + "'");
  if (errors.size() == before) out.signatures.push_back(std::move(s));
}

void load_fact(const toml::table& t, std::string_view file, SignatureSet& out, std::vector<std::string>& errors) {
  std::size_t before = errors.size();
  LogFactRule f;
  f.file = std::string(file);
  f.line = static_cast<int>(t.source().begin.line);
  if (string_field(t, "name", file, f.name, errors, true)) {
    bool known = false;
    for (auto n : kFactNames) known |= n == f.name;
    if (!known) errors.push_back(where(file, t) + "unknown log_fact name '" + f.name + "'");
  }
  if (string_array(t, "patterns", file, f.patterns, errors, true) && check_patterns(t, file, f.patterns, errors)) {
    for (const auto& p : f.patterns) {
      RE2::Options o;
      o.set_encoding(RE2::Options::EncodingLatin1);
      if (RE2(p, o).NumberOfCapturingGroups() < 1)
        errors.push_back(where(file, t) + "log_fact pattern needs a capture group: " + p);
    }
  }
  if (errors.size() == before) out.log_facts.push_back(std::move(f));
}

// Supersedes must name ids that exist in the merged set; a former id must not (it was merged away)
// and belongs to one signature only.
void check_supersedes(const SignatureSet& set, std::vector<std::string>& errors) {
  std::set<std::string> former;
  for (const auto& s : set.signatures) {
    std::string at = s.file + ":" + std::to_string(s.line) + ": " + s.id;
    for (const auto& id : s.supersedes)
      if (!set.find(id)) errors.push_back(at + " supersedes unknown id '" + id + "'");
    for (const auto& id : s.formerly) {
      if (set.find(id)) errors.push_back(at + " lists '" + id + "' as a former id, but a signature still has it");
      if (!former.insert(id).second) errors.push_back(at + ": former id '" + id + "' is claimed by two signatures");
    }
  }
}

void merge(SignatureSet& into, SignatureSet&& from) {
  for (auto& s : from.signatures) {
    bool replaced = false;
    for (auto& e : into.signatures)
      if (e.id == s.id) { e = s; replaced = true; }
    if (!replaced) into.signatures.push_back(std::move(s));
  }
  for (auto& f : from.log_facts) into.log_facts.push_back(std::move(f));
}

}  // namespace

bool answers(const Signature& sig, std::string_view id) {
  if (sig.id == id) return true;
  for (const auto& f : sig.formerly)
    if (f == id) return true;
  return false;
}

const Signature* SignatureSet::find(std::string_view id) const {
  for (const auto& s : signatures)
    if (s.id == id) return &s;
  return nullptr;
}

std::vector<std::string> load_signatures_text(std::string_view file_name, std::string_view text,
                                              SignatureSet& out) {
  std::vector<std::string> errors;
  if (std::string err = kb::toml_precheck(text); !err.empty()) {  // toml++ 3.3 has UB on some junk
    errors.push_back(std::string(file_name) + ":" + err);
    return errors;
  }
  toml::table root;
  try {
    root = toml::parse(text, std::string(file_name));
  } catch (const toml::parse_error& e) {
    errors.push_back(std::string(file_name) + ":" + std::to_string(e.source().begin.line) + ": " +
                     std::string(e.description()));
    return errors;
  }
  std::set<std::string> local_ids;  // duplicates within one file; an overlay may replace an id
  for (const auto& [key, node] : root) {
    if (key.str() != "signature" && key.str() != "log_fact")
      errors.push_back(where(file_name, node) + "unknown top-level key '" + std::string(key.str()) + "'");
  }
  SignatureSet local;
  if (const toml::node* n = root.get("signature")) {
    const toml::array* arr = n->as_array();
    if (!arr) errors.push_back(where(file_name, *n) + "'signature' must be an array of tables ([[signature]])");
    else
      for (const auto& e : *arr) {
        if (const toml::table* t = e.as_table()) load_signature(*t, file_name, local, local_ids, errors);
        else errors.push_back(where(file_name, e) + "[[signature]] entries must be tables");
      }
  }
  if (const toml::node* n = root.get("log_fact")) {
    if (const toml::array* arr = n->as_array())
      for (const auto& e : *arr) {
        if (const toml::table* t = e.as_table()) load_fact(*t, file_name, local, errors);
      }
  }
  merge(out, std::move(local));
  return errors;
}

std::vector<std::string> check_signatures_text(std::string_view file_name, std::string_view text) {
  SignatureSet set;
  auto errors = load_signatures_text(file_name, text, set);
  check_supersedes(set, errors);
  return errors;
}

SignatureSet load_signatures(const std::vector<std::string>& overlay_dirs, std::vector<std::string>& errors) {
  SignatureSet set;
  kb::for_each_layer("signatures.toml", overlay_dirs, [&](const std::string& file, std::string_view text) {
    auto e = load_signatures_text(file, text, set);
    errors.insert(errors.end(), e.begin(), e.end());
  });
  check_supersedes(set, errors);
  set.entities = load_entity_tables(overlay_dirs, errors);
  std::vector<std::string> ids;
  for (const auto& s : set.signatures) ids.push_back(s.id);
  for (auto& e : check_entity_signatures(set.entities, ids)) errors.push_back(std::move(e));
  return set;
}

void validate_signatures_file(std::string_view file, std::string_view text, std::vector<kb::KbError>& errors) {
  kb::add_line_errors(file, check_signatures_text(file, text), errors);
}

std::string_view to_string(Severity s) {
  switch (s) {
    case Severity::error: return "error";
    case Severity::warning: return "warning";
    case Severity::info: return "info";
    case Severity::wrapper: return "wrapper";
  }
  return "error";
}

std::string_view to_string(Tool t) {
  switch (t) {
    case Tool::unknown: return "";
    case Tool::nvcc: return "nvcc";
    case Tool::ptxas: return "ptxas";
    case Tool::cxx: return "c++";
    case Tool::linker: return "ld";
    case Tool::cmake: return "cmake";
    case Tool::ninja: return "ninja";
    case Tool::pip: return "pip";
    case Tool::python: return "python";
  }
  return "";
}

std::string_view to_string(Specializer s) {
  switch (s) {
    case Specializer::none: return "none";
    case Specializer::nvcc_gcc_max: return "nvcc_gcc_max";
    case Specializer::compiler_bounds: return "compiler_bounds";
    case Specializer::embedded_python: return "embedded_python";
  }
  return "none";
}

std::string_view to_string(RemedyKind k) {
  switch (k) {
    case RemedyKind::none: return "none";
    case RemedyKind::halve_jobs: return "halve_jobs";
    case RemedyKind::set_env: return "set_env";
    case RemedyKind::clean_build_dir: return "clean_build_dir";
    case RemedyKind::shorten_arch_list: return "shorten_arch_list";
    case RemedyKind::switch_host_compiler: return "switch_host_compiler";
    case RemedyKind::reconfigure: return "reconfigure";
    case RemedyKind::force_include: return "force_include";
    case RemedyKind::build_remedy: return "build_remedy";
  }
  return "none";
}

bool valid_header_name(std::string_view h) {
  if (h.empty() || h.size() > 128 || h.front() == '/' || h.front() == '-' || h.find("..") != std::string_view::npos)
    return false;
  for (char c : h)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '/' || c == '-')) return false;
  return true;
}

std::string expand_captures(std::string_view tmpl, const std::vector<std::string>& captures) {
  std::string out;
  for (std::size_t i = 0; i < tmpl.size(); ++i) {
    // " ($N)" with no capture N (a pattern or rule that names none) leaves no empty parentheses.
    if (tmpl.substr(i, 3) == " ($" && i + 4 < tmpl.size() && tmpl[i + 3] >= '1' && tmpl[i + 3] <= '9' && tmpl[i + 4] == ')') {
      std::size_t n = static_cast<std::size_t>(tmpl[i + 3] - '1');
      if (n >= captures.size() || captures[n].empty()) { i += 4; continue; }
    }
    if (tmpl[i] == '$' && i + 1 < tmpl.size() && tmpl[i + 1] >= '1' && tmpl[i + 1] <= '9') {
      std::size_t n = static_cast<std::size_t>(tmpl[i + 1] - '1');
      if (n < captures.size()) out += captures[n];
      ++i;
    } else {
      out += tmpl[i];
    }
  }
  return out;
}

}  // namespace ts::triage
