// kb check: loader validation + cross-file checks + the validators of the other tables' files.
#include "kb/check.h"
#include "kb/citation.h"
#include "kb/toml_parse.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "kb/tomlpp.h"

#include "core/cuda_arch.h"
#include "core/version.h"
#include "kb/embedded.h"
#include "kb/files.h"
#include "util/split.h"

namespace ts::kb {

namespace {

// The validator of the table that holds `relative`: a file's own table first, then the longest folder.
Validate find_validator(const std::vector<TableSpec>& tables, const std::string& relative) {
  const TableSpec* best = nullptr;
  for (const auto& t : tables) {
    if (!t.validate || !table_holds(t.where, relative)) continue;
    if (t.where == relative) return t.validate;
    if (!best || t.where.size() > best->where.size()) best = &t;
  }
  return best ? best->validate : nullptr;
}

// A file no loader of this stage reads: its validator, else a TOML syntax check.
void check_foreign(const std::vector<TableSpec>& tables, const std::string& relative, const std::string& shown,
                   std::string_view text, std::vector<KbError>& errors) {
  if (Validate v = find_validator(tables, relative)) {
    try {
      v(shown, text, errors);
    } catch (const std::exception& e) {
      errors.push_back({{shown, 0}, std::string("validator failed: ") + e.what()});
    }
    return;
  }
  try {
    (void)parse_toml(text, shown);
  } catch (const toml::parse_error& e) {
    errors.push_back({{shown, static_cast<int>(e.source().begin.line)},
                      "TOML syntax error: " + std::string(e.description())});
  }
}

std::string sass(std::string_view arch) {
  auto a = CudaArch::parse(arch);
  return a ? a->sass_only().str() : std::string(arch);
}

}  // namespace

std::vector<KbError> cross_check(const Kb& kb) {
  std::vector<KbError> out;
  std::set<std::string> targets;
  for (const auto& r : kb.cuda)
    for (const auto& a : r.arches) targets.insert(a.str());
  auto need_arch = [&](const Origin& o, std::string_view what, const std::string& arch) {
    if (!targets.count(sass(arch)))
      out.push_back({o, std::string(what) + ": arch '" + arch + "' is a target of no toolkit in cuda.toml; "
                                             "fix the arch or add the toolkit that has it"});
  };
  for (const auto& g : kb.gpus) {
    need_arch(g.origin, "gpu " + g.pci_id, g.arch.str());
    if (!kb.find_family(g.family))
      out.push_back({g.origin, "gpu " + g.pci_id + ": family '" + g.family + "' is not in families.toml"});
  }
  for (const auto& s : kb.tegra) {
    need_arch(s.origin, "soc " + s.compatible, s.arch.str());
    for (const auto& x : s.arch_by_cuda) need_arch(s.origin, "soc " + s.compatible + " arch_by_cuda", x.arch.str());
  }
  std::map<std::string, std::string> names;  // lower-case name or alias -> family, to catch ambiguity
  for (const auto& f : kb.families) {
    std::vector<std::string> all = f.aliases;
    all.push_back(f.name);
    for (auto n : all) {
      for (auto& ch : n) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      auto [it, fresh] = names.emplace(n, f.name);
      if (!fresh && it->second != f.name)
        out.push_back({f.origin, "family " + f.name + ": name or alias '" + n + "' is also used by family " +
                                     it->second + "; an arch list name must mean one family"});
    }
    for (const auto& a : f.arches) need_arch(f.origin, "family " + f.name, a.str());
    for (const auto& a : f.torch_arches) need_arch(f.origin, "family " + f.name + " torch_arches", a.str());
  }
  for (const auto& t : kb.torch) {
    for (const auto& c : t.cuda)
      if (!kb.find_cuda(c))
        out.push_back({t.origin, "torch " + t.version.original() + ": CUDA " + c.original() + " is not in cuda.toml; add the toolkit there"});
    for (const auto& a : t.arch_names) need_arch(t.origin, "torch " + t.version.original() + " arch_names", a.str());
  }
  for (const auto& r : kb.cuda) {
    // Minor-version compatibility exists from CUDA 11 on.
    if (r.version.major() >= 11 && !kb.find_cuda_family(r.version))
      out.push_back({r.origin, "cuda release " + r.version.original() + ": no [[family]] with major = \"" + std::to_string(r.version.major()) +
                                   "\" (minor-version compatibility floor); add one"});
  }
  return out;
}

std::vector<KbError> check_kb(const std::vector<std::string>& overlay_dirs, bool include_embedded,
                              const std::vector<TableSpec>& tables) {
  std::vector<KbError> errors;
  try {
    // The embedded KB is always the base the overlays are checked against; its own problems are
    // reported only when asked for.
    std::vector<KbError> embedded_errors;
    Kb kb = load_embedded(embedded_errors);
    std::set<std::string> embedded_names(kb.files.begin(), kb.files.end());
    if (include_embedded) {
      errors = std::move(embedded_errors);
      for (const auto& f : embedded_files()) {
        std::string_view text(f.data, f.size);
        if (detail::load_order(f.path) < 0) check_foreign(tables, f.path, f.path, text, errors);
        check_citations(f.path, text, errors);
      }
    }
    for (const auto& dir : overlay_dirs) {
      load_dir(kb, dir, errors);
      std::vector<detail::KbFile> files;
      std::string err;
      if (!detail::list_toml_files(dir, files, err)) continue;  // load_dir reported it
      for (const auto& f : files) {
        std::string text;
        if (!detail::read_text_file(f.path, text)) continue;
        if (detail::load_order(f.relative) < 0) check_foreign(tables, f.relative, f.path, text, errors);
        check_citations(f.path, text, errors);
      }
    }
    for (auto& e : cross_check(kb))
      if (include_embedded || !embedded_names.count(e.origin.file)) errors.push_back(std::move(e));
  } catch (const std::exception& e) {
    errors.push_back({{"kb", 0}, std::string("kb check failed: ") + e.what()});
  }
  return errors;
}

namespace {

std::string at(const Origin& o) { return o.file + ":" + std::to_string(o.line); }

template <class T>
void diff_field(std::vector<std::string>& d, const char* name, const T& a, const T& b) {
  if (a != b) d.push_back(name);
}

}  // namespace

std::vector<std::string> overlay_replacements(const std::vector<std::string>& overlay_dirs) {
  std::vector<std::string> out;
  std::vector<KbError> errors;
  Kb base = load_embedded(errors);
  Kb all = load(overlay_dirs, errors);
  for (const auto& t : all.torch) {
    const TorchRelease* b = base.find_torch(t.version);
    if (!b || t.origin.file == b->origin.file) continue;
    std::vector<std::string> d;
    diff_field(d, "released", b->released, t.released);
    diff_field(d, "python", b->python.str(), t.python.str());
    diff_field(d, "cuda", util::join(spelled(b->cuda), ","), util::join(spelled(t.cuda), ","));
    diff_field(d, "cmake_min", b->cmake_min, t.cmake_min);
    diff_field(d, "arch_names", util::join(spelled(b->arch_names), ","), util::join(spelled(t.arch_names), ","));
    out.push_back("torch " + t.version.original() + ": " + at(t.origin) + " replaces the built-in entry (" + at(b->origin) + ")" +
                  (d.empty() ? " with the same values" : "; differs in " + util::join(d, ",")) + " (source: " + t.source + ")");
  }
  for (const auto& c : all.cuda) {
    const CudaRelease* b = base.find_cuda(c.version);
    if (!b || c.origin.file == b->origin.file) continue;
    std::vector<std::string> d;
    diff_field(d, "arches", util::join(spelled(b->arches), ","), util::join(spelled(c.arches), ","));
    diff_field(d, "gcc_max", b->gcc_max, c.gcc_max);
    diff_field(d, "clang_max", b->clang_max, c.clang_max);
    diff_field(d, "driver_min_linux", b->driver_min_linux, c.driver_min_linux);
    out.push_back("cuda " + c.version.original() + ": " + at(c.origin) + " replaces the built-in entry (" + at(b->origin) + ")" +
                  (d.empty() ? " with the same values" : "; differs in " + util::join(d, ",")) + " (source: " + c.source + ")");
  }
  return out;
}

}  // namespace ts::kb
