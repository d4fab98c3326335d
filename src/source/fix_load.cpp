// Reading fixes/*.toml into Fix values, with every problem named as "file:line: what; what to write".
#include <algorithm>
#include <filesystem>
#include <set>

#include "kb/tomlpp.h"

#include "kb/layers.h"
#include "source/edit.h"
#include "source/fix.h"
#include "kb/toml_parse.h"
#include "source/tree_path.h"

namespace ts::source {

namespace {

namespace fs = std::filesystem;

int line_of(const toml::node& n) { return static_cast<int>(n.source().begin.line); }

class Reader {
 public:
  Reader(std::string file, std::vector<std::string>& errors) : file_(std::move(file)), errors_(errors) {}

  void error(int line, const std::string& msg) {
    errors_.push_back(file_ + ":" + std::to_string(line) + ": " + msg);
  }
  // Names keys a table has that the schema does not (usually typos).
  void unknown_keys(const toml::table& t, std::initializer_list<std::string_view> known, const std::string& where) {
    for (const auto& [k, v] : t) {
      if (std::find(known.begin(), known.end(), k.str()) == known.end()) {
        std::string list;
        for (auto kk : known) list += (list.empty() ? "" : ", ") + std::string(kk);
        error(line_of(v), where + ": unknown key '" + std::string(k.str()) + "'; known keys: " + list);
      }
    }
  }
  std::string text(const toml::table& t, std::string_view key, bool required, int line, const std::string& where) {
    const toml::node* n = t.get(key);
    if (!n) {
      if (required) error(line, where + ": '" + std::string(key) + "' is missing");
      return "";
    }
    if (auto s = n->value<std::string>()) return *s;
    error(line_of(*n), where + ": '" + std::string(key) + "' must be a string");
    return "";
  }
  bool flag(const toml::table& t, std::string_view key, bool fallback, const std::string& where) {
    const toml::node* n = t.get(key);
    if (!n) return fallback;
    if (auto b = n->value<bool>()) return *b;
    error(line_of(*n), where + ": '" + std::string(key) + "' must be true or false");
    return fallback;
  }
  std::optional<VersionRange> range(const toml::table& t, std::string_view key, const std::string& where) {
    const toml::node* n = t.get(key);
    if (!n) return std::nullopt;
    auto s = n->value<std::string>();
    std::string why;
    std::optional<VersionRange> r;
    if (s) r = VersionRange::parse(*s, &why);
    if (!r) {
      error(line_of(*n), where + ": '" + std::string(key) + "' is not a version range" +
                             (why.empty() ? "" : " (" + why + ")") + "; write e.g. \">=2.0,<2.7\" or \"12.8+\"");
      return std::nullopt;
    }
    return r;
  }

 private:
  std::string file_;
  std::vector<std::string>& errors_;
};

constexpr std::string_view kPlaceholders[] = {"cuda", "version", "cmake", "gcc", "arch_list"};

// Every {{name}} in text must be one the context can fill.
std::string template_problem(const std::string& text) {
  std::size_t pos = 0;
  while ((pos = text.find("{{", pos)) != std::string::npos) {
    auto end = text.find("}}", pos);
    if (end == std::string::npos) return "'{{' without '}}'";
    std::string name = text.substr(pos + 2, end - pos - 2);
    if (std::find(std::begin(kPlaceholders), std::end(kPlaceholders), name) == std::end(kPlaceholders))
      return "unknown placeholder {{" + name + "}}; known: cuda, version, cmake, gcc, arch_list";
    pos = end + 2;
  }
  return "";
}

std::optional<EditOp> parse_op(std::string_view s) {
  if (s == "insert_before") return EditOp::insert_before;
  if (s == "insert_after") return EditOp::insert_after;
  if (s == "replace") return EditOp::replace;
  return std::nullopt;
}

bool valid_id(const std::string& id) {
  if (id.empty() || id.front() == '-') return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_';
  });
}

void read_when(Reader& r, const toml::table& w, Fix& fix, const std::string& where) {
  r.unknown_keys(w, {"package", "version", "cuda", "cmake", "gcc", "arches_any"}, where + ".when");
  std::string pkg = r.text(w, "package", false, line_of(w), where + ".when");
  if (!pkg.empty()) fix.when.package = pkg;
  fix.when.version = r.range(w, "version", where + ".when");
  fix.when.cuda = r.range(w, "cuda", where + ".when");
  fix.when.cmake = r.range(w, "cmake", where + ".when");
  fix.when.gcc = r.range(w, "gcc", where + ".when");
  if (const toml::node* n = w.get("arches_any")) {
    const toml::array* a = n->as_array();
    if (!a) {
      r.error(line_of(*n), where + ".when: 'arches_any' must be a list of arches, e.g. [\"12.0\", \"10.0\"]");
      return;
    }
    for (const auto& e : *a) {
      auto s = e.value<std::string>();
      std::string why;
      auto arch = s ? CudaArch::parse(*s, &why) : std::nullopt;
      if (!arch) {
        r.error(line_of(e), where + ".when: arches_any: not an arch" + (why.empty() ? "" : " (" + why + ")") +
                                "; write e.g. \"8.9\" or \"sm_120\"");
        continue;
      }
      fix.when.arches_any.push_back(arch->sass_only());
    }
  }
}

void read_edit(Reader& r, const toml::table& t, Fix& fix, bool fix_template, const std::string& where) {
  int line = line_of(t);
  r.unknown_keys(t, {"file", "anchor", "regex", "op", "text", "template"}, where);
  FileEdit e;
  e.line = line;
  e.file = r.text(t, "file", true, line, where);
  e.anchor = r.text(t, "anchor", true, line, where);
  e.regex = r.flag(t, "regex", false, where);
  e.text = r.text(t, "text", true, line, where);
  e.templated = r.flag(t, "template", fix_template, where);
  std::string op = r.text(t, "op", true, line, where);
  if (!op.empty()) {
    if (auto o = parse_op(op)) e.op = *o;
    else r.error(line, where + ": op '" + op + "' is not one of insert_before, insert_after, replace");
  }
  if (!e.file.empty()) {
    if (std::string why = relative_path_problem(e.file); !why.empty())
      r.error(line, where + ": file '" + e.file + "': " + why);
  }
  if (t.get("anchor") && e.anchor.empty()) r.error(line, where + ": anchor is empty; an anchor must name the text it edits");
  if (e.regex && !e.anchor.empty()) {
    if (std::string why = anchor_regex_problem(e.anchor); !why.empty())
      r.error(line, where + ": anchor is not a valid regex (" + why + "; RE2 syntax, no lookaround: name the "
                            "edited span (?P<at>...) and match its context around it)");
  }
  if (e.templated)
    if (std::string why = template_problem(e.text); !why.empty()) r.error(line, where + ": text: " + why);
  // An empty text leaves no trace, so a second run could not tell "applied" from "drifted".
  if (t.get("text") && e.text.empty())
    r.error(line, where + ": text is empty; to remove code, replace it with a comment saying why");
  if (e.op == EditOp::replace && !e.regex && !e.anchor.empty() && e.text == e.anchor)
    r.error(line, where + ": replace with the same text changes nothing");
  fix.edits.push_back(std::move(e));
}

void read_fix(Reader& r, const toml::table& t, std::string_view file_name, std::vector<Fix>& out) {
  Fix fix;
  fix.file = std::string(file_name);
  fix.line = line_of(t);
  std::string where = "fix";
  r.unknown_keys(t, {"id", "reason", "source", "checked", "template", "when", "env", "cmake", "edit"}, where);
  fix.id = r.text(t, "id", true, fix.line, where);
  if (!fix.id.empty()) {
    where = "fix '" + fix.id + "'";
    if (!valid_id(fix.id))
      r.error(fix.line, where + ": id must be lower-case letters, digits, '-', '.', '_' (e.g. torch-cmake4-policy-minimum)");
  }
  fix.reason = r.text(t, "reason", true, fix.line, where);
  fix.source = r.text(t, "source", true, fix.line, where);
  fix.checked = r.text(t, "checked", false, fix.line, where);
  bool tmpl = r.flag(t, "template", false, where);

  if (const toml::node* n = t.get("when")) {
    if (const toml::table* w = n->as_table()) read_when(r, *w, fix, where);
    else r.error(line_of(*n), where + ": 'when' must be a table ([fix.when])");
  }
  if (const toml::node* n = t.get("env")) {
    if (const toml::table* env = n->as_table()) {
      for (const auto& [k, v] : *env) {
        auto s = v.value<std::string>();
        if (!s) {
          r.error(line_of(v), where + ": env." + std::string(k.str()) + " must be a string");
          continue;
        }
        if (std::string why = template_problem(*s); !why.empty()) r.error(line_of(v), where + ": env: " + why);
        fix.env.emplace_back(std::string(k.str()), *s);
      }
    } else {
      r.error(line_of(*n), where + ": 'env' must be a table ([fix.env] KEY = \"VALUE\")");
    }
  }
  if (const toml::node* n = t.get("cmake")) {
    const toml::array* a = n->as_array();
    if (!a) r.error(line_of(*n), where + ": 'cmake' must be a list of options, e.g. [\"-DBUILD_TEST=OFF\"]");
    for (std::size_t i = 0; a && i < a->size(); ++i) {
      auto s = (*a)[i].value<std::string>();
      if (!s || s->rfind("-D", 0) != 0 || s->find('=') == std::string::npos)
        r.error(line_of((*a)[i]), where + ": cmake option must read -DNAME=VALUE");
      else fix.cmake_options.push_back(*s);
    }
  }
  if (const toml::node* n = t.get("edit")) {
    const toml::array* a = n->as_array();
    if (!a) r.error(line_of(*n), where + ": 'edit' must be an array of tables ([[fix.edit]])");
    for (std::size_t i = 0; a && i < a->size(); ++i) {
      if (const toml::table* et = (*a)[i].as_table())
        read_edit(r, *et, fix, tmpl, where + " edit " + std::to_string(i + 1));
      else r.error(line_of((*a)[i]), where + ": each edit must be a table");
    }
  }
  if (fix.env.empty() && fix.cmake_options.empty() && fix.edits.empty())
    r.error(fix.line, where + ": no action; give [fix.env], cmake = [...] or [[fix.edit]]");
  out.push_back(std::move(fix));
}

}  // namespace

std::string_view to_string(EditOp op) {
  switch (op) {
    case EditOp::insert_before: return "insert_before";
    case EditOp::insert_after: return "insert_after";
    case EditOp::replace: return "replace";
  }
  return "?";
}

const Fix* FixSet::find(std::string_view id) const {
  for (const auto& f : fixes)
    if (f.id == id) return &f;
  return nullptr;
}

std::vector<std::string> parse_fixes_text(std::string_view file_name, std::string_view text, std::vector<Fix>& out) {
  std::vector<std::string> errors;
  Reader r(std::string(file_name), errors);
  if (std::string bad = kb::toml_precheck(text); !bad.empty()) {
    errors.push_back(std::string(file_name) + ":" + bad + " (not valid TOML)");
    return errors;
  }
  toml::table doc;
  try {
    doc = toml::parse(text, std::string_view(file_name));
  } catch (const toml::parse_error& e) {
    r.error(static_cast<int>(e.source().begin.line), std::string("not valid TOML: ") + std::string(e.description()));
    return errors;
  }
  r.unknown_keys(doc, {"fix"}, "file");
  std::vector<Fix> parsed;
  if (const toml::node* n = doc.get("fix")) {
    const toml::array* a = n->as_array();
    if (!a) r.error(line_of(*n), "'fix' must be an array of tables ([[fix]])");
    for (std::size_t i = 0; a && i < a->size(); ++i) {
      if (const toml::table* t = (*a)[i].as_table()) read_fix(r, *t, file_name, parsed);
      else r.error(line_of((*a)[i]), "each fix must be a table ([[fix]])");
    }
  }
  std::set<std::string> seen;
  for (const auto& f : parsed)
    if (!f.id.empty() && !seen.insert(f.id).second)
      r.error(f.line, "fix '" + f.id + "' is defined twice in this file; ids must be unique");
  if (errors.empty()) out.insert(out.end(), parsed.begin(), parsed.end());
  return errors;
}

std::vector<std::string> check_fixes_text(std::string_view file_name, std::string_view text) {
  std::vector<Fix> ignored;
  return parse_fixes_text(file_name, text, ignored);
}

void validate_fixes_file(std::string_view file, std::string_view text, std::vector<kb::KbError>& errors) {
  kb::add_line_errors(file, check_fixes_text(file, text), errors);
}

namespace {

void merge(FixSet& set, std::vector<Fix>& fixes) {
  for (auto& f : fixes) {
    auto it = std::find_if(set.fixes.begin(), set.fixes.end(), [&](const Fix& g) { return g.id == f.id; });
    if (it != set.fixes.end()) *it = std::move(f);  // an overlay replaces the built-in fix of that id
    else set.fixes.push_back(std::move(f));
  }
}

void load_file(FixSet& set, const std::string& name, std::string_view text, std::vector<std::string>& errors) {
  std::vector<Fix> fixes;
  auto errs = parse_fixes_text(name, text, fixes);
  errors.insert(errors.end(), errs.begin(), errs.end());
  merge(set, fixes);
}

}  // namespace

FixSet load_fixes(const std::vector<std::string>& overlay_dirs, std::vector<std::string>& errors) {
  FixSet set;
  for (const auto& f : kb::embedded_folder("fixes/")) load_file(set, f.name, f.text, errors);

  for (const auto& dir : overlay_dirs) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
      errors.push_back(dir + ": not a directory; --kb takes a KB overlay directory (with fixes/*.toml)");
      continue;
    }
    // DIR/fixes/*.toml in a KB overlay; a directory named fixes may be given directly too.
    fs::path d = fs::path(dir).lexically_normal();
    if (d.filename().empty()) d = d.parent_path();  // "kb/fixes/" names the folder "fixes" too
    std::string fixes_dir = d.filename() == "fixes" ? d.string() : (d / "fixes").string();
    if (!fs::is_directory(fixes_dir, ec)) continue;
    for (const auto& f : kb::folder_layer(fixes_dir)) {
      if (f.read) load_file(set, f.name, f.text, errors);
      else errors.push_back(f.name + ": cannot read");
    }
  }
  return set;
}

}  // namespace ts::source
