// Loading data/kb/headers.toml, modules.toml, triton.toml, ptx.toml, libstdcxx.toml, programs.toml, dependencies.toml and stdlib.toml. Each problem is reported with
// file:line; a broken entry is skipped, never half-loaded.
#include "triage/entity_table.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <span>

#include <re2/re2.h>

#include "kb/layers.h"
#include "kb/toml_parse.h"
#include "kb/tomlpp.h"

namespace ts::triage {
namespace {

std::string where(std::string_view file, const toml::node& n) {
  return std::string(file) + ":" + std::to_string(n.source().begin.line) + ": ";
}

// One string field of an entry: its key, where it goes, and whether it must be there and non-empty.
struct Slot {
  const char* key;
  std::string* out;
  bool required;
};

// Reads the string fields of one entry in slot order: a wrong type, then each required one missing,
// then each key no slot names, all reported.
bool fields(const toml::table& t, std::string_view file, std::span<const Slot> f, std::vector<std::string>& errors) {
  bool ok = true;
  for (const auto& [key, out, required] : f) {
    const toml::node* n = t.get(key);
    if (!n) continue;
    auto v = n->value<std::string>();
    if (!v) { errors.push_back(where(file, *n) + "'" + key + "' must be a string"); ok = false; continue; }
    *out = *v;
  }
  for (const auto& [key, out, required] : f)
    if (required && out->empty()) {
      errors.push_back(where(file, t) + "missing '" + key + "'");
      ok = false;
    }
  for (const auto& [k, v] : t) {
    bool known = false;
    for (const auto& slot : f) known |= k.str() == slot.key;
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

const TritonFp8* EntityTables::find_triton_fp8(std::string_view dtype) const {
  for (const auto& f : triton_fp8)
    if (f.dtype == dtype) return &f;
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
  const bool program = kind == "program", distribution = kind == "distribution", extension = kind == "extension",
             library = kind == "library";
  if (!program && !distribution && !extension && !library && kind != "dependency") return nullptr;
  std::string n(name);
  for (auto& c : n) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  // A linker names a library as -lX, a file (libX.so.12, X.lib) or the static variant (X_static); a CMake package's
  // placeholder for its own dependency X is PKG_dep_X (OpenCV's opencv_dep_cudart). The library is X.
  if (library) {
    if (std::size_t dep = n.find("_dep_"); dep != std::string::npos) n.erase(0, dep + 5);
    if (n.starts_with("lib") && n.find('.') != std::string::npos) n.erase(0, 3);
    if (std::size_t dot = n.find('.'); dot != std::string::npos) n.resize(dot);
    if (n.ends_with("_static")) n.resize(n.size() - 7);
  }
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
  for (const auto& e : program ? programs : distribution ? distributions : extension ? extensions : library ? libraries : dependencies)
    if (e.name == n) return &e;
  return nullptr;
}

PrefixedProgram EntityTables::find_prefixed_program(std::string_view name) const {
  std::vector<std::string_view> fields;
  for (std::size_t b = 0; b <= name.size();) {
    std::size_t e = name.find('-', b);
    if (e == std::string_view::npos) e = name.size();
    fields.push_back(name.substr(b, e - b));
    b = e + 1;
  }
  auto os = [](std::string_view f) {
    for (std::string_view o : {"linux", "darwin", "mingw32", "w64", "windows", "apple", "none", "elf", "freebsd"})
      if (f.rfind(o, 0) == 0) return true;
    return false;
  };
  bool has_os = false;
  for (std::size_t k = 1; k < fields.size(); ++k) {  // k fields of prefix, the rest the tool
    has_os |= os(fields[k - 1]);
    if (k < 2 || !has_os) continue;
    std::size_t at = 0;
    for (std::size_t i = 0; i < k; ++i) at += fields[i].size() + 1;
    const ProvidedEntry* p = find_provided("program", name.substr(at));
    if (!p) continue;
    PrefixedProgram out{p, std::string(name.substr(0, at - 1)), nullptr};
    for (const auto& v : target_vendors)
      if (fields[1].rfind(v.vendor, 0) == 0) out.vendor = &v;
    return out;
  }
  return {};
}

namespace {
std::string_view member_namespace(const StdMember& m) { return m.ns.empty() ? std::string_view("std") : std::string_view(m.ns); }
}  // namespace

const StdMember* EntityTables::find_member(std::string_view ns, std::string_view name) const {
  for (const auto& m : std_members)
    if (m.name == name && member_namespace(m) == ns) return &m;
  return nullptr;
}

bool EntityTables::knows_namespace(std::string_view ns) const {
  return std::any_of(std_members.begin(), std_members.end(), [&](const StdMember& m) { return member_namespace(m) == ns; });
}

const RemovedEntryPoint* EntityTables::find_removed_entry_point(std::string_view name) const {
  if (name.empty()) return nullptr;
  for (const auto& e : removed_entry_points) {
    RE2 re(e.names, RE2::Quiet);
    if (re.ok() && RE2::FullMatch(re2::StringPiece(name.data(), name.size()), re)) return &e;
  }
  return nullptr;
}

namespace {

// One [[array]] of a table file: its entry type's string fields, what else an entry must satisfy (each
// problem a message), the key a later layer's entry replaces it by, and the list it goes into.
template <class T, std::size_t N>
struct EntrySpec {
  const char* array;
  std::array<std::pair<const char*, std::string T::*>, N> fields;
  std::array<const char*, N> required;  // the keys that must be there, in field order ("" = none)
  void (*check)(const T&, std::vector<std::string>& problems);
  std::string (*key)(const T&);
  std::vector<T> EntityTables::*into;
};

// The one entry loader: each table of spec.array read into a T (its fields, then its check); an entry
// with any error is left out, else put in its list.
template <const auto& spec>
void load_entries(const toml::table& root, std::string_view file, std::vector<std::string>& errors, EntityTables& out) {
  each(root, spec.array, file, errors, [&](const toml::table& t) {
    using T = typename std::remove_cvref_t<decltype(out.*spec.into)>::value_type;
    T e;
    e.file = std::string(file);
    e.line = static_cast<int>(t.source().begin.line);
    std::size_t before = errors.size();
    std::vector<Slot> slots;
    for (const auto& field : spec.fields) {
      const auto& key = field.first;  // named, not a structured binding: clang 14 captures none (fuzz build)
      bool required = std::any_of(spec.required.begin(), spec.required.end(),
                                  [&](const char* r) { return r && std::string_view(r) == key; });
      slots.push_back({key, &(e.*field.second), required});
    }
    fields(t, file, slots, errors);
    std::vector<std::string> problems;
    if (spec.check) spec.check(e, problems);
    for (auto& p : problems) errors.push_back(where(file, t) + p);
    if (errors.size() == before) put(out.*spec.into, std::move(e), spec.key);
  });
}

bool word(const std::string& v) {
  return !v.empty() && std::all_of(v.begin(), v.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

constexpr EntrySpec<HeaderEntry, 8> kHeaders{
    "header",
    {{{"header", &HeaderEntry::header}, {"provider", &HeaderEntry::provider}, {"kind", &HeaderEntry::kind},
      {"debian", &HeaderEntry::debian}, {"pypi", &HeaderEntry::pypi}, {"conda", &HeaderEntry::conda},
      {"signature", &HeaderEntry::signature}, {"source", &HeaderEntry::source}}},
    {"header", "provider", "kind", "source"},
    [](const HeaderEntry& h, std::vector<std::string>& p) {
      if (!h.kind.empty() && std::find(std::begin(kKinds), std::end(kKinds), h.kind) == std::end(kKinds))
        p.push_back("unknown kind '" + h.kind + "' (cuda, system, python, torch, submodule, repository, removed)");
      if (h.debian.empty() && h.pypi.empty() && h.conda.empty() && h.kind != "submodule" && h.kind != "cuda" &&
          h.kind != "torch" && h.kind != "repository" && h.kind != "removed")
        p.push_back("header '" + h.header + "': name a package (debian, pypi or conda)");
    },
    [](const HeaderEntry& e) { return e.header; }, &EntityTables::headers};

constexpr EntrySpec<ModuleEntry, 4> kModules{
    "module",
    {{{"name", &ModuleEntry::name}, {"pypi", &ModuleEntry::pypi}, {"build_signature", &ModuleEntry::build_signature},
      {"source", &ModuleEntry::source}}},
    {"name", "pypi", "build_signature", "source"},
    [](const ModuleEntry& m, std::vector<std::string>& p) {
      if (m.name.find('.') != std::string::npos) p.push_back("name a top-level module, not '" + m.name + "'");
    },
    [](const ModuleEntry& e) { return e.name; }, &EntityTables::modules};

constexpr EntrySpec<RemovedName, 5> kRemoved{
    "removed",
    {{{"module", &RemovedName::module}, {"name", &RemovedName::name}, {"removed_in", &RemovedName::removed_in},
      {"use", &RemovedName::use}, {"source", &RemovedName::source}}},
    {"module", "name", "removed_in", "source"},
    [](const RemovedName& r, std::vector<std::string>& p) {
      if (r.module.find('.') != std::string::npos) p.push_back("name a top-level module, not '" + r.module + "'");
    },
    [](const RemovedName& e) { return e.module + ":" + e.name; }, &EntityTables::removed_names};

constexpr EntrySpec<TritonArch, 4> kTritonArches{
    "arch",
    {{{"arch", &TritonArch::arch}, {"first_triton", &TritonArch::first_triton}, {"ptxas", &TritonArch::ptxas},
      {"source", &TritonArch::source}}},
    {"arch", "first_triton", "source"},
    [](const TritonArch& a, std::vector<std::string>& p) {
      if (a.arch.rfind("sm_", 0) != 0) p.push_back("arch must be sm_NN, not '" + a.arch + "'");
    },
    [](const TritonArch& e) { return e.arch; }, &EntityTables::triton_arches};

constexpr EntrySpec<TritonFp8, 4> kTritonFp8{
    "fp8",
    {{{"dtype", &TritonFp8::dtype}, {"name", &TritonFp8::name}, {"capability", &TritonFp8::capability},
      {"source", &TritonFp8::source}}},
    {"dtype", "name", "capability", "source"},
    [](const TritonFp8& f, std::vector<std::string>& p) {
      if (f.dtype.rfind("fp8", 0) != 0 || !word(f.dtype)) p.push_back("dtype is Triton's name of the type (\"fp8e4nv\"), not '" + f.dtype + "'");
      if (!f.capability.empty() && !major_minor(f.capability)) p.push_back("'" + f.capability + "' must be MAJOR.MINOR");
    },
    [](const TritonFp8& e) { return e.dtype; }, &EntityTables::triton_fp8};

constexpr EntrySpec<PtxIsa, 3> kPtx{
    "isa",
    {{{"version", &PtxIsa::version}, {"cuda", &PtxIsa::cuda}, {"source", &PtxIsa::source}}},
    {"version", "cuda", "source"},
    [](const PtxIsa& e, std::vector<std::string>& p) {
      for (const auto* v : {&e.version, &e.cuda})
        if (!v->empty() && !major_minor(*v)) p.push_back("'" + *v + "' must be MAJOR.MINOR");
    },
    [](const PtxIsa& e) { return e.version; }, &EntityTables::ptx_isas};

constexpr EntrySpec<GlibcxxVersion, 3> kGlibcxx{
    "glibcxx",
    {{{"version", &GlibcxxVersion::version}, {"gcc", &GlibcxxVersion::gcc}, {"source", &GlibcxxVersion::source}}},
    {"version", "gcc", "source"},
    [](const GlibcxxVersion& g, std::vector<std::string>& p) {
      if (!g.version.empty() && g.version.find_first_not_of("0123456789.") != std::string::npos)
        p.push_back("version is the part after GLIBCXX_ (\"3.4.32\"), not '" + g.version + "'");
    },
    [](const GlibcxxVersion& e) { return e.version; }, &EntityTables::glibcxx};

// The header is force-included as `-include HEADER`: a standard header's plain name, or a library
// header's relative path ("thrust/execution_policy.h"), nothing else. The namespace is one or more
// identifiers joined by "::"; absent, it is std.
bool relative_header(const std::string& h) {
  if (h.empty() || h.front() == '/' || h.back() == '/' || h.find("..") != std::string::npos || h.find("//") != std::string::npos)
    return false;
  return std::all_of(h.begin(), h.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '/' || c == '-';
  });
}
bool qualified_name(const std::string& ns) {
  std::size_t at = 0;
  while (true) {
    std::size_t end = ns.find("::", at);
    if (!word(ns.substr(at, end == std::string::npos ? std::string::npos : end - at))) return false;
    if (end == std::string::npos) return true;
    at = end + 2;
  }
}
constexpr EntrySpec<StdMember, 5> kStdMembers{
    "member",
    {{{"namespace", &StdMember::ns}, {"name", &StdMember::name}, {"header", &StdMember::header},
      {"compiler", &StdMember::compiler}, {"source", &StdMember::source}}},
    {"", "name", "header", "", "source"},
    [](const StdMember& m, std::vector<std::string>& p) {
      if (!m.ns.empty() && !qualified_name(m.ns))
        p.push_back("namespace is one or more identifiers joined by :: (\"thrust\", \"thrust::cuda\"), not '" + m.ns + "'");
      if (!m.name.empty() && !word(m.name)) p.push_back("name is one identifier (\"cout\"), not '" + m.name + "'");
      if (!m.header.empty() && !relative_header(m.header))
        p.push_back("header is a header's name without <> (\"iostream\", \"thrust/sort.h\"), not '" + m.header + "'");
      if (!m.compiler.empty() && m.compiler != "nvcc")
        p.push_back("compiler is \"nvcc\" (CUDA sources only) or absent (the host compiler and nvcc), not '" + m.compiler + "'");
    },
    [](const StdMember& e) { return std::string(member_namespace(e)) + "::" + e.name; }, &EntityTables::std_members};

// cuda_api.toml: `names` is an RE2 a removed name matches in full, of one library's entry points.
constexpr EntrySpec<RemovedEntryPoint, 7> kEntryPoints{
    "entry_point",
    {{{"library", &RemovedEntryPoint::library}, {"names", &RemovedEntryPoint::names},
      {"removed_in", &RemovedEntryPoint::removed_in}, {"use", &RemovedEntryPoint::use}, {"port", &RemovedEntryPoint::port},
      {"source", &RemovedEntryPoint::source}, {"checked", &RemovedEntryPoint::checked}}},
    {"library", "names", "removed_in", "use", "", "source", ""},
    [](const RemovedEntryPoint& e, std::vector<std::string>& p) {
      if (!e.removed_in.empty() && !major_minor(e.removed_in)) p.push_back("removed_in '" + e.removed_in + "' must be MAJOR.MINOR");
      RE2 re(e.names, RE2::Quiet);
      if (!e.names.empty() && !re.ok()) p.push_back("names is not RE2: " + re.error());
      if (!e.port.empty() && e.port.rfind("port.", 0) != 0) p.push_back("port names a port id (\"port.*\"), not '" + e.port + "'");
    },
    [](const RemovedEntryPoint& e) { return e.library + ":" + e.names; }, &EntityTables::removed_entry_points};

// programs.toml and dependencies.toml (its [[dependency]] and [[distribution]]) share one entry
// (ProvidedEntry); only the table's key, what a valid name looks like and the list differ.
constexpr std::array<std::pair<const char*, std::string ProvidedEntry::*>, 4> kProvidedFields{
    {{"name", &ProvidedEntry::name}, {"provider", &ProvidedEntry::provider}, {"signature", &ProvidedEntry::signature},
     {"source", &ProvidedEntry::source}}};
std::string provided_key(const ProvidedEntry& e) { return e.name; }
// A table's name as its tool spells it: non-empty, lower-case letters, digits and the given separators.
bool lower_name(const std::string& name, std::string_view separators) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [&](char c) {
    return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) ||
           separators.find(c) != std::string_view::npos;
  });
}

constexpr EntrySpec<ProvidedEntry, 4> kPrograms{
    "program", kProvidedFields, {"name", "provider", "signature", "source"},
    [](const ProvidedEntry& e, std::vector<std::string>& p) {
      const std::string& name = e.name;
      if (name.find_first_of("/\\ ") != std::string::npos || name.ends_with(".exe") ||
          std::any_of(name.begin(), name.end(), [](char c) { return std::isupper(static_cast<unsigned char>(c)); }))
        p.push_back("name the program as run, lower case and without a path or .exe, not '" + name + "'");
    },
    provided_key, &EntityTables::programs};

constexpr EntrySpec<ProvidedEntry, 4> kDependencies{
    "dependency", kProvidedFields, {"name", "provider", "signature", "source"},
    [](const ProvidedEntry& e, std::vector<std::string>& p) {
      const std::string& name = e.name;
      if (!lower_name(name, "_"))
        p.push_back("name the dependency as one lower-case word (\"cudnn\"), not '" + name + "'");
    },
    provided_key, &EntityTables::dependencies};

constexpr EntrySpec<ProvidedEntry, 4> kLibraries{
    "library", kProvidedFields, {"name", "provider", "signature", "source"},
    [](const ProvidedEntry& e, std::vector<std::string>& p) {
      const std::string& name = e.name;
      if (!lower_name(name, "_-"))
        p.push_back("name the library as -l names it, lower case without lib or a suffix (\"cudart\"), not '" + name + "'");
    },
    provided_key, &EntityTables::libraries};

constexpr EntrySpec<ProvidedEntry, 4> kDistributions{
    "distribution", kProvidedFields, {"name", "provider", "signature", "source"},
    [](const ProvidedEntry& e, std::vector<std::string>& p) {
      const std::string& name = e.name;
      if (!lower_name(name, "-"))
        p.push_back("name the distribution as PEP 503 normalizes it (lower case, '-' for '_' and '.'), not '" + name + "'");
    },
    provided_key, &EntityTables::distributions};

constexpr EntrySpec<ProvidedEntry, 4> kExtensions{
    "extension", kProvidedFields, {"name", "provider", "signature", "source"},
    [](const ProvidedEntry& e, std::vector<std::string>& p) {
      const std::string& name = e.name;
      if (!lower_name(name, "_"))
        p.push_back("name the extension by its top-level package as imported, lower case (\"torchvision\"), not '" + name + "'");
    },
    provided_key, &EntityTables::extensions};

constexpr EntrySpec<TargetVendor, 3> kTargetVendors{
    "prefix",
    {{{"vendor", &TargetVendor::vendor}, {"provider", &TargetVendor::provider}, {"source", &TargetVendor::source}}},
    {"vendor", "provider", "source"},
    [](const TargetVendor& v, std::vector<std::string>& p) {
      if (!v.vendor.empty() && !word(v.vendor)) p.push_back("vendor is one field of a target triplet (\"conda\"), not '" + v.vendor + "'");
    },
    [](const TargetVendor& e) { return e.vendor; }, &EntityTables::target_vendors};

// triton.toml's [minimum]: one table, not an array of entries.
void load_triton_minimum(const toml::table& root, std::string_view file, std::vector<std::string>& errors, EntityTables& out) {
  const toml::node* m = root.get("minimum");
  if (!m) return;
  const toml::table* t = m->as_table();
  if (!t) { errors.push_back(where(file, *m) + "'minimum' must be a table"); return; }
  std::string cap, src;
  const Slot slots[] = {{"capability", &cap, true}, {"source", &src, true}};
  if (fields(*t, file, slots, errors)) {
    out.triton_min_capability = cap;
    out.triton_min_capability_source = src;
  }
}

using Loader = void (*)(const toml::table&, std::string_view, std::vector<std::string>&, EntityTables&);

// Every table each file holds, in reading order: the file, its top-level key, the loader. A key no row
// names is reported in any file.
struct FileTable {
  std::string_view file, key;
  Loader load;
};
constexpr FileTable kFileTables[] = {
    {"headers.toml", "header", load_entries<kHeaders>},
    {"modules.toml", "module", load_entries<kModules>},
    {"modules.toml", "removed", load_entries<kRemoved>},
    {"triton.toml", "minimum", load_triton_minimum},
    {"triton.toml", "arch", load_entries<kTritonArches>},
    {"triton.toml", "fp8", load_entries<kTritonFp8>},
    {"ptx.toml", "isa", load_entries<kPtx>},
    {"libstdcxx.toml", "glibcxx", load_entries<kGlibcxx>},
    {"programs.toml", "program", load_entries<kPrograms>},
    {"programs.toml", "prefix", load_entries<kTargetVendors>},
    {"dependencies.toml", "dependency", load_entries<kDependencies>},
    {"dependencies.toml", "distribution", load_entries<kDistributions>},
    {"dependencies.toml", "extension", load_entries<kExtensions>},
    {"dependencies.toml", "library", load_entries<kLibraries>},
    {"stdlib.toml", "member", load_entries<kStdMembers>},
    {"cuda_api.toml", "entry_point", load_entries<kEntryPoints>},
};

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
  for (const auto& t : kFileTables)
    if (name == t.file) t.load(root, file, errors, out);
  for (const auto& entry : root) {
    const auto& k = entry.first;  // a structured binding would not be capturable by clang 14 (fuzz build)
    if (std::none_of(std::begin(kFileTables), std::end(kFileTables), [&](const FileTable& t) { return k.str() == t.key; }))
      errors.push_back(where(file, entry.second) + "unknown table '" + std::string(k.str()) + "'");
  }
  return errors;
}

EntityTables load_entity_tables(const std::vector<std::string>& overlay_dirs, std::vector<std::string>& errors) {
  EntityTables t;
  for (std::string_view name : {"headers.toml", "modules.toml", "triton.toml", "ptx.toml", "libstdcxx.toml", "programs.toml",
                                "dependencies.toml", "stdlib.toml", "cuda_api.toml"})
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
       {std::pair{"program", &t.programs}, std::pair{"dependency", &t.dependencies}, std::pair{"distribution", &t.distributions},
        std::pair{"extension", &t.extensions}, std::pair{"library", &t.libraries}})
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
void validate_cuda_api_file(std::string_view file, std::string_view text, std::vector<kb::KbError>& errors) {
  validate("cuda_api.toml", file, text, errors);
}

}  // namespace ts::triage
