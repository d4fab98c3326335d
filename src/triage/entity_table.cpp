// Loading data/kb/headers.toml, modules.toml, triton.toml, ptx.toml, libstdcxx.toml, programs.toml, dependencies.toml and stdlib.toml. Each problem is reported with
// file:line; a broken entry is skipped, never half-loaded.
#include "triage/entity_table.h"

#include <algorithm>
#include <cctype>

#include "kb/layers.h"
#include "kb/toml_parse.h"
#include "kb/tomlpp.h"

namespace ts::triage {
namespace {

std::string where(std::string_view file, const toml::node& n) {
  return std::string(file) + ":" + std::to_string(n.source().begin.line) + ": ";
}

// Reads the string fields of one entry; `required` ones must be there and non-empty.
bool fields(const toml::table& t, std::string_view file, std::initializer_list<std::pair<const char*, std::string*>> f,
            std::initializer_list<const char*> required, std::vector<std::string>& errors) {
  bool ok = true;
  for (const auto& [key, out] : f) {
    const toml::node* n = t.get(key);
    if (!n) continue;
    auto v = n->value<std::string>();
    if (!v) { errors.push_back(where(file, *n) + "'" + key + "' must be a string"); ok = false; continue; }
    *out = *v;
  }
  for (const char* key : required) {
    for (const auto& [k, out] : f)
      if (std::string_view(k) == key && out->empty()) {
        errors.push_back(where(file, t) + "missing '" + key + "'");
        ok = false;
      }
  }
  for (const auto& [k, v] : t) {
    bool known = false;
    for (const auto& [key, out] : f) known |= k.str() == key;
    if (!known) { errors.push_back(where(file, v) + "unknown key '" + std::string(k.str()) + "'"); ok = false; }
  }
  return ok;
}

template <class T, class Key>
void put(std::vector<T>& v, T&& e, Key key) {
  auto it = std::find_if(v.begin(), v.end(), [&](const T& o) { return key(o) == key(e); });
  if (it != v.end()) *it = std::move(e);  // a later layer replaces the entry
  else v.push_back(std::move(e));
}

template <class F>
void each(const toml::table& root, const char* array, std::string_view file, std::vector<std::string>& errors, F f) {
  const toml::node* n = root.get(array);
  if (!n) return;
  const toml::array* a = n->as_array();
  if (!a) { errors.push_back(where(file, *n) + "'" + array + "' must be an array of tables ([[" + array + "]])"); return; }
  for (const auto& e : *a) {
    if (const toml::table* t = e.as_table()) f(*t);
    else errors.push_back(where(file, e) + "'" + array + "' must hold tables");
  }
}

// "8.4", "12.4": digits, one dot, digits.
bool major_minor(std::string_view v) {
  std::size_t dot = v.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == v.size()) return false;
  for (std::size_t i = 0; i < v.size(); ++i)
    if (i != dot && !std::isdigit(static_cast<unsigned char>(v[i]))) return false;
  return true;
}

constexpr std::string_view kKinds[] = {"cuda", "system", "python", "torch", "submodule", "repository", "removed"};

}  // namespace

const HeaderEntry* EntityTables::find_header(std::string_view name) const {
  const HeaderEntry* best = nullptr;
  for (const auto& h : headers) {
    bool folder = !h.header.empty() && h.header.back() == '/';
    // An include may carry a leading path ("third_party/glm/glm/glm.hpp"): a folder matches at a '/' too.
    bool hit = folder ? name.rfind(h.header, 0) == 0 || name.find("/" + h.header) != std::string_view::npos
                      : name == h.header || (name.size() > h.header.size() && name.ends_with("/" + h.header));
    if (hit && (!best || h.header.size() > best->header.size())) best = &h;
  }
  return best;
}

const ModuleEntry* EntityTables::find_module(std::string_view name) const {
  std::string_view top = name.substr(0, name.find('.'));
  for (const auto& m : modules)
    if (m.name == top) return &m;
  return nullptr;
}

const RemovedName* EntityTables::find_removed(std::string_view module, std::string_view name) const {
  std::string_view top = module.substr(0, module.find('.'));
  for (const auto& r : removed_names)
    if (r.module == top && r.name == name) return &r;
  return nullptr;
}

const TritonArch* EntityTables::find_triton_arch(std::string_view arch) const {
  for (const auto& a : triton_arches)
    if (arch.rfind(a.arch, 0) == 0 && (arch.size() == a.arch.size() || !std::isdigit(static_cast<unsigned char>(arch[a.arch.size()]))))
      return &a;
  return nullptr;
}

const PtxIsa* EntityTables::find_ptx_isa(std::string_view version) const {
  for (const auto& p : ptx_isas)
    if (p.version == version) return &p;
  return nullptr;
}

const GlibcxxVersion* EntityTables::find_glibcxx(std::string_view version) const {
  for (const auto& g : glibcxx)
    if (g.version == version) return &g;
  return nullptr;
}

const ProvidedEntry* EntityTables::find_provided(std::string_view kind, std::string_view name) const {
  const bool program = kind == "program", distribution = kind == "distribution";
  if (!program && !distribution && kind != "dependency") return nullptr;
  std::string n(name);
  for (auto& c : n) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  // Windows runs a program by its file name: "cl.EXE" is the program cl. A dependency has no file name.
  if (program && n.size() > 4 && n.ends_with(".exe")) n.resize(n.size() - 4);
  // An installer compares distribution names normalized (PEP 503): runs of '-', '_', '.' are one '-'.
  if (distribution) {
    std::string norm;
    for (char c : n)
      if (c != '-' && c != '_' && c != '.') norm += c;
      else if (norm.empty() || norm.back() != '-') norm += '-';
    n = norm;
  }
  for (const auto& e : program ? programs : distribution ? distributions : dependencies)
    if (e.name == n) return &e;
  return nullptr;
}

const StdMember* EntityTables::find_std_member(std::string_view name) const {
  for (const auto& m : std_members)
    if (m.name == name) return &m;
  return nullptr;
}

namespace {

void load_headers(const toml::table& root, std::string_view file, std::vector<std::string>& errors, EntityTables& out) {
  each(root, "header", file, errors, [&](const toml::table& t) {
    HeaderEntry h;
    h.file = std::string(file);
    h.line = static_cast<int>(t.source().begin.line);
    std::size_t before = errors.size();
    fields(t, file, {{"header", &h.header}, {"provider", &h.provider}, {"kind", &h.kind}, {"debian", &h.debian},
                     {"pypi", &h.pypi}, {"conda", &h.conda}, {"signature", &h.signature}, {"source", &h.source}},
           {"header", "provider", "kind", "source"}, errors);
    if (!h.kind.empty() && std::find(std::begin(kKinds), std::end(kKinds), h.kind) == std::end(kKinds))
      errors.push_back(where(file, t) + "unknown kind '" + h.kind + "' (cuda, system, python, torch, submodule, repository, removed)");
    if (h.debian.empty() && h.pypi.empty() && h.conda.empty() && h.kind != "submodule" && h.kind != "cuda" &&
        h.kind != "torch" && h.kind != "repository" && h.kind != "removed")
      errors.push_back(where(file, t) + "header '" + h.header + "': name a package (debian, pypi or conda)");
    if (errors.size() == before) put(out.headers, std::move(h), [](const HeaderEntry& e) { return e.header; });
  });
}

void load_modules(const toml::table& root, std::string_view file, std::vector<std::string>& errors, EntityTables& out) {
  each(root, "module", file, errors, [&](const toml::table& t) {
    ModuleEntry m;
    m.file = std::string(file);
    m.line = static_cast<int>(t.source().begin.line);
    std::size_t before = errors.size();
    fields(t, file, {{"name", &m.name}, {"pypi", &m.pypi}, {"build_signature", &m.build_signature}, {"source", &m.source}},
           {"name", "pypi", "build_signature", "source"}, errors);
    if (m.name.find('.') != std::string::npos) errors.push_back(where(file, t) + "name a top-level module, not '" + m.name + "'");
    if (errors.size() == before) put(out.modules, std::move(m), [](const ModuleEntry& e) { return e.name; });
  });
  each(root, "removed", file, errors, [&](const toml::table& t) {
    RemovedName r;
    r.file = std::string(file);
    r.line = static_cast<int>(t.source().begin.line);
    std::size_t before = errors.size();
    fields(t, file, {{"module", &r.module}, {"name", &r.name}, {"removed_in", &r.removed_in}, {"use", &r.use}, {"source", &r.source}},
           {"module", "name", "removed_in", "source"}, errors);
    if (r.module.find('.') != std::string::npos) errors.push_back(where(file, t) + "name a top-level module, not '" + r.module + "'");
    if (errors.size() == before)
      put(out.removed_names, std::move(r), [](const RemovedName& e) { return e.module + ":" + e.name; });
  });
}

void load_triton(const toml::table& root, std::string_view file, std::vector<std::string>& errors, EntityTables& out) {
  if (const toml::node* m = root.get("minimum")) {
    if (const toml::table* t = m->as_table()) {
      std::string cap, src;
      if (fields(*t, file, {{"capability", &cap}, {"source", &src}}, {"capability", "source"}, errors)) {
        out.triton_min_capability = cap;
        out.triton_min_capability_source = src;
      }
    } else {
      errors.push_back(where(file, *m) + "'minimum' must be a table");
    }
  }
  each(root, "arch", file, errors, [&](const toml::table& t) {
    TritonArch a;
    a.file = std::string(file);
    a.line = static_cast<int>(t.source().begin.line);
    std::size_t before = errors.size();
    fields(t, file, {{"arch", &a.arch}, {"first_triton", &a.first_triton}, {"ptxas", &a.ptxas}, {"source", &a.source}},
           {"arch", "first_triton", "source"}, errors);
    if (a.arch.rfind("sm_", 0) != 0) errors.push_back(where(file, t) + "arch must be sm_NN, not '" + a.arch + "'");
    if (errors.size() == before) put(out.triton_arches, std::move(a), [](const TritonArch& e) { return e.arch; });
  });
}

void load_ptx(const toml::table& root, std::string_view file, std::vector<std::string>& errors, EntityTables& out) {
  each(root, "isa", file, errors, [&](const toml::table& t) {
    PtxIsa p;
    p.file = std::string(file);
    p.line = static_cast<int>(t.source().begin.line);
    std::size_t before = errors.size();
    fields(t, file, {{"version", &p.version}, {"cuda", &p.cuda}, {"source", &p.source}}, {"version", "cuda", "source"}, errors);
    for (const auto* v : {&p.version, &p.cuda})
      if (!v->empty() && !major_minor(*v)) errors.push_back(where(file, t) + "'" + *v + "' must be MAJOR.MINOR");
    if (errors.size() == before) put(out.ptx_isas, std::move(p), [](const PtxIsa& e) { return e.version; });
  });
}

void load_libstdcxx(const toml::table& root, std::string_view file, std::vector<std::string>& errors, EntityTables& out) {
  each(root, "glibcxx", file, errors, [&](const toml::table& t) {
    GlibcxxVersion g;
    g.file = std::string(file);
    g.line = static_cast<int>(t.source().begin.line);
    std::size_t before = errors.size();
    fields(t, file, {{"version", &g.version}, {"gcc", &g.gcc}, {"source", &g.source}}, {"version", "gcc", "source"}, errors);
    if (!g.version.empty() && g.version.find_first_not_of("0123456789.") != std::string::npos)
      errors.push_back(where(file, t) + "version is the part after GLIBCXX_ (\"3.4.32\"), not '" + g.version + "'");
    if (errors.size() == before) put(out.glibcxx, std::move(g), [](const GlibcxxVersion& e) { return e.version; });
  });
}

void load_stdlib(const toml::table& root, std::string_view file, std::vector<std::string>& errors, EntityTables& out) {
  each(root, "member", file, errors, [&](const toml::table& t) {
    StdMember m;
    m.file = std::string(file);
    m.line = static_cast<int>(t.source().begin.line);
    std::size_t before = errors.size();
    fields(t, file, {{"name", &m.name}, {"header", &m.header}, {"source", &m.source}}, {"name", "header", "source"}, errors);
    auto word = [](const std::string& v) {
      return !v.empty() && std::all_of(v.begin(), v.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
    };
    // The header is force-included as `-include HEADER`: a standard header's plain name, nothing else.
    if (!m.name.empty() && !word(m.name)) errors.push_back(where(file, t) + "name is one identifier (\"cout\"), not '" + m.name + "'");
    if (!m.header.empty() && !word(m.header))
      errors.push_back(where(file, t) + "header is a standard header's name without <> (\"iostream\"), not '" + m.header + "'");
    if (errors.size() == before) put(out.std_members, std::move(m), [](const StdMember& e) { return e.name; });
  });
}

// programs.toml and dependencies.toml (its [[dependency]] and [[distribution]]) share one entry
// (ProvidedEntry); only the table's key and what a valid name looks like differ.
template <class NameError>
void load_named(const toml::table& root, const char* key, std::string_view file, std::vector<std::string>& errors,
                std::vector<ProvidedEntry>& into, NameError name_error) {
  each(root, key, file, errors, [&](const toml::table& t) {
    ProvidedEntry p;
    p.file = std::string(file);
    p.line = static_cast<int>(t.source().begin.line);
    std::size_t before = errors.size();
    fields(t, file, {{"name", &p.name}, {"provider", &p.provider}, {"signature", &p.signature}, {"source", &p.source}},
           {"name", "provider", "signature", "source"}, errors);
    if (std::string why = name_error(p.name); !why.empty()) errors.push_back(where(file, t) + why);
    if (errors.size() == before) put(into, std::move(p), [](const ProvidedEntry& e) { return e.name; });
  });
}

void load_programs(const toml::table& root, std::string_view file, std::vector<std::string>& errors, EntityTables& out) {
  load_named(root, "program", file, errors, out.programs, [](const std::string& name) {
    if (name.find_first_of("/\\ ") != std::string::npos || name.ends_with(".exe") ||
        std::any_of(name.begin(), name.end(), [](char c) { return std::isupper(static_cast<unsigned char>(c)); }))
      return "name the program as run, lower case and without a path or .exe, not '" + name + "'";
    return std::string();
  });
}

void load_dependencies(const toml::table& root, std::string_view file, std::vector<std::string>& errors, EntityTables& out) {
  load_named(root, "dependency", file, errors, out.dependencies, [](const std::string& name) {
    if (name.empty() || !std::all_of(name.begin(), name.end(), [](char c) {
          return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_';
        }))
      return "name the dependency as one lower-case word (\"cudnn\"), not '" + name + "'";
    return std::string();
  });
  load_named(root, "distribution", file, errors, out.distributions, [](const std::string& name) {
    if (name.empty() || !std::all_of(name.begin(), name.end(), [](char c) {
          return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '-';
        }))
      return "name the distribution as PEP 503 normalizes it (lower case, '-' for '_' and '.'), not '" + name + "'";
    return std::string();
  });
}

}  // namespace

std::vector<std::string> load_entity_text(std::string_view name, std::string_view file, std::string_view text,
                                          EntityTables& out) {
  std::vector<std::string> errors;
  toml::table root;
  try {
    root = kb::parse_toml(text, file);
  } catch (const toml::parse_error& e) {
    errors.push_back(std::string(file) + ":" + std::to_string(e.source().begin.line) + ": TOML syntax error: " +
                     std::string(e.description()));
    return errors;
  }
  using Loader = void (*)(const toml::table&, std::string_view, std::vector<std::string>&, EntityTables&);
  // One loader per table file; a file no loader knows only gets the unknown-table check below.
  static constexpr std::pair<std::string_view, Loader> kLoaders[] = {
      {"headers.toml", load_headers},
      {"modules.toml", load_modules},
      {"triton.toml", load_triton},
      {"ptx.toml", load_ptx},
      {"libstdcxx.toml", load_libstdcxx},
      {"programs.toml", load_programs},
      {"dependencies.toml", load_dependencies},
      {"stdlib.toml", load_stdlib},
  };
  for (const auto& [file_name, load] : kLoaders)
    if (name == file_name) load(root, file, errors, out);
  for (const auto& [k, v] : root)
    if (k.str() != "header" && k.str() != "module" && k.str() != "removed" && k.str() != "arch" && k.str() != "minimum" &&
        k.str() != "isa" && k.str() != "glibcxx" && k.str() != "program" && k.str() != "dependency" &&
        k.str() != "distribution" && k.str() != "member")
      errors.push_back(where(file, v) + "unknown table '" + std::string(k.str()) + "'");
  return errors;
}

EntityTables load_entity_tables(const std::vector<std::string>& overlay_dirs, std::vector<std::string>& errors) {
  EntityTables t;
  for (std::string_view name : {"headers.toml", "modules.toml", "triton.toml", "ptx.toml", "libstdcxx.toml", "programs.toml",
                                "dependencies.toml", "stdlib.toml"})
    kb::for_each_layer(name, overlay_dirs, [&](const std::string& file, std::string_view text) {
      auto e = load_entity_text(name, file, text, t);
      errors.insert(errors.end(), e.begin(), e.end());
    });
  return t;
}

std::vector<std::string> check_entity_signatures(const EntityTables& t, const std::vector<std::string>& ids) {
  std::vector<std::string> errors;
  auto known = [&](const std::string& id) { return id.empty() || std::find(ids.begin(), ids.end(), id) != ids.end(); };
  for (const auto& h : t.headers)
    if (!known(h.signature))
      errors.push_back(h.file + ":" + std::to_string(h.line) + ": header '" + h.header + "' names unknown signature '" + h.signature + "'");
  for (const auto& m : t.modules)
    if (!known(m.build_signature))
      errors.push_back(m.file + ":" + std::to_string(m.line) + ": module '" + m.name + "' names unknown signature '" +
                       m.build_signature + "'");
  for (const auto& [kind, table] :
       {std::pair{"program", &t.programs}, std::pair{"dependency", &t.dependencies}, std::pair{"distribution", &t.distributions}})
    for (const auto& p : *table)
      if (p.signature.empty() || !known(p.signature))
        errors.push_back(p.file + ":" + std::to_string(p.line) + ": " + kind + " '" + p.name + "' names unknown signature '" +
                         p.signature + "'");
  return errors;
}

namespace {
void validate(std::string_view name, std::string_view file, std::string_view text, std::vector<kb::KbError>& errors) {
  EntityTables t;
  kb::add_line_errors(file, load_entity_text(name, file, text, t), errors);
}
}  // namespace

void validate_headers_file(std::string_view file, std::string_view text, std::vector<kb::KbError>& errors) {
  validate("headers.toml", file, text, errors);
}
void validate_modules_file(std::string_view file, std::string_view text, std::vector<kb::KbError>& errors) {
  validate("modules.toml", file, text, errors);
}
void validate_triton_file(std::string_view file, std::string_view text, std::vector<kb::KbError>& errors) {
  validate("triton.toml", file, text, errors);
}
void validate_ptx_file(std::string_view file, std::string_view text, std::vector<kb::KbError>& errors) {
  validate("ptx.toml", file, text, errors);
}
void validate_libstdcxx_file(std::string_view file, std::string_view text, std::vector<kb::KbError>& errors) {
  validate("libstdcxx.toml", file, text, errors);
}
void validate_programs_file(std::string_view file, std::string_view text, std::vector<kb::KbError>& errors) {
  validate("programs.toml", file, text, errors);
}
void validate_dependencies_file(std::string_view file, std::string_view text, std::vector<kb::KbError>& errors) {
  validate("dependencies.toml", file, text, errors);
}
void validate_stdlib_file(std::string_view file, std::string_view text, std::vector<kb::KbError>& errors) {
  validate("stdlib.toml", file, text, errors);
}

}  // namespace ts::triage
