// Reading ports.toml and applying its rewrites to a source tree, journaled apart from the fixes.
#include "source/port.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <memory>
#include <re2/re2.h>
#include <set>

#include "kb/layers.h"
#include "kb/toml_parse.h"
#include "kb/tomlpp.h"
#include "source/apply.h"
#include "source/dispatch_type_var.h"
#include "source/hash.h"
#include "source/include_order.h"
#include "source/instantiate.h"
#include "source/journal.h"
#include "source/merge_conflict.h"
#include "source/py_tabs.h"
#include "source/udiff.h"
#include "util/fs.h"

namespace ts::source {

namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kSourceEndings{".c", ".cc", ".cpp", ".cxx", ".cu", ".cuh", ".h", ".hh", ".hpp", ".hxx", ".inl"};
constexpr std::uintmax_t kMaxFileBytes = 4u << 20;  // generated tables, not hand-written ops
constexpr int kMaxFiles = 20000;
constexpr int kMaxPasses = 8;  // a repeating port: one more pass per match a pass cannot reach

std::string str(const toml::table& t, std::string_view key) { return t[key].value_or(std::string()); }

bool ends_with(const std::string& s, const std::string& e) {
  return s.size() >= e.size() && s.compare(s.size() - e.size(), e.size(), e) == 0;
}

// The preprocessor directive a line holds ("include", "ifdef", ...), or "".
std::string_view directive(std::string_view line) {
  std::size_t i = line.find_first_not_of(" \t");
  if (i == std::string_view::npos || line[i] != '#') return {};
  i = line.find_first_not_of(" \t", i + 1);
  if (i == std::string_view::npos) return {};
  std::size_t j = i;
  while (j < line.size() && std::isalpha(static_cast<unsigned char>(line[j]))) ++j;
  return line.substr(i, j - i);
}

// A port's `unless` (a file it leaves alone) and an include port's own header, compiled.
struct IncludeRes {
  std::unique_ptr<RE2> unless, own, when;
};

// A rewrite port over one file's text: once, or (`repeat`) again while it still rewrites, for a
// match a pass cannot reach (a second `char` of one template header); the matches rewritten.
int port_rewrite(const Port& p, const RE2& re, const IncludeRes& c, std::string& now) {
  int total = 0;
  for (int pass = 0; pass < (p.repeat ? kMaxPasses : 1); ++pass) {
    if (c.unless && RE2::PartialMatch(now, *c.unless)) break;
    std::string before = now;
    int n = RE2::GlobalReplace(&now, re, p.rewrite);
    total += n;
    if (n == 0 || now == before) break;
  }
  return total;
}

// Adds the include port's header to `now` when the use is there and nothing gives it; true if added.
bool port_include(const Port& p, const RE2& use, const IncludeRes& inc, std::string& now) {
  re2::StringPiece m;
  if (!use.Match(now, 0, now.size(), RE2::UNANCHORED, &m, 1)) return false;
  if ((inc.unless && RE2::PartialMatch(now, *inc.unless)) || RE2::PartialMatch(now, *inc.own)) return false;
  now = add_include(now, static_cast<std::size_t>(m.data() - now.data()), p.include);
  return true;
}

// The transforms a port may name: the new text of the file, or nullopt where the function finds
// nothing to do. The context gives the file's path (a transform that reads what it includes) and the
// symbols a built library could not find (none while the ports answer a failed compile).
using Transform = std::optional<std::string> (*)(std::string_view text, const TransformContext& ctx);
Transform transform_of(const std::string& name) {
  if (name == "python2-tabs")
    return [](std::string_view text, const TransformContext&) { return expand_python2_tabs(text); };
  if (name == "include-order")
    return [](std::string_view text, const TransformContext& ctx) { return order_includes_before_use(text, ctx.path); };
  if (name == "merge-conflict-same-code")
    return [](std::string_view text, const TransformContext&) { return resolve_same_code_conflicts(text); };
  if (name == "dispatch-type-variable")
    return [](std::string_view text, const TransformContext&) { return port_dispatch_type_variables(text); };
  if (name == "template-instantiation")
    return [](std::string_view text, const TransformContext& ctx) -> std::optional<std::string> {
      if (!ctx.undefined || ctx.undefined->empty()) return std::nullopt;
      return instantiate_undefined(text, *ctx.undefined);
    };
  return nullptr;
}

// A transform port over `now` where its anchor matches: 1 when it rewrote the file, else 0.
int transformed(const Port& p, const RE2& anchor, std::string& now, const TransformContext& ctx) {
  Transform f = transform_of(p.transform);
  if (!f || !RE2::PartialMatch(now, anchor)) return 0;
  auto out = f(now, ctx);
  if (!out || *out == now) return 0;
  now = std::move(*out);
  return 1;
}

}  // namespace

std::string add_include(std::string_view text, std::size_t use, std::string_view header) {
  std::vector<int> blocks;  // the #if blocks open at a line, each by a number of its own
  int next = 0;
  std::size_t at = 0;       // after the last include active wherever the use is; 0 = the top
  std::vector<std::pair<std::size_t, std::vector<int>>> includes;
  for (std::size_t pos = 0; pos < text.size() && pos <= use;) {
    std::size_t eol = text.find('\n', pos);
    std::size_t end = eol == std::string_view::npos ? text.size() : eol + 1;
    std::string_view d = directive(text.substr(pos, end - pos));
    if (d == "if" || d == "ifdef" || d == "ifndef") blocks.push_back(next++);
    else if ((d == "elif" || d == "else" || d == "elifdef" || d == "elifndef") && !blocks.empty()) blocks.back() = next++;
    else if (d == "endif" && !blocks.empty()) blocks.pop_back();
    else if (d == "include" && end <= use) includes.push_back({end, blocks});
    pos = end;
  }
  for (const auto& [end, open] : includes)
    if (open.size() <= blocks.size() && std::equal(open.begin(), open.end(), blocks.begin())) at = end;
  std::string line = "#include <" + std::string(header) + ">\n";
  std::string out(text);
  if (at > 0 && out[at - 1] != '\n') line = "\n" + line;  // an include on the last line, with no newline
  out.insert(at, line);
  return out;
}

const Port* PortSet::find(std::string_view id) const {
  for (const auto& p : ports)
    if (p.id == id) return &p;
  return nullptr;
}

std::vector<std::string> parse_ports_text(std::string_view file_name, std::string_view text, std::vector<Port>& out) {
  std::vector<std::string> errors;
  std::string file(file_name);
  auto error = [&](int line, const std::string& m) { errors.push_back(file + ":" + std::to_string(line) + ": " + m); };
  if (std::string bad = kb::toml_precheck(text); !bad.empty()) {
    errors.push_back(file + ":" + bad + " (not valid TOML)");
    return errors;
  }
  toml::table doc;
  try {
    doc = toml::parse(text, std::string_view(file_name));
  } catch (const toml::parse_error& e) {
    error(static_cast<int>(e.source().begin.line), std::string("not valid TOML: ") + std::string(e.description()));
    return errors;
  }
  for (const auto& [k, v] : doc)
    if (k.str() != "port") error(static_cast<int>(v.source().begin.line), "unknown key '" + std::string(k.str()) + "' (write [[port]] tables)");
  std::vector<Port> parsed;
  std::set<std::string> seen;
  const toml::array* a = doc["port"].as_array();
  if (doc.contains("port") && !a) error(static_cast<int>(doc["port"].node()->source().begin.line), "'port' must be an array of tables ([[port]])");
  for (std::size_t i = 0; a && i < a->size(); ++i) {
    const toml::table* t = (*a)[i].as_table();
    int line = static_cast<int>((*a)[i].source().begin.line);
    if (!t) {
      error(line, "each port must be a table ([[port]])");
      continue;
    }
    static const std::set<std::string> known{"id",      "reason",  "removed_in", "source", "checked",
                                            "pattern", "rewrite", "files",      "include", "unless",
                                            "when",    "repeat",  "transform", "answers"};
    for (const auto& [k, v] : *t)
      if (!known.count(std::string(k.str())))
        error(static_cast<int>(v.source().begin.line), "port: unknown key '" + std::string(k.str()) + "'");
    Port p;
    p.id = str(*t, "id");
    p.reason = str(*t, "reason");
    p.removed_in = str(*t, "removed_in");
    p.source = str(*t, "source");
    p.checked = str(*t, "checked");
    p.pattern = str(*t, "pattern");
    p.rewrite = str(*t, "rewrite");
    p.include = str(*t, "include");
    p.unless = str(*t, "unless");
    p.when = str(*t, "when");
    if (const auto* r = (*t)["repeat"].as_boolean()) p.repeat = r->get();
    else if ((*t).contains("repeat")) error(line, "port '" + p.id + "': repeat must be true or false");
    p.transform = str(*t, "transform");
    if (const toml::array* a = (*t)["answers"].as_array())
      for (const auto& e : *a)
        if (auto id = e.value<std::string>()) p.answers.push_back(*id);
    p.file = file;
    p.line = line;
    if (const toml::array* f = (*t)["files"].as_array())
      for (const auto& e : *f)
        if (auto s = e.value<std::string>()) p.files.push_back(*s);
    if (p.files.empty()) p.files = kSourceEndings;
    std::string who = "port '" + p.id + "'";
    if (p.id.rfind("port.", 0) != 0) error(line, who + ": id must start with 'port.'");
    if (!seen.insert(p.id).second) error(line, who + " is defined twice in this file; ids must be unique");
    if (p.reason.empty()) error(line, who + ": reason is required (what was removed and what replaces it)");
    if (p.source.empty()) error(line, who + ": source is required (the upstream change or release note)");
    if (!p.removed_in.empty() && p.removed_in.find_first_not_of("0123456789.") != std::string::npos)
      error(line, who + ": removed_in '" + p.removed_in + "' is not a torch release (write \"1.11\", or \"\" if deprecated only)");
    if (p.pattern.empty()) {
      error(line, who + ": pattern is required (an RE2 expression)");
    } else {
      RE2 re(p.pattern, RE2::Quiet);
      std::string why;
      if (!re.ok()) error(line, who + ": pattern is not RE2: " + re.error());
      else if (!re.CheckRewriteString(p.rewrite, &why)) error(line, who + ": rewrite: " + why);
    }
    if (!p.include.empty()) {
      if (!p.rewrite.empty()) error(line, who + ": an include port adds its header; give include or rewrite, not both");
      if (p.include.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./+-") != std::string::npos)
        error(line, who + ": include '" + p.include + "' is not a header path (write ATen/cuda/CUDAContext.h)");
    }
    if (!p.transform.empty() && !transform_of(p.transform))
      error(line, who + ": transform '" + p.transform + "' is none this torchsmith has (python2-tabs, include-order, dispatch-type-variable, template-instantiation, merge-conflict-same-code)");
    if (!p.transform.empty() && (!p.rewrite.empty() || !p.include.empty()))
      error(line, who + ": a transform port rewrites by its function; give transform, not rewrite or include");
    if (RE2 u(p.unless, RE2::Quiet); !p.unless.empty() && !u.ok()) error(line, who + ": unless is not RE2: " + u.error());
    if (RE2 w(p.when, RE2::Quiet); !p.when.empty() && !w.ok()) error(line, who + ": when is not RE2: " + w.error());
    if (p.repeat && !p.include.empty()) error(line, who + ": repeat is for a rewrite; an include port adds its header once");
    if ((*t).contains("answers") && !(*t)["answers"].as_array())
      error(line, who + ": answers must be a list of signature ids ([\"SOURCE_MERGE_CONFLICT_MARKERS\"])");
    for (const auto& id : p.answers)
      if (id.empty() || id.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != std::string::npos)
        error(line, who + ": answers: '" + id + "' is not a signature id (write SOURCE_MERGE_CONFLICT_MARKERS)");
    parsed.push_back(std::move(p));
  }
  if (errors.empty()) out.insert(out.end(), parsed.begin(), parsed.end());
  return errors;
}

void validate_ports_file(std::string_view file, std::string_view text, std::vector<kb::KbError>& errors) {
  std::vector<Port> ignored;
  kb::add_line_errors(file, parse_ports_text(file, text, ignored), errors);
}

PortSet load_ports(const std::vector<std::string>& overlay_dirs, std::vector<std::string>& errors) {
  PortSet set;
  kb::for_each_layer("ports.toml", overlay_dirs, [&](const std::string& file, std::string_view text) {
    std::vector<Port> got;
    auto errs = parse_ports_text(file, text, got);
    errors.insert(errors.end(), errs.begin(), errs.end());
    for (auto& p : got) {
      auto it = std::find_if(set.ports.begin(), set.ports.end(), [&](const Port& q) { return q.id == p.id; });
      if (it != set.ports.end()) *it = std::move(p);
      else set.ports.push_back(std::move(p));
    }
  });
  return set;
}

PortResult apply_ports(const std::string& tree, const PortSet& set, bool dry_run,
                       const std::vector<std::string>* undefined_symbols) {
  PortResult res;
  Journal journal;
  std::string why;
  if (!read_journal(tree, journal, &why, kPortJournalRel)) {
    res.ok = false;
    res.errors.push_back(why);
    return res;
  }
  std::vector<std::unique_ptr<RE2>> res2;
  std::vector<IncludeRes> incs(set.ports.size());
  for (std::size_t i = 0; i < set.ports.size(); ++i) {
    const Port& p = set.ports[i];
    res2.push_back(std::make_unique<RE2>(p.pattern, RE2::Quiet));
    if (!p.unless.empty()) incs[i].unless = std::make_unique<RE2>(p.unless, RE2::Quiet);
    if (!p.when.empty()) incs[i].when = std::make_unique<RE2>(p.when, RE2::Quiet);
    if (p.include.empty()) continue;
    incs[i].own = std::make_unique<RE2>("#\\s*include\\s*[<\"]" + RE2::QuoteMeta(p.include) + "[>\"]", RE2::Quiet);
  }

  struct Changed {
    std::string rel, abs, before, after;
    unsigned mode;
  };
  std::vector<Changed> changed;
  std::set<std::string> matched;
  std::error_code ec;
  fs::recursive_directory_iterator it(tree, fs::directory_options::skip_permission_denied, ec), end;
  std::vector<fs::path> files;
  for (int seen = 0; !ec && it != end && seen < kMaxFiles; it.increment(ec), ++seen) {
    std::string n = it->path().filename().string();
    if (it->is_symlink(ec)) continue;  // a link may lead out of the tree: never written through
    if (it->is_directory(ec)) {
      if (n == ".git" || n == "build" || n == "dist" || n == "third_party" || n == ".torchsmith" || n == "node_modules")
        it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec) && it->file_size(ec) <= kMaxFileBytes) files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& path : files) {
    std::string name = path.filename().string();
    auto text = util::read_file(path.string());
    if (!text) continue;
    std::string now = *text;
    PortedFile pf;
    pf.path = fs::relative(path, tree, ec).generic_string();
    for (std::size_t i = 0; i < set.ports.size(); ++i) {
      const Port& p = set.ports[i];
      if (!res2[i]->ok() ||
          std::none_of(p.files.begin(), p.files.end(), [&](const std::string& e) { return ends_with(name, e); }))
        continue;
      if (p.include.empty() && incs[i].unless && RE2::PartialMatch(now, *incs[i].unless)) continue;
      if (incs[i].when && !RE2::PartialMatch(now, *incs[i].when)) continue;
      // An include port completes what the rewrites did to this file; a file no port changed built as it was.
      int n = !p.transform.empty() ? transformed(p, *res2[i], now, {path.string(), undefined_symbols})
              : p.include.empty()   ? port_rewrite(p, *res2[i], incs[i], now)
              : now != *text        ? port_include(p, *res2[i], incs[i], now)
                                    : 0;
      if (n > 0) {
        pf.ports.push_back(p.id);
        pf.rewrites += n;
        matched.insert(p.id);
      }
    }
    if (now == *text) continue;
    struct stat st {};
    unsigned mode = ::stat(path.c_str(), &st) == 0 ? (st.st_mode & 07777) : 0644;
    res.diff += unified_diff(pf.path, *text, now);
    res.files.push_back(pf);
    changed.push_back({pf.path, path.string(), *text, now, mode});
  }
  for (const auto& p : set.ports)
    if (matched.count(p.id)) res.ports.push_back(p.id);
  if (dry_run || changed.empty()) return res;
  for (std::size_t i = 0; i < changed.size(); ++i) {
    const auto& c = changed[i];
    JournalFile* jf = journal.find(c.rel);
    if (!jf) {
      journal.files.push_back({c.rel, c.before, sha256_hex(c.before), "", c.mode, {}});
      jf = &journal.files.back();
    }
    jf->applied_sha256 = sha256_hex(c.after);
    for (const auto& id : res.files[i].ports)
      if (std::find(jf->fixes.begin(), jf->fixes.end(), id) == jf->fixes.end()) jf->fixes.push_back(id);
  }
  if (std::string err = write_journal(tree, journal, kPortJournalRel); !err.empty()) {
    res.ok = false;
    res.errors.push_back("cannot write the ports' journal, so no file was ported: " + err);
    return res;
  }
  for (const auto& c : changed) {
    std::string err = util::write_file_atomic(c.abs, c.after);
    if (err.empty() && ::chmod(c.abs.c_str(), c.mode) != 0) err = c.abs + ": written, but its mode could not be restored";
    if (!err.empty()) {
      res.ok = false;
      res.errors.push_back(err + " (the ports' journal holds the original; revert_ports restores it)");
    }
  }
  return res;
}

std::string revert_ports(const std::string& tree) {
  RevertOptions o;
  o.journal = kPortJournalRel;
  o.force = true;  // the build's own copy: what the build wrote there since is not the user's
  RevertResult r = revert_fixes(tree, o);
  std::string why;
  for (const auto& e : r.errors) why += (why.empty() ? "" : "; ") + e;
  return why;
}

}  // namespace ts::source
