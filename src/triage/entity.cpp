#include "triage/entity.h"

#include <algorithm>
#include <cctype>

#include <re2/re2.h>

#include "triage/grammar.h"
#include "triage/symbol.h"

namespace ts::triage {
namespace {

// The first entity of `kind` the finding's evidence names, and the line it is on.
const Evidence* named(const Finding& f, const char* kind, std::string& value) {
  for (const auto& e : f.evidence)
    for (const auto& en : entities_of(e.text))
      if (en.kind == kind) { value = en.value; return &e; }
  return nullptr;
}

// The finding now names `sig`'s cause: its texts, the entity as its first capture.
void reroute(Diagnosis& d, Finding& f, const Signature& sig, const std::string& entity) {
  f.id = sig.id;
  f.sig = &sig;
  f.severity = sig.severity;
  f.phase = sig.phase;
  if (f.captures.empty()) f.captures = {entity};
  f.cause = expand_captures(sig.cause, f.captures);
  f.fix = expand_captures(sig.fix, f.captures);
  f.remedy = sig.remedy;
  f.remedy.note = expand_captures(sig.remedy.note, f.captures);
  d.findings.erase(std::remove_if(d.findings.begin() + 1, d.findings.end(), [&](const Finding& o) { return o.id == sig.id; }),
                   d.findings.end());
}

bool generic(const Finding& f) { return !f.sig || f.id == "MISSING_HEADER_GENERIC"; }

void header_rule(const SignatureSet& set, Diagnosis& d, Finding& f) {
  std::string name;
  const Evidence* at = named(f, "header", name);
  if (!at) return;
  const HeaderEntry* h = set.entities.find_header(name);
  if (!h) return;
  std::string ways;
  auto way = [&](const std::string& pkg, const char* how) {
    if (!pkg.empty()) ways += (ways.empty() ? "" : "; or ") + std::string(how) + pkg;
  };
  way(h->debian, "apt-get install ");
  way(h->pypi, "pip install ");
  way(h->conda, "conda install -c conda-forge ");
  std::string out = "`" + name + "` is missing: it comes from " + h->provider + ". ";
  if (h->kind == "submodule") out += "Check out the project's git submodules (git submodule update --init --recursive)" +
                                     (ways.empty() ? std::string(".") : ", or install it: " + ways + ".");
  else if (h->kind == "cuda") out += "Install it for the CUDA version in use (" + (ways.empty() ? std::string("the full toolkit") : ways) +
                                     ") and point CUDA_HOME (or CPATH) at the prefix that has it.";
  else if (h->kind == "repository") out += "No package installs it: get that repository (" + h->source +
                                           ") and put the folder that holds it on the include path.";
  else if (h->kind == "removed") out += "No release ships it any more: the source has to change (below).";
  else out += "Install it: " + ways + ".";
  const Signature* to = !h->signature.empty() && generic(f) ? set.find(h->signature) : nullptr;
  if (to) reroute(d, f, *to, name);
  f.fix = out + " " + f.fix;
  f.notes.push_back("header " + name + " (line " + std::to_string(at->line) + ") is provided by " + h->provider +
                    (to ? "; the cause is " + to->id : "") + " (entity table " + h->file + ":" + std::to_string(h->line) +
                    ", source " + h->source + ")");
}

// A package's build step near `line`: a build-step line of the log within the span a build's
// traceback and its tool's summary take (pip prints the summary after, the hooks' frames before).
const std::uint64_t* build_step_near(const LogFacts& facts, std::uint64_t line) {
  for (const auto& s : facts.build_steps)
    if (s + 300 >= line && s <= line + 100) return &s;
  return nullptr;
}

// A build step's line (log_fact build_step: setup.py's frame, setuptools' build_meta, a build env's path)
// within the three lines above `line`.
bool build_step_just_above(const LogFacts& facts, std::uint64_t line) {
  for (const auto& s : facts.build_steps)
    if (s < line && s + 3 >= line) return true;
  return false;
}

// Import-time evidence: the traceback frame above the error is a program's, not a build's.
bool import_frame(const Finding& f) {
  bool frame = false;
  for (const auto& c : f.context) {
    if (c.line > f.first_line()) break;
    std::string_view t = c.text;
    std::size_t at = t.find("File \"");
    if (at == std::string_view::npos) continue;
    t.remove_prefix(at);
    for (std::string_view build : {"setup.py", "<string>", "build_meta", "-build-env-", "_in_process", "pyproject_hooks", "build_env"})
      if (t.find(build) != std::string_view::npos) return false;
    frame = true;
  }
  return frame;
}

// The traceback frame nearest above `line` among the finding's lines (null when none).
const Evidence* frame_line_above(const Finding& f, std::uint64_t line) {
  const Evidence* best = nullptr;
  for (const auto* v : {&f.evidence, &f.context})
    for (const auto& e : *v)
      if (e.line < line && e.text.find("File \"") != std::string::npos && (!best || e.line > best->line)) best = &e;
  return best;
}

std::string frame_above(const Finding& f, std::uint64_t line) {
  const Evidence* e = frame_line_above(f, line);
  return e ? e->text : std::string();
}

// setup.py's own frame: its file by name (pip's setup.py run, `python setup.py`), or the `<string>`
// module setuptools' PEP 517 backend runs setup.py's text as (build_meta's run_setup:
// `exec(code, locals())`, which names no file). A `<string>` module is also what `python -c` runs, but
// that one is the first frame of its traceback, right under "Traceback (most recent call last):"; the
// exec'd setup.py is called from a frame above it (its source line, or Python 3.11's carets under it,
// is the line above). The finding keeps three lines before its first evidence, so what is above may
// be cut: with nothing of it left the frame is not taken.
bool setup_py_frame(const Finding& f, const Evidence& frame) {
  const std::string& t = frame.text;
  std::size_t q = t.find("setup.py\", line ");
  if (q != std::string::npos) return q == 0 || t[q - 1] == '/' || t[q - 1] == '\\' || t[q - 1] == '"';
  if (t.find("File \"<string>\", line ") == std::string::npos || t.find(", in <module>") == std::string::npos) return false;
  auto line_at = [&](std::uint64_t n) -> const Evidence* {
    for (const auto* v : {&f.evidence, &f.context})
      for (const auto& e : *v)
        if (e.line == n) return &e;
    return nullptr;
  };
  bool carets = false;
  for (std::uint64_t n = frame.line - 1; n > 0; --n) {
    const Evidence* e = line_at(n);
    if (!e) return carets;  // carets are drawn under a caller's source line
    if (e->text.find_first_not_of(" \t^~") == std::string::npos) { carets = true; continue; }
    return e->text.find("Traceback (most recent call last)") == std::string::npos;
  }
  return false;
}

// `No module named X` right under setup.py's own frame, X no distribution the table knows: setup.py
// imports a helper module it expects beside it (a file of a larger repository, outside the package).
void local_module_rule(const SignatureSet& set, Diagnosis& d, Finding& f, std::string name, const Evidence& at) {
  if (f.sig) return;
  const Evidence* frame = frame_line_above(f, at.line);
  if (!frame || !setup_py_frame(f, *frame)) return;
  if (auto dot = name.find('.'); dot != std::string::npos) name.resize(dot);
  const Signature* to = set.find("SETUP_PY_MODULE_NOT_IN_TREE");
  if (!to) return;
  reroute(d, f, *to, name);
  f.notes.push_back("module " + name + " (line " + std::to_string(at.line) + ") is imported by setup.py itself and is "
                    "no distribution of the module table: a file setup.py expects beside it");
}

// `KeyError: 'NAME'` raised by os.environ's lookup (the frame above is os's __getitem__) that setup.py's
// own frame made: setup.py reads a build input from a variable with no default (auto-gredient's
// `os.environ['HL_ROOT']`), the same cause as a setup.py that checks and raises itself.
void environ_key_rule(const SignatureSet& set, Diagnosis& d, Finding& f) {
  if (f.sig) return;
  static const RE2 key_error(R"(^\s*KeyError: '([A-Za-z_][A-Za-z0-9_]*)'\s*$)");
  for (const auto& e : f.evidence) {
    std::string name;
    if (!RE2::FullMatch(e.text, key_error, &name)) continue;
    const Evidence* lookup = frame_line_above(f, e.line);
    if (!lookup || lookup->text.find(", in __getitem__") == std::string::npos) return;
    if (lookup->text.find("File \"<frozen os>\"") == std::string::npos && lookup->text.find("/os.py\", line ") == std::string::npos)
      return;
    // The frame that called os.environ: setup.py's; where the finding's lines begin below it (they keep
    // three before the error), a build step's frame line just above the lookup stands for it.
    const Evidence* caller = frame_line_above(f, lookup->line);
    if (caller ? !setup_py_frame(f, *caller) : !build_step_just_above(d.log_facts, lookup->line)) return;
    const Signature* to = set.find("SETUP_PY_ENV_VAR_UNSET");
    if (!to) return;
    f.captures.clear();
    reroute(d, f, *to, name);
    f.notes.push_back("setup.py reads os.environ['" + name + "'] (line " + std::to_string(e.line) +
                      ") with no default: the variable is not set for the build");
    return;
  }
}

// The failure's own report under its line, when the line is a build tool's verdict on a package's build
// step (uv's "x Failed to build", pip's "Getting requirements to build wheel ... error"): the tool boxes the
// backend's output below it, indented and word-wrapped at its width ("... please install PyTorch first: No" /
// "      module named 'torch'"). Its paragraphs, the wrap undone (consecutive lines of one indentation joined
// by one space), each at the line it starts on.
std::vector<Evidence> build_report_paragraphs(const Finding& f) {
  std::vector<Evidence> out;
  auto verdict = f.evidence.empty() ? std::nullopt : read_failure_line(f.evidence.front().text);
  if (!verdict || std::string_view(verdict->grammar->phase) != "build") return out;
  std::size_t indent = std::string::npos;
  std::uint64_t last = 0;
  for (const auto& c : f.context) {
    if (c.line <= f.first_line()) continue;
    std::size_t b = c.text.find_first_not_of(" \t");
    if (b == std::string::npos) { indent = std::string::npos; continue; }  // a blank line ends a paragraph
    if (!out.empty() && b > 0 && b == indent && c.line == last + 1) {
      out.back().text += ' ';
      out.back().text += c.text.substr(b);
    } else {
      out.push_back({c.line, c.text.substr(b)});
    }
    indent = b;
    last = c.line;
  }
  return out;
}

void module_rule(const SignatureSet& set, Diagnosis& d, Finding& f) {
  std::string name;
  const Evidence* at = named(f, "module", name);
  Evidence in_report;
  if (!at && !f.sig)
    for (const auto& p : build_report_paragraphs(f)) {
      for (const auto& en : entities_of(p.text))
        if (en.kind == "module") { name = en.value; in_report = p; at = &in_report; break; }
      if (at) break;
    }
  if (!at) return;
  const ModuleEntry* m = set.entities.find_module(name);
  if (!m) { local_module_rule(set, d, f, name, *at); return; }
  const Signature* build = set.find(m->build_signature);
  if (!build) return;
  std::string where = " (entity table " + m->file + ":" + std::to_string(m->line) + ", source " + m->source + ")";
  if (const std::uint64_t* step = build_step_near(d.log_facts, at->line)) {
    if (!f.sig) reroute(d, f, *build, name);
    if (f.id != build->id) return;  // a more specific reading (distutils on Python 3.12, ...) stands
    f.fix = "The build step ran in an environment that has no " + m->name + " (pip's and uv's isolated build environment "
            "holds only build-system.requires): install " + m->pypi + " in your environment and build with "
            "--no-build-isolation against it, or add it to build-system.requires. " + f.fix;
    f.notes.push_back("module " + name + " is missing while a package is built (line " + std::to_string(at->line) +
                      "; build step at line " + std::to_string(*step) + "): " + build->id + where);
    return;
  }
  if (f.id == build->id && import_frame(f)) {
    f.cause = "`" + name + "` is not installed in the Python that ran this: the error is an import in a program (no "
              "package build step is near it), so build isolation is not the cause.";
    f.fix = "Install " + m->pypi + " into that interpreter (python -m pip install " + m->pypi +
            ", with the same python that runs the program; check `which python` inside the environment).";
    f.remedy = {};
    f.notes.push_back("module " + name + " is missing at import (line " + std::to_string(at->line) +
                      "; the frame above it is a program's and no build step is near)" + where);
  }
}

// `cannot import name 'X' from 'M'`, when it is the failure: a name M's release removed (modules.toml's
// [[removed]]) says which release, and what replaces it.
void removed_name_rule(const SignatureSet& set, Finding& f) {
  if (f.id != "PY_DEP_API_REMOVED") return;
  std::string module, name;
  const Evidence* at = named(f, "module", module);
  if (!at || !named(f, "name", name)) return;
  const RemovedName* r = set.entities.find_removed(module, name);
  if (!r) return;
  f.cause = "`" + name + "` was removed from " + r->module + " in " + r->removed_in + ": the installed " + r->module +
            " is that release or newer, while the code importing it was written for an older one.";
  f.fix = "Pin " + r->module + " below " + r->removed_in + " in this environment, or upgrade the package whose import failed to a release " +
          "written for the newer " + r->module + (r->use.empty() ? "" : " (it uses " + r->use + ")") + ".";
  f.notes.push_back(r->module + "." + name + " (line " + std::to_string(at->line) + ") was removed in " + r->removed_in +
                    " (entity table " + r->file + ":" + std::to_string(r->line) + ", source " + r->source + ")");
}

// A CUDA library entry point a CUDA release removed (cuda_api.toml), named by a compile error as
// undeclared (nvcc, GCC, clang) or by a link error as an undefined symbol: the code was written for a
// toolkit before that release. The table's name decides, whatever generic reading the line's wording
// reached (an undefined `cusparse...` reference reads as a library left off the link line); a name the
// table lacks (one that still exists, the package's own) keeps that reading.
void removed_entry_point_rule(const SignatureSet& set, Diagnosis& d, Finding& f) {
  for (const char* kind : {"identifier", "symbol"}) {
    std::string name;
    const Evidence* at = named(f, kind, name);
    const RemovedEntryPoint* e = at ? set.entities.find_removed_entry_point(name) : nullptr;
    const Signature* to = e ? set.find("CUDA_LIBRARY_API_REMOVED") : nullptr;
    if (!to) continue;
    f.captures = {name};
    reroute(d, f, *to, name);
    // The generic reading's account of the same symbol (an older copy of the library loaded first) is not the cause.
    std::erase_if(f.notes, [&](const std::string& n) { return n.starts_with("undefined symbol " + name + ":"); });
    if (std::string_view(kind) == "symbol") f.phase = "link";
    f.cause = "`" + name + "` is an entry point of " + e->library + " that CUDA " + e->removed_in +
              " removed: the code was written for an older CUDA toolkit than the one building it, whose " + e->library +
              " headers and library no longer have it.";
    f.fix = "Port the call to " + e->use + " (available before " + e->removed_in + " too), or build with a CUDA toolkit older than " +
            e->removed_in + " and a torch built for it." +
            (e->port.empty() ? std::string()
                             : " torchsmith build does this once by itself: " + e->port + " gives the build's copy of the source a "
                               "compatibility definition of the old call and retries (reverted if the retry fails).");
    f.notes.push_back(e->library + " " + name + " (line " + std::to_string(at->line) + ") was removed in CUDA " + e->removed_in +
                      "; use " + e->use + " (entity table " + e->file + ":" + std::to_string(e->line) + ", source " + e->source + ")");
    return;
  }
}

// A CUDA library that torch's own preload (`_load_global_deps` in torch/__init__.py) could not open
// is one of the nvidia-* wheels pip's torch depends on, not an extension's: the wheels are missing or
// in another site-packages than torch.
void torch_preload_rule(const SignatureSet& set, Diagnosis& d, Finding& f) {
  if (f.id != "EXT_CUDA_RUNTIME_MAJOR_MISMATCH") return;
  std::string lib;
  const Evidence* at = named(f, "library", lib);
  if (!at) return;
  bool preload = false;
  for (auto p : d.log_facts.torch_preloads) preload |= p <= at->line && p + 40 >= at->line;
  if (!preload) return;
  const Signature* to = set.find("TORCH_NVIDIA_WHEELS_SITE_DIR_SPLIT");
  if (!to) return;
  reroute(d, f, *to, lib);
  f.notes.push_back(lib + " (line " + std::to_string(at->line) +
                    ") is loaded by torch's own preload of its CUDA libraries (_load_global_deps), so it is torch's "
                    "nvidia-* wheel dependency, not an extension's");
}

// uv's resolver finding no version of a package, when the uv command beside it names a second index
// (--extra-index-url, --index): uv's first-index strategy took the package from the first index that
// has it, which lacks that version; pip, which searches every index, would have found it.
void uv_index_rule(const SignatureSet& set, Diagnosis& d, Finding& f) {
  if (f.sig) return;
  bool uv_resolve = false;
  for (const auto& e : f.evidence)
    if (auto line = read_failure_line(e.text))
      uv_resolve |= std::string_view(line->grammar->tool) == "uv" && std::string_view(line->grammar->phase) == "resolve";
  if (!uv_resolve) return;
  const Evidence* command = nullptr;
  bool no_version = false;
  for (const auto& c : f.context) {
    const std::string& t = c.text;
    if (c.line < f.first_line() && t.find("uv ") != std::string::npos &&
        (t.find("--extra-index-url") != std::string::npos || t.find("--index ") != std::string::npos ||
         t.find("--index=") != std::string::npos))
      command = &c;
    no_version |= t.find("there is no version of ") != std::string::npos || t.find("there are no versions of ") != std::string::npos;
  }
  if (!command || !no_version) return;
  const Signature* to = set.find("UV_INDEX_STRATEGY_FIRST_INDEX");
  if (!to) return;
  reroute(d, f, *to, "");
  f.notes.push_back("uv's resolver found no version (line " + std::to_string(f.first_line()) + ") with a second index on its command line (line " +
                    std::to_string(command->line) + "): uv takes each package from the first index that has it");
}

// A segmentation fault right under the command that imports one
// module (`python -c "import X"`, `>>> import X`): the crash is X's compiled code being loaded, whose
// binary does not fit the torch it links against (a wheel built for another torch release). torch and
// numpy themselves are the runtime, not an extension of it, so their crash is left unread.
void import_crash_rule(const SignatureSet& set, Diagnosis& d, Finding& f) {
  if (f.sig) return;
  bool signal = false;
  for (const auto& e : f.evidence)
    if (auto line = read_failure_line(e.text))
      signal |= std::string_view(line->grammar->tool) == "signal" &&  // a bad memory access, not a CPU's missing instruction
                (e.text.find("egmentation fault") != std::string::npos || e.text.find("SIGSEGV") != std::string::npos);
  if (!signal) return;
  std::string module;
  const Evidence* command = nullptr;
  for (const auto& c : f.context) {
    if (c.line >= f.first_line() || c.line + 3 < f.first_line()) continue;
    std::string_view t = c.text;
    std::size_t at = t.find("import ");
    bool python_c = t.find("python") != std::string_view::npos && t.find(" -c ") != std::string_view::npos;
    bool repl = t.find(">>> ") != std::string_view::npos;
    if (at == std::string_view::npos || !(python_c || repl)) continue;
    std::size_t from = t.rfind("from ", at);  // `from X import Y` imports X
    std::size_t b = from != std::string_view::npos ? from + 5 : at + 7, e = b;
    while (e < t.size() && (std::isalnum(static_cast<unsigned char>(t[e])) || t[e] == '_' || t[e] == '.')) ++e;
    module = std::string(t.substr(b, e - b));
    command = &c;
  }
  if (!command || module.empty()) return;
  std::string top = module.substr(0, module.find('.'));
  if (top == "torch" || top == "numpy") return;
  const Signature* to = set.find("EXT_BUILT_FOR_OTHER_TORCH");
  if (!to) return;
  reroute(d, f, *to, module);
  f.notes.push_back("the interpreter crashed (line " + std::to_string(f.first_line()) + ") while importing " + module +
                    " (line " + std::to_string(command->line) + "): its compiled module does not fit the torch it is loaded with");
}

// A GLIBCXX version the loader did not find (libstdcxx.toml): the libstdc++ it loaded (the path before
// ": version") is older than the first GCC whose libstdc++ exports it, and the binary that requires
// it (after "required by") was built with that GCC or newer. The fix names both.
void glibcxx_rule(const SignatureSet& set, Finding& f) {
  if (f.id != "GLIBCXX_VERSION_NOT_FOUND") return;
  std::string version;
  const Evidence* at = named(f, "version", version);
  if (!at || version.rfind("GLIBCXX_", 0) != 0) return;
  const GlibcxxVersion* g = set.entities.find_glibcxx(version.substr(8));
  if (!g) return;
  const std::string& t = at->text;
  std::string loaded, needs;
  if (std::size_t v = t.find(": version "); v != std::string::npos) {
    std::size_t b = t.rfind(' ', v);
    loaded = t.substr(b == std::string::npos ? 0 : b + 1, v - (b == std::string::npos ? 0 : b + 1));
    if (loaded.find("libstdc++") == std::string::npos) loaded.clear();
  }
  if (std::size_t r = t.find("(required by "); r != std::string::npos) {
    std::size_t e = t.find(')', r);
    needs = t.substr(r + 13, e == std::string::npos ? std::string::npos : e - r - 13);
  }
  f.fix = version + " first came with GCC " + g->gcc + "'s libstdc++: " + (needs.empty() ? "the binary" : needs) +
          " was built with GCC " + g->gcc + " or newer, and the libstdc++ loaded" + (loaded.empty() ? "" : " (" + loaded + ")") +
          " is older. Load a libstdc++.so.6 from GCC " + g->gcc + " or newer first (conda install -c conda-forge 'libstdcxx-ng>=" +
          g->gcc.substr(0, g->gcc.rfind('.')) + "', or put its directory first in LD_LIBRARY_PATH), or use a build of it made with the "
          "system's GCC. " + f.fix;
  f.notes.push_back(version + " (line " + std::to_string(at->line) + ") is exported from GCC " + g->gcc + "'s libstdc++ on (entity table " +
                    g->file + ":" + std::to_string(g->line) + ", source " + g->source + ")");
}

// A torch pin conflict names its parties: the package and the torch it requires, against the torch the
// environment has (pip's post-install check: "X V requires torch==A, but you have torch B") or the one
// requested (the resolver: "The user requested torch==B" beside "X V depends on torch==A").
void companion_rule(Finding& f) {
  if (f.id != "TORCH_COMPANION_VERSION_CONFLICT") return;
  static const RE2 has(R"(\b([A-Za-z][\w.-]*) (v?[0-9]\S*) requires torch==([0-9]\S*?),? but you have torch (\S+) which is incompatible)");
  static const RE2 pinned(R"(\b([A-Za-z][\w.-]*) (v?[0-9]\S*) depends on torch ?==\s*([0-9][^\s,;]*))");
  static const RE2 requested(R"(The user requested torch ?==\s*([0-9][^\s,;]*))");
  std::string pkg, ver, needs, have, want, dep_pkg, dep_ver, dep_needs;
  std::uint64_t line = 0;
  for (const auto* v : {&f.evidence, &f.context})
    for (const auto& e : *v) {
      if (pkg.empty() && RE2::PartialMatch(e.text, has, &pkg, &ver, &needs, &have)) line = e.line;
      if (want.empty()) RE2::PartialMatch(e.text, requested, &want);
      if (dep_pkg.empty() && RE2::PartialMatch(e.text, pinned, &dep_pkg, &dep_ver, &dep_needs) && dep_pkg == "torch") dep_pkg.clear();
      if (!dep_pkg.empty() && !line) line = e.line;
    }
  std::string said;
  if (!pkg.empty() && needs != have)
    said = pkg + " " + ver + " requires torch " + needs + " and the environment has torch " + have + ": install the " + pkg +
           " release made for torch " + have + ", or torch " + needs + " with it";
  else if (!dep_pkg.empty() && !want.empty() && dep_needs != want)
    said = dep_pkg + " " + dep_ver + " depends on torch " + dep_needs + " while torch " + want + " was requested: request the " +
           dep_pkg + " release made for torch " + want + ", or torch " + dep_needs;
  if (said.empty()) return;
  f.fix = said + ". " + f.fix;
  f.notes.push_back("the pins in conflict (line " + std::to_string(line) + "): " + said.substr(0, said.find(':')));
}

// PEP 668's refusal while a package builds: the build script ran a bare `pip`, and the one PATH gave
// it is another Python's (the OS's), not the environment that builds, which a venv never refuses.
void build_pip_rule(Diagnosis& d, Finding& f) {
  if (f.id != "PIP_EXTERNALLY_MANAGED") return;
  const std::uint64_t* step = build_step_near(d.log_facts, f.first_line());
  if (!step) return;
  f.fix = "The package's build script (setup.py) runs `pip` itself, and the `pip` it found on PATH belongs to an "
          "externally managed Python (the OS's), not to the environment that builds (a venv's pip is never refused): "
          "make the building environment's pip the first on the build's PATH (its bin/ must hold `pip`: python -m pip "
          "install --force-reinstall pip in it; torchsmith puts the target Python's bin first), or build in a venv. " + f.fix;
  f.remedy = {};
  f.notes.push_back("PEP 668 refusal inside a package's build step (build step at line " + std::to_string(*step) +
                    "): a `pip` the build script ran, not the build's own pip");
}

// Whether the finding's lines name Triton; a traceback the program logged at WARNING and went on from
// (xFormers' optional Triton import) is another, finished story, not this failure's context.
bool mentions_triton(const Finding& f, const LogFacts& facts) {
  if (f.id.rfind("TRITON", 0) == 0) return true;
  auto handled = [&](std::uint64_t line) {
    for (const auto& r : facts.handled_tracebacks)
      if (r.first <= line && line <= r.second) return true;
    return false;
  };
  for (const auto* v : {&f.evidence, &f.context})
    for (const auto& e : *v) {
      if (handled(e.line)) continue;
      std::string low = e.text;
      for (auto& c : low) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (low.find("triton") != std::string::npos) return true;
    }
  return false;
}

void triton_rule(const SignatureSet& set, Diagnosis& d, Finding& f) {
  const EntityTables& t = set.entities;
  if (!mentions_triton(f, d.log_facts)) return;
  std::string arch;
  const Evidence* at = named(f, "arch", arch);
  // ptxas' refusal of an arch is nvcc's wording too; inside a Triton compile it is Triton's ptxas.
  if (f.id == "NVCC_UNSUPPORTED_GPU_ARCH" && at)
    if (const Signature* to = set.find("TRITON_ARCH_UNSUPPORTED")) reroute(d, f, *to, arch);
  if (const TritonArch* a = at ? t.find_triton_arch(arch) : nullptr) {
    f.fix = "Triton compiles for " + a->arch + " from release " + a->first_triton + " on (its bundled ptxas " +
            (a->ptxas.empty() ? "" : "of CUDA " + a->ptxas + " ") + "knows the arch): upgrade triton to >= " +
            a->first_triton + " (through the torch release that pins it). " + f.fix;
    f.notes.push_back("arch " + arch + " (line " + std::to_string(at->line) + ") is known to Triton from " + a->first_triton +
                      " (entity table " + a->file + ":" + std::to_string(a->line) + ", source " + a->source + ")");
  } else if (f.id == "TRITON_GPU_TOO_OLD" && !t.triton_min_capability.empty()) {
    f.notes.push_back("Triton generates code for compute capability " + t.triton_min_capability +
                      " and newer (entity table triton.toml, source " + t.triton_min_capability_source + ")");
  }
}

// An FP8 type Triton refused names the compute capability it needs (triton.toml's [[fp8]]): the fix says
// which GPUs compile it, the note where that is written.
void triton_fp8_rule(const SignatureSet& set, Finding& f) {
  if (f.id != "TRITON_FP8_ARCH_UNSUPPORTED" || f.captures.empty()) return;
  const TritonFp8* e = set.entities.find_triton_fp8(f.captures[0]);
  if (!e) return;
  f.cause += " " + e->dtype + " is " + e->name + ": Triton compiles it for compute capability " + e->capability +
             " and newer only, so this GPU is older than " + e->capability + ".";
  f.fix = "Use a GPU of compute capability " + e->capability + " or newer for " + e->dtype + ", or " +
          "a dtype this GPU has (bf16/fp16 weights, another quantisation). " + f.fix;
  f.notes.push_back(e->dtype + " needs compute capability >= " + e->capability + " (entity table " + e->file + ":" +
                    std::to_string(e->line) + ", source " + e->source + ")");
}

// Who crashed, when a compiler built on LLVM/MLIR failed with no words of cause and no signature read it: an
// LLVM fatal error, an assertion in LLVM or MLIR code, or a C++ exception a Triton backend's compiler stage
// raised through pybind11 (a built-in exception class straight under a frame of triton/backends/*/compiler.py:
// `IndexError: map::at` is std::out_of_range). A compiler driver's crash report names the crashing program
// ("Program arguments: .../clang++ ..."), and a compiler driver is another cause (an internal compiler error);
// without one the LLVM is the one a library embeds in the running Python process, and in PyTorch's stack that
// is Triton's (torch.compile's inductor, Triton kernels), unless numba is named.
bool names_other_llvm_user(const Finding& f) {
  for (const auto* v : {&f.evidence, &f.context})
    for (const auto& e : *v) {
      if (e.text.find("numba") != std::string::npos) return true;
      std::size_t at = e.text.find("Program arguments: ");
      if (at == std::string::npos) continue;
      std::string_view prog = std::string_view(e.text).substr(at + 19);
      prog = prog.substr(0, prog.find(' '));
      prog.remove_prefix(std::min(prog.size(), prog.find_last_of("/\\") + 1));
      if (prog.rfind("python", 0) != 0) return true;
    }
  return false;
}

// The C++ exception class a line's Python exception was translated from by pybind11, when it is a built-in one.
bool builtin_exception(std::string_view line) {
  static const RE2 re(R"(^\s*(?:IndexError|RuntimeError|ValueError|KeyError|TypeError|OverflowError|MemoryError): )");
  return RE2::PartialMatch(line, re);
}

bool triton_backend_frame(const std::string& frame) {
  return frame.find("triton") != std::string::npos && frame.find("backends") != std::string::npos &&
         frame.find("compiler.py") != std::string::npos;
}

void compiler_crash_rule(const SignatureSet& set, Diagnosis& d, Finding& f) {
  if (f.sig || f.evidence.empty()) return;
  const Signature* to = set.find("TRITON_COMPILER_INTERNAL_ERROR");
  if (!to) return;
  // The failure line, and the lines right under it: an MLIR pass's own diagnostic ("error: LLVM Translation
  // failed for operation: ...") is the first failure line, and LLVM's fatal error that ends the process
  // follows it (the crash is the same compile's).
  std::vector<Evidence> lines = f.evidence;
  for (const auto& c : f.context)
    if (c.line > f.first_line() && c.line <= f.first_line() + 3 &&
        std::none_of(lines.begin(), lines.end(), [&](const Evidence& e) { return e.line == c.line; }))
      lines.push_back(c);
  for (const auto& e : lines) {
    auto line = read_failure_line(e.text);
    if (!line) continue;
    const std::string tool = line->grammar->tool;
    std::string why;
    if (tool == "llvm" && !names_other_llvm_user(f))
      why = "an LLVM fatal error with no compiler driver named: the LLVM a library embeds in the Python process";
    else if (tool == "c-assert" && (e.text.find("mlir::") != std::string::npos || e.text.find("llvm::") != std::string::npos) &&
             !names_other_llvm_user(f))
      why = "an assertion in LLVM/MLIR code of the running process";
    else if (builtin_exception(e.text) && triton_backend_frame(frame_above(f, e.line)))
      why = "a C++ exception raised straight from a Triton backend's compiler stage";
    else
      continue;
    reroute(d, f, *to, "");
    f.notes.push_back("failure line of " + tool + " (line " + std::to_string(e.line) + "): " + why +
                      (mentions_triton(f, d.log_facts) ? " (Triton is named in the log)" : " (in PyTorch's stack, Triton's)"));
    return;
  }
}

// ptxas refusing an instruction for the GPU it assembles for ("Feature 'mma' requires .target sm_70 or higher")
// in a Triton compile: the GPU is older than that arch. When that arch is no newer than the oldest Triton
// generates code for (triton.toml's [minimum]), the GPU is below Triton's floor; a feature of a newer arch
// (a kernel written for Hopper on Ampere) is another cause and is left.
void triton_floor_rule(const SignatureSet& set, Diagnosis& d, Finding& f) {
  if (f.sig && f.id != "TRITON_COMPILER_INTERNAL_ERROR") return;
  const EntityTables& t = set.entities;
  if (t.triton_min_capability.empty() || !mentions_triton(f, d.log_facts)) return;
  auto capability = [](std::string_view sm) {  // "sm_70" -> 70, "7.0" -> 70
    int v = 0;
    for (char c : sm)
      if (c >= '0' && c <= '9') v = v * 10 + (c - '0');
    return v;
  };
  const int floor = capability(t.triton_min_capability);
  for (const auto* v : {&f.evidence, &f.context})
    for (const auto& e : *v)
      for (const auto& en : entities_of(e.text)) {
        if (en.kind != "arch_needed" || capability(en.value) > floor) continue;
        const Signature* to = set.find("TRITON_GPU_TOO_OLD");
        if (!to) return;
        reroute(d, f, *to, en.value);
        f.notes.push_back("ptxas refused an instruction that needs " + en.value + " (line " + std::to_string(e.line) +
                          "): the GPU is older, and Triton generates code for compute capability " + t.triton_min_capability +
                          " and newer only (entity table triton.toml, source " + t.triton_min_capability_source + ")");
        return;
      }
}

// ptxas refusing a PTX file names both ISA versions: the CUDA release that reads the file's, and
// the one the refusing ptxas (or driver) is, from the table; the fix names the release to use.
void ptx_rule(const SignatureSet& set, Finding& f) {
  if (f.id != "CUDA_PTX_UNSUPPORTED_TOOLCHAIN") return;
  std::string isa, known;
  const Evidence* at = named(f, "ptx_isa", isa);
  if (!at || !named(f, "ptx_isa_known", known)) return;
  const PtxIsa* need = set.entities.find_ptx_isa(isa);
  if (!need) return;
  const PtxIsa* has = set.entities.find_ptx_isa(known);
  f.fix = "The PTX is ISA " + isa + ", which CUDA " + need->cuda + " and newer read; the ptxas that refused it knows ISA " +
          known + (has ? " (CUDA " + has->cuda + "'s)" : "") + ": assemble it with the ptxas of CUDA " + need->cuda +
          " or newer (or the one its producer bundles, such as Triton's), or for the driver's JIT install a driver of CUDA " +
          need->cuda + " or newer. " + f.fix;
  f.notes.push_back("PTX ISA " + isa + " (line " + std::to_string(at->line) + ") is read from CUDA " + need->cuda + " on" +
                    (has ? "; ISA " + known + " is CUDA " + has->cuda + "'s" : "") + " (entity table " + need->file + ":" +
                    std::to_string(need->line) + ", source " + need->source + ")");
}

// An undefined symbol under a failure no signature named: what the symbol is (symbol.h) decides the
// cause, as it does between the signatures' own readings (rank.cpp).
void symbol_rule(const SignatureSet& set, Diagnosis& d, Finding& f) {
  if (f.sig) return;
  std::string name;
  const Evidence* at = named(f, "symbol", name);
  if (!at) return;
  SymbolReading s = read_symbol(name);
  const Signature* to = s.cause.empty() ? nullptr : set.find(s.cause);
  if (!to) return;
  reroute(d, f, *to, name);
  f.notes.push_back("undefined symbol " + s.mangled + (s.demangled.empty() ? "" : " is " + s.demangled) + ": " + s.rule +
                    " (line " + std::to_string(at->line) + ")");
}

// What the build or run could not have, under a failure no signature named: a program that could not be
// started, or a library or package the build's finder could not find (a CMake Error block whose message
// is a project's own "Can not find CuDNN Library"). Its table (programs.toml, dependencies.toml) says what
// provides it and which cause that is; the failure stays a failure even where the cause's signature is a
// warning (configure going on without it). Only the words differ between the two kinds.
struct ProvidedWords {
  const char* kind;
  const char* fix_before;  // the fix's lead is fix_before + name + fix_after + provider
  const char* fix_after;
  const char* missing;     // what happened to it, in the note
};
constexpr ProvidedWords kProgram{"program", "`", "` could not be started: it is not on PATH. It comes from ", "could not be started"};
constexpr ProvidedWords kDependency{"dependency", "The build could not find ", ": it comes from ", "was not found"};
constexpr ProvidedWords kDistribution{"distribution", "The installer found no file of `",
                                      "` it can install for this Python, OS and architecture: it comes from ",
                                      "has no file the installer could install here"};

// CMake's Config-mode failure read for any package: the table's entry for the package it names (cuDNN,
// libtorch) is the more specific cause.
bool generic_dependency(const Finding& f) { return f.id == "CMAKE_DEPENDENCY_CONFIG_NOT_FOUND"; }

// The first entity of `kind` the finding's evidence names, else one of the lines right under its failure line:
// a resolver's report puts its reason under its verdict (uv's "× No solution found ..." then "╰─▶ Because torch
// ... has no wheels ...", the box drawn in ASCII on a terminal without Unicode).
const Evidence* named_under(const Finding& f, const char* kind, std::string& value) {
  if (const Evidence* e = named(f, kind, value)) return e;
  for (const auto& c : f.context) {
    if (c.line <= f.first_line() || c.line > f.first_line() + 4) continue;
    for (const auto& en : entities_of(c.text))
      if (en.kind == kind) { value = en.value; return &c; }
  }
  return nullptr;
}

void provided_rule(const SignatureSet& set, Diagnosis& d, Finding& f, const ProvidedWords& w) {
  std::string name;
  const bool distribution = std::string_view(w.kind) == "distribution";
  const Evidence* at = distribution ? named_under(f, w.kind, name) : named(f, w.kind, name);
  const ProvidedEntry* p = at ? set.entities.find_provided(w.kind, name) : nullptr;
  // A tool run by its target-prefixed name (a conda compiler) is that tool; its vendor says who installs it.
  PrefixedProgram prefixed;
  if (at && !p && std::string_view(w.kind) == "program") p = (prefixed = set.entities.find_prefixed_program(name)).program;
  const Signature* to = p ? set.find(p->signature) : nullptr;
  if (!to || (f.sig && !generic_dependency(f))) return;
  reroute(d, f, *to, name);
  f.severity = Severity::error;
  const std::string& provider = prefixed.vendor ? prefixed.vendor->provider : p->provider;
  f.fix = w.fix_before + name + w.fix_after + provider + ". " + f.fix;
  std::string what = prefixed.program ? " is " + p->name + " named with the target prefix " + prefixed.prefix + "-;" : "";
  f.notes.push_back(std::string(w.kind) + " " + name + " (line " + std::to_string(at->line) + ")" + what + " " + w.missing +
                    "; it comes from " + provider + " (entity table " + p->file + ":" + std::to_string(p->line) + ", source " +
                    p->source + (prefixed.vendor ? "; " + prefixed.vendor->file + ":" + std::to_string(prefixed.vendor->line) +
                                                       ", source " + prefixed.vendor->source
                                                 : std::string()) +
                    ")");
}

// A library the linker could not find, by the name its link line gives (ld's "cannot find -lX", the Apple linker's
// "library not found for -lX"): the library table (dependencies.toml [[library]]) says what provides it, a CMake
// package's placeholder for its dependency (opencv_dep_cudart) read as the dependency. Only a linker's line: a
// loader's missing library at run time is another phase and cause.
void link_library_rule(const SignatureSet& set, Diagnosis& d, Finding& f) {
  if (f.sig) return;
  static const RE2 kLink(R"((?:cannot find|library not found for|unable to find library) -l(\S+))");
  for (const auto& e : f.evidence) {
    std::string name;
    if (!RE2::PartialMatch(e.text, kLink, &name)) continue;
    const ProvidedEntry* p = set.entities.find_provided("library", name);
    const Signature* to = p ? set.find(p->signature) : nullptr;
    if (!to) return;
    reroute(d, f, *to, name);
    const bool placeholder = name.find("_dep_") != std::string::npos;
    f.fix = "The link could not find `" + name + "`" +
            (placeholder ? ", a CMake package's placeholder for its dependency " + p->name +
                               " (configure with -DCUDA_USE_STATIC_CUDA_RUNTIME=OFF when the package is OpenCV's, BVLC/caffe#5031)"
                         : std::string()) +
            ": it comes from " + p->provider + ". " + f.fix;
    f.notes.push_back("library " + name + " (line " + std::to_string(e.line) + ") was not found by the linker; it is " + p->name +
                      ", from " + p->provider + " (entity table " + p->file + ":" + std::to_string(p->line) + ", source " + p->source + ")");
    return;
  }
}

// A CUDA header missing where the compile is a HIP one: clang's include chain starts at a .hip source, or
// clang says it compiled for an AMD GPU ("1 error generated when compiling for gfx803"), or hipcc is the
// command that failed. ROCm's compile reached CUDA's header (the source was not hipified for this torch,
// or CUDA's Thrust is on the include path): no CUDA toolkit is missing its headers.
void hip_compile_rule(const SignatureSet& set, Diagnosis& d, Finding& f) {
  if (f.id != "CUDA_DEV_HEADER_MISSING") return;
  static const RE2 kHip(R"re(^In file included from \S+\.hip:\d+|\berrors? generated when compiling for (gfx[0-9a-f]+)\b|/hipcc'? failed with exit)re");
  const Signature* to = set.find("ROCM_CUDA_HEADER_IN_HIP_BUILD");
  if (!to) return;
  for (const auto& c : f.context) {
    if (!RE2::PartialMatch(c.text, kHip)) continue;
    reroute(d, f, *to, "");
    f.notes.push_back("the compile is HIP's (line " + std::to_string(c.line) + ": " + c.text.substr(0, 120) +
                      "): a CUDA header reached from a ROCm compile is an unhipified source, not a toolkit without headers");
    return;
  }
}

// A SIGILL (a shell's "Illegal instruction", gdb's "received signal SIGILL") whose frame names the x86 vector
// ISA the code was compiled for (torch's per-ISA kernel copies, BinaryOpsKernel.cpp.AVX2.cpp; a function suffixed
// _AVX2): that code ran on a CPU without the ISA. A SIGILL with no ISA named keeps its grammar's reading.
void cpu_isa_rule(const SignatureSet& set, Diagnosis& d, Finding& f) {
  if (f.sig && f.id != "JETSON_OPENBLAS_ILLEGAL_INSTRUCTION") return;
  const Evidence* sigill = nullptr;
  for (const auto& e : f.evidence)
    if (auto line = read_failure_line(e.text); line && std::string_view(line->grammar->tool) == "signal" &&
                                               (e.text.find("SIGILL") != std::string::npos || e.text.find("llegal") != std::string::npos))
      sigill = &e;
  if (!sigill) return;
  const Signature* to = set.find("CPU_INSTRUCTION_SET_UNSUPPORTED");
  if (!to) return;
  auto isa_on = [&](const Evidence& e) -> bool {
    for (const auto& en : entities_of(e.text)) {
      if (en.kind != "cpu_isa") continue;
      std::string isa = en.value;
      for (auto& c : isa) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      reroute(d, f, *to, isa);
      f.notes.push_back("SIGILL (line " + std::to_string(sigill->line) + ") in code compiled for " + isa + " (line " +
                        std::to_string(e.line) + ": " + e.text.substr(0, 120) + "): the CPU lacks that instruction set");
      return true;
    }
    return false;
  };
  if (isa_on(*sigill)) return;
  // The faulting frame: the lines right under the signal (gdb prints the frame after "received signal").
  for (const auto& c : f.context)
    if (c.line > sigill->line && c.line <= sigill->line + 2 && isa_on(c)) return;
}

// torch's placeholder for a backend it was built without: when torch._C lacks the backend's base classes,
// torch/cuda/streams.py defines them with _dummy_type (torch/_utils.py, earlier torch/cuda/_utils.py), whose
// constructor raises "Tried to instantiate dummy base class X" (pytorch/pytorch@v2.5.0:torch/cuda/streams.py). The
// backend is the one the frames name: a frame in torch/cuda/ (or a class of CUDA's: _CudaStreamBase,
// _cuda_isCurrentStreamCapturing) is a torch without CUDA; another backend's (torch/xpu, a vendor plugin) is not.
void placeholder_backend_rule(const SignatureSet& set, Diagnosis& d, Finding& f) {
  if (f.sig) return;
  static const RE2 kDummy(R"(Tried to instantiate dummy base class\b)");
  static const RE2 kCudaClass(R"(dummy base class _?[Cc]uda\w*)");
  static const RE2 kFrame(R"re([/\\]torch[/\\](cuda|xpu|mps|mtia)[/\\]\w+\.py")re");
  const Evidence* at = nullptr;
  std::string backend;
  for (const auto* v : {&f.evidence, &f.context})
    for (const auto& e : *v) {
      if (!at && RE2::PartialMatch(e.text, kDummy)) at = &e;
      std::string b;
      if (backend.empty() && RE2::PartialMatch(e.text, kFrame, &b)) backend = b;
    }
  if (!at) return;
  if (backend.empty() && RE2::PartialMatch(at->text, kCudaClass)) backend = "cuda";
  const Signature* to = backend == "cuda" ? set.find("TORCH_NOT_COMPILED_WITH_CUDA") : nullptr;
  if (!to) return;
  reroute(d, f, *to, "");
  f.notes.push_back("torch's placeholder class for CUDA (line " + std::to_string(at->line) +
                    "): torch defines it only when torch._C has no CUDA (_dummy_type, pytorch/pytorch@v2.5.0:torch/cuda/streams.py)");
}

// A failure line of a tool whose failure report has one cause (its grammar names the signature,
// grammar.h), under a failure no signature named: any wording the tool prints under that grammar.
void verdict_rule(const SignatureSet& set, Diagnosis& d, Finding& f) {
  if (f.sig) return;
  for (const auto& e : f.evidence) {
    auto line = read_failure_line(e.text);
    const Signature* to = line && line->grammar->signature ? set.find(line->grammar->signature) : nullptr;
    if (!to) continue;
    reroute(d, f, *to, "");
    f.notes.push_back(std::string("failure line of ") + line->grammar->tool + " (line " + std::to_string(e.line) +
                      "): every failure that tool reports under this grammar is " + to->id);
    return;
  }
}

// An extension built for another torch, when the torch it is loaded with is a CPU-only build: PyTorch's
// CPU wheels carry the local version "+cpu" (https://pytorch.org/get-started/locally/, the
// download.pytorch.org/whl/cpu index). No build of the extension fits a torch without CUDA: the cause
// is that torch, and the way out is its CUDA build, not another extension build.
void cpu_torch_rule(const SignatureSet& set, Diagnosis& d, Finding& f) {
  if (f.id != "EXT_BUILT_FOR_OTHER_TORCH" && f.id != "PREBUILT_EXT_WHEEL_TORCH_MISMATCH") return;
  for (const auto& c : f.context)
    for (const auto& en : entities_of(c.text)) {
      if (en.kind != "torch_installed" || !en.value.ends_with("+cpu")) continue;
      const Signature* to = set.find("TORCH_NOT_COMPILED_WITH_CUDA");
      if (!to) return;
      std::string was = f.id;
      reroute(d, f, *to, en.value);
      f.fix = "The torch in the environment is " + en.value + ", a CPU-only build: install the CUDA build of the same torch "
              "release (from the download.pytorch.org/whl/cuXXX index matching the extension's CUDA), then the extension "
              "loads. " + f.fix;
      f.notes.push_back("the torch loaded is " + en.value + " (line " + std::to_string(c.line) + "), a CPU-only build (local "
                        "version +cpu), under " + was + ": no extension build fits a torch without CUDA");
      return;
    }
}


// The namespace and the name a compiler's error says the namespace lacks (`std::cout` used without
// <iostream>, `thrust::device` without <thrust/execution_policy.h>), in GCC's, clang's, nvcc/EDG's and
// MSVC's words; {} when the line names none. Both are read as entities: a qualified name in quotes
// splits at its last "::" (`'thrust::cuda' has not been declared` is thrust's member cuda), and
// CCCL's versioned inline namespaces (`thrust::THRUST_300001_SM_900_NS::cuda`, libcu++'s `__4`),
// which the source never writes, are dropped. The namespace is the whole one: `my::std` and `stdx`
// are not std, `thrust_utils` is not thrust.
struct NamedMember {
  std::string ns, name;
};
std::string without_inline_namespaces(const std::string& ns) {
  static const RE2 kInline(R"re(^(?:[A-Z][A-Z0-9]*_[0-9]+(?:_\w+)?_NS|__[0-9]+)$)re");
  std::string out;
  std::size_t at = 0;
  while (at <= ns.size()) {
    std::size_t end = ns.find("::", at);
    std::string part = ns.substr(at, end == std::string::npos ? std::string::npos : end - at);
    if (!RE2::FullMatch(part, kInline)) out += (out.empty() ? "" : "::") + part;
    if (end == std::string::npos) break;
    at = end + 2;
  }
  return out;
}
NamedMember member_named(const std::string& line) {
  constexpr const char* kNs = R"re(((?:\w+::)*\w+))re";
  static const RE2 kMemberOf[] = {  // (member, namespace)
      RE2(std::string(R"re((?:'|‘)(?:\w+::)*(\w+)(?:'|’) is not a member of (?:'|‘))re") + kNs + "(?:'|’)"),         // GCC
      RE2(std::string(R"re((?:'|‘)(?:\w+::)*(\w+)(?:'|’) in namespace (?:'|‘))re") + kNs + "(?:'|’) does not name a"),  // GCC
      RE2(std::string(R"re('(\w+)': (?:is )?not a member of '?)re") + kNs + "(?:'|$|\\s)"),                           // MSVC C2039
      RE2(std::string(R"re(no (?:member|type|template) named '(\w+)' in namespace ')re") + kNs + "'(?:;|$|\\s)"),  // clang
  };
  static const RE2 kNsHasNo[] = {  // (namespace, member)
      RE2(std::string("namespace \"") + kNs + R"re(" has no member(?: class| template)? "(\w+)")re"),               // nvcc (EDG)
  };
  static const RE2 kQualified[] = {  // one qualified name, split at its last "::"
      RE2(R"re((?:'|‘)((?:\w+::)+)(\w+)(?:'|’) has not been declared)re"),  // GCC
      RE2(R"re(identifier "((?:\w+::)+)(\w+)" is undefined)re"),           // nvcc (EDG)
  };
  NamedMember m;
  for (const auto& re : kMemberOf)
    if (RE2::PartialMatch(line, re, &m.name, &m.ns)) return {without_inline_namespaces(m.ns), m.name};
  for (const auto& re : kNsHasNo)
    if (RE2::PartialMatch(line, re, &m.ns, &m.name)) return {without_inline_namespaces(m.ns), m.name};
  for (const auto& re : kQualified)
    if (RE2::PartialMatch(line, re, &m.ns, &m.name)) {
      m.ns.resize(m.ns.size() - 2);  // the trailing "::"
      return {without_inline_namespaces(m.ns), m.name};
    }
  return {};
}

// A force-include remedy whose header the log does not name (nvcc: `namespace "std" has no member
// "cout"`, `namespace "thrust" has no member "device"`): the member's header from stdlib.toml becomes
// the finding's first capture, so the remedy includes it (for nvcc only where the row says so); a
// member of a namespace the table knows but not in it leaves the remedy without a header (it is
// refused); a namespace the table does not know (the source's own) is not read.
void std_member_rule(const SignatureSet& set, Finding& f) {
  if (!f.sig || f.remedy.kind != RemedyKind::force_include) return;
  if (valid_header_name(expand_captures(f.remedy.header, f.captures))) return;
  for (const auto& e : f.evidence) {
    NamedMember named = member_named(e.text);
    if (named.name.empty() || !set.entities.knows_namespace(named.ns)) continue;
    const std::string qualified = named.ns + "::" + named.name;
    const StdMember* m = set.entities.find_member(named.ns, named.name);
    if (!m) {
      f.notes.push_back(qualified + " (line " + std::to_string(e.line) + ") is not in the table of library members "
                        "(stdlib.toml): which header declares it is not known, so none is force-included");
      return;
    }
    const bool nvcc_only = m->compiler == "nvcc";
    f.captures = {m->header};
    f.remedy.compiler = m->compiler;
    f.cause = expand_captures(f.sig->cause, f.captures);
    f.fix = qualified + " is declared in <" + m->header + ">: add '#include <" + m->header + ">' to the file, or build with "
            "'-include " + m->header + "' for " + (nvcc_only ? "nvcc." : "the host compiler and nvcc.");
    f.remedy.note = expand_captures(f.sig->remedy.note, f.captures);
    f.notes.push_back(qualified + " (line " + std::to_string(e.line) + ") is declared in <" + m->header + "> (entity table " +
                      m->file + ":" + std::to_string(m->line) + ", source " + m->source + ")");
    return;
  }
}

// A project's own CMake error about CUDA after CMake's check_language(CUDA) found no CUDA compiler
// (Modules/CheckLanguage.cmake: "-- Looking for a CUDA compiler - NOTFOUND"): the project checks for the
// compiler before enable_language(CUDA) and stops with its own words ("CMake does not find the CUDA SDK,
// which is required ..."), so the failure is the one CMake's own "No CMAKE_CUDA_COMPILER could be found"
// states. The error must be a CMake Error that names CUDA and come after the check.
void cuda_language_rule(const SignatureSet& set, Diagnosis& d, Finding& f) {
  const std::uint64_t check = d.log_facts.cuda_compiler_absent;
  if (f.sig || check == 0 || f.first_line() <= check || f.evidence.empty()) return;
  auto line = read_failure_line(f.evidence.front().text);
  if (!line || std::string_view(line->grammar->tool) != "cmake") return;
  static const RE2 kCuda(R"(\bCUDA\b)");
  bool names_cuda = false;
  for (const auto& e : f.evidence) names_cuda |= RE2::PartialMatch(e.text, kCuda);
  const Signature* to = names_cuda ? set.find("CMAKE_CUDA_COMPILER_NOT_FOUND") : nullptr;
  if (!to) return;
  reroute(d, f, *to, "");
  f.notes.push_back("CMake's check_language(CUDA) found no CUDA compiler (line " + std::to_string(check) +
                    ", Kitware/CMake Modules/CheckLanguage.cmake) before this CMake Error, which names CUDA");
}

}  // namespace

void reason_on_entities(const SignatureSet& set, Diagnosis& d) {
  if (!d.root() || !d.failed()) return;
  Finding& f = d.findings.front();
  header_rule(set, d, f);
  module_rule(set, d, f);
  environ_key_rule(set, d, f);
  build_pip_rule(d, f);
  triton_rule(set, d, f);
  triton_fp8_rule(set, f);
  compiler_crash_rule(set, d, f);
  triton_floor_rule(set, d, f);
  ptx_rule(set, f);
  removed_name_rule(set, f);
  removed_entry_point_rule(set, d, f);
  torch_preload_rule(set, d, f);
  uv_index_rule(set, d, f);
  import_crash_rule(set, d, f);
  glibcxx_rule(set, f);
  std_member_rule(set, f);
  companion_rule(f);
  symbol_rule(set, d, f);
  cpu_isa_rule(set, d, f);
  placeholder_backend_rule(set, d, f);
  link_library_rule(set, d, f);
  provided_rule(set, d, f, kProgram);
  provided_rule(set, d, f, kDependency);
  provided_rule(set, d, f, kDistribution);
  cuda_language_rule(set, d, f);
  hip_compile_rule(set, d, f);
  verdict_rule(set, d, f);
  cpu_torch_rule(set, d, f);
}

}  // namespace ts::triage
