#include "triage/rank.h"

#include <algorithm>

#include "triage/grammar.h"
#include "triage/symbol.h"

namespace ts::triage {
namespace {

int severity_rank(const Finding& f) {
  if (!f.sig) return 1;  // unrecognised error: after known errors, before warnings
  switch (f.severity) {
    case Severity::error: return 0;
    case Severity::warning: return 2;
    case Severity::info: return 3;
    case Severity::wrapper: return 4;
  }
  return 4;
}

bool earlier(const Finding& a, const Finding& b) {
  int ra = severity_rank(a), rb = severity_rank(b);
  if (ra != rb) return ra < rb;
  return a.first_line() < b.first_line();
}

// Whether every evidence line of `f` is in a traceback a program caught and logged at WARNING (a log
// record right above "Traceback (most recent call last):", Logger.warning(..., exc_info=True); the
// scanner's handled_tracebacks): the program went on, so it is not the failure.
bool handled_exception(const Finding& f, const LogFacts& facts) {
  if (f.evidence.empty() || facts.handled_tracebacks.empty()) return false;
  for (const auto& e : f.evidence)
    if (std::none_of(facts.handled_tracebacks.begin(), facts.handled_tracebacks.end(),
                     [&](const auto& r) { return r.first <= e.line && e.line <= r.second; }))
      return false;
  return true;
}

Finding unrecognised(const Fallbacks& fb, const LogFacts* facts) {
  for (Finding* f : {fb.error_after_failed, fb.first_error, fb.cmake_block, fb.traceback, fb.first_failure, fb.first_failed}) {
    if (!f || f->count == 0 || (facts && handled_exception(*f, *facts))) continue;
    Finding u = *f;
    u.id = "unrecognised";
    u.sig = nullptr;
    u.severity = Severity::error;
    u.cause = "No known signature matched. This is the first real error in the log.";
    u.fix = "Read the evidence and the lines around it; the errors after it are usually its consequences.";
    // Which tool failed, in which phase, naming what: the failure grammar of the evidence.
    for (const auto& e : u.evidence) {
      auto line = read_failure_line(e.text);
      if (!line) continue;
      std::string named;
      for (const auto& en : line->entities) named += (named.empty() ? "" : ", ") + en.kind + " " + en.value;
      u.notes.push_back(std::string("failure line of ") + line->grammar->tool + " (phase: " + line->grammar->phase +
                        ")" + (named.empty() ? "" : "; it names " + named) + ": line " + std::to_string(e.line));
      break;
    }
    return u;
  }
  return {};
}

// A log whose only failure lines are a tool's summary ("ld returned 1 exit status", "make: *** Error 1")
// still failed: answer "unrecognised" at the earliest of them, not "no error found".
Finding only_wrappers(const std::vector<Finding>& wrappers) {
  const Finding* first = &wrappers.front();
  for (const auto& w : wrappers)
    if (w.first_line() < first->first_line()) first = &w;
  Finding u = *first;
  u.id = "unrecognised";
  u.sig = nullptr;
  u.severity = Severity::error;
  u.superseded_by.clear();
  u.remedy = {};
  u.cause = "No known signature matched, and the only failure lines are a tool's summary (" + first->id +
            "): the error that made it fail is not in this log, or is above the lines shown here.";
  u.fix = "Find the first error above this line in the full log (rerun with the output unabridged, one job "
          "at a time so it is not interleaved) and triage that.";
  return u;
}

// Entity rule: an undefined symbol decides by what it is once demangled (symbol.h), not by which
// pattern caught it. A torch symbol with no string type in it cannot be an ABI mismatch: it is
// missing from this torch; one with std::__cxx11 in it is of the other ABI. An old-ABI std::string
// fits both, so the patterns' reading stands. A torch object (no parameter list) means no torch was
// loaded at all (symbol.cpp says why). The finding says what was read and why.
void read_symbols(const SignatureSet& set, std::vector<Finding>& present) {
  for (auto& f : present) {
    bool decided = false;
    for (const auto& e : f.evidence) {
      for (const auto& en : entities_of(e.text)) {
        if (en.kind != "symbol") continue;
        SymbolReading s = read_symbol(en.value);
        if (s.rule.empty()) continue;
        f.notes.push_back("undefined symbol " + s.mangled + (s.demangled.empty() ? "" : " is " + s.demangled) + ": " +
                          s.rule + " (line " + std::to_string(e.line) + ")");
        // The reading decides between the torch readings the patterns may have picked the wrong one of.
        const char* to = nullptr;
        if (s.origin == SymbolReading::Origin::torch && !s.cause.empty() && s.cause != f.id &&
            (f.id == "UNDEFINED_SYMBOL_CXX11_ABI" || f.id == "EXT_BUILT_FOR_OTHER_TORCH" ||
             f.id == "TORCH_LIB_NOT_LOADED_IMPORT_ORDER"))
          to = s.cause.c_str();
        // A reading that torch's symbol is missing from torch's own libraries (stale libs) assumes the symbol
        // is torch's: a BLAS/LAPACK routine one of them needs is another library's, and that decides.
        if (s.origin == SymbolReading::Origin::lapack && f.id == "TORCH_MIXED_INSTALL_STALE_LIBS") to = s.cause.c_str();
        // A finding another one already makes moot (torch's own _C missing the symbol: a mixed install) stays as it is.
        bool moot = std::any_of(present.begin(), present.end(), [&](const Finding& o) {
          return &o != &f && std::find(o.sig->supersedes.begin(), o.sig->supersedes.end(), f.id) != o.sig->supersedes.end();
        });
        if (const Signature* sig = to && !moot ? set.find(to) : nullptr) {
          bool there = std::any_of(present.begin(), present.end(), [&](const Finding& o) { return o.id == sig->id; });
          if (there) f.count = 0;  // the other finding stands for it
          f.id = sig->id;
          f.sig = sig;
        }
        decided = true;
        break;
      }
      if (decided) break;
    }
    // Who owns the library: an undefined torch symbol in the compiled module of a package the table knows
    // (dependencies.toml [[extension]]: torchvision's _C) is that package's own cause, whatever the symbol.
    if (f.count == 0 || (f.id != "EXT_BUILT_FOR_OTHER_TORCH" && f.id != "UNDEFINED_SYMBOL_CXX11_ABI")) continue;
    for (const auto& e : f.evidence) {
      if (e.text.find("undefined symbol") == std::string::npos) continue;
      const ProvidedEntry* p = nullptr;
      std::string owner;
      for (const auto& en : entities_of(e.text))
        if (en.kind == "extension" && (p = set.entities.find_provided("extension", en.value))) { owner = en.value; break; }
      const Signature* sig = p ? set.find(p->signature) : nullptr;
      if (!sig) continue;
      f.notes.push_back("the library missing the torch symbol is " + owner + "'s own (line " + std::to_string(e.line) + "): " + owner +
                        "'s entry names its cause (entity table " + p->file + ":" + std::to_string(p->line) + ", source " + p->source + ")");
      if (std::any_of(present.begin(), present.end(), [&](const Finding& o) { return o.id == sig->id; })) f.count = 0;
      f.id = sig->id;
      f.sig = sig;
      break;
    }
  }
  present.erase(std::remove_if(present.begin(), present.end(), [](const Finding& f) { return f.count == 0; }), present.end());
}

// pip's metadata wrapper and no error line above the child's exit: setup.py printed its reason and
// exited. The cause is that step, read off the child's last output line (the line above pip's
// `error: subprocess-exited-with-error`). Empty when the log is not of that shape.
Finding metadata_step_failed(const SignatureSet& set, const std::vector<Finding>& wrappers, const Finding& u) {
  const Finding* meta = nullptr;
  const Finding* child = nullptr;
  for (const auto& w : wrappers) {
    if (w.id == "PIP_METADATA_GENERATION_FAILED") meta = &w;
    if (w.id == "CALLED_PROCESS_ERROR") child = &w;
  }
  const Signature* sig = set.find("SETUP_PY_METADATA_FAILED");
  if (!meta || !child || !sig || child->first_line() > meta->first_line()) return {};
  if (u.count > 0 && u.first_line() < child->first_line()) return {};  // an error line above: that is the cause
  const Evidence* last = nullptr;
  for (const auto& c : child->context) {
    if (c.line >= child->first_line()) break;
    if (c.text.find_first_not_of(" \t") != std::string::npos) last = &c;
  }
  if (!last) return {};
  Finding f = *child;
  f.id = sig->id;
  f.sig = sig;
  f.severity = sig->severity;
  f.phase = sig->phase;
  f.superseded_by.clear();
  std::string text = last->text.substr(last->text.find_first_not_of(" \t"));
  f.captures = {text};
  f.evidence = {*last};
  f.cause = expand_captures(sig->cause, f.captures);
  f.fix = expand_captures(sig->fix, f.captures);
  f.remedy = sig->remedy;
  f.notes.push_back("pip's metadata-generation-failed (line " + std::to_string(meta->first_line()) + ") wraps setup.py's exit; "
                    "no error line is above it, so its last output line (line " + std::to_string(last->line) + ") is the reason");
  return f;
}

}  // namespace

// Whether warning `w` can be the cause of error `e` it supersedes: `e` names no header, module, symbol or
// library, or `w`'s own lines name one `e` names (a missing-cuDNN warning is the cause of cudnn.h's
// failure, not of another header's).
bool same_entity(const Finding& w, const Finding& e) {
  auto named = [](const Finding& f) {
    std::vector<Entity> out;
    for (const auto& ev : f.evidence)
      for (auto& en : entities_of(ev.text))
        if (en.kind == "header" || en.kind == "module" || en.kind == "symbol" || en.kind == "library") out.push_back(std::move(en));
    return out;
  };
  std::vector<Entity> of_e = named(e);
  if (of_e.empty()) return true;
  for (const auto& a : named(w))
    for (const auto& b : of_e)
      if (a.kind == b.kind && a.value == b.value) return true;
  return false;
}

// A traceback logged under a record at WARNING that the log's failure wrapper follows (pip's
// "subprocess-exited-with-error", setup.py's CalledProcessError), with no known error and no other failure
// line from the traceback's end to that wrapper: the program did not go on from the exception, it stopped
// on it (a warning logged just before raising, another library's record above an uncaught traceback).
// Whether one was restored.
static bool restore_stopped_traceback(const Fallbacks& fb, const LogFacts& facts, std::vector<Finding>& roots,
                                      const std::vector<Finding>& wrappers) {
  const Finding u0 = unrecognised(fb, &facts);
  Finding* stopped = nullptr;
  std::uint64_t by = 0;
  for (const auto& r : facts.handled_tracebacks) {
    std::uint64_t w_at = 0, w_before = 0;
    for (const auto& w : wrappers) {
      if (w.first_line() > r.second && (!w_at || w.first_line() < w_at)) w_at = w.first_line();
      if (w.first_line() < r.first) w_before = w.first_line();
    }
    const bool failure_after = u0.count && u0.first_line() > r.second;
    if (u0.count && u0.first_line() < r.first && u0.first_line() > w_before) w_before = u0.first_line();  // an error line above it
    // the wrapper after it with nothing between, or the child-output box a wrapper or an error line opened
    // above it (pip's "subprocess-exited-with-error", uv's "error: The build backend returned an error")
    // with no failure after it
    if (w_at && failure_after && u0.first_line() < w_at) continue;
    if (!w_at && !(w_before && !failure_after)) continue;
    if (!w_at) w_at = w_before;
    for (auto& f : roots)
      if (f.severity == Severity::info && f.sig && f.sig->severity == Severity::error && r.first <= f.first_line() &&
          f.first_line() <= r.second && (!stopped || f.first_line() > stopped->first_line())) {
        stopped = &f;
        by = w_at;
      }
  }
  if (stopped) {
    stopped->severity = Severity::error;
    if (!stopped->notes.empty()) stopped->notes.pop_back();  // "... went on, so it is not the failure"
    stopped->notes.push_back("line " + std::to_string(stopped->first_line()) + " is in a traceback logged under a record at "
                             "WARNING, and it is the last failure under the log's failure wrapper (line " + std::to_string(by) +
                             "): the program stopped on that exception");
    return true;
  }
  return false;
}

Diagnosis rank(const SignatureSet& set, std::vector<Finding>& per_signature, const Fallbacks& fb, const LogFacts* facts) {
  std::vector<Finding> present;
  for (auto& f : per_signature)
    if (f.count != 0) present.push_back(f);
  read_symbols(set, present);
  for (auto& f : present) {
    f.severity = f.sig->severity;
    f.phase = f.sig->phase;
    // "$1" in the texts: what the first evidence line captured (a module name, a header).
    f.cause = expand_captures(f.sig->cause, f.captures);
    f.fix = expand_captures(f.sig->fix, f.captures);
    f.remedy = f.sig->remedy;
    f.remedy.note = expand_captures(f.sig->remedy.note, f.captures);
    if (facts && f.severity == Severity::error && handled_exception(f, *facts)) {
      f.severity = Severity::info;
      f.notes.push_back("line " + std::to_string(f.first_line()) + " is in a traceback logged under a record at WARNING: the "
                        "program caught the exception and went on, so it is not the failure");
    }
  }
  // Supersedes: a more specific or more fundamental finding makes another moot; a warning only one of
  // the entity it names (same_entity).
  for (auto& p : present)
    for (const auto& id : p.sig->supersedes)
      for (auto& q : present)
        if (q.id == id && &q != &p && q.superseded_by.empty() && (p.severity != Severity::warning || same_entity(p, q)))
          q.superseded_by = p.id;
  // Mutual supersedes would leave nothing: then supersedes cannot decide, keep both.
  for (auto& p : present)
    if (!p.superseded_by.empty())
      if (const Finding* by = [&]() -> const Finding* { for (auto& q : present) if (q.id == p.superseded_by) return &q; return nullptr; }())
        if (by->superseded_by == p.id) p.superseded_by.clear();

  // A warning that makes an error moot explains it: it is the error (torch's "sm_120 is not
  // compatible" above the "no kernel image" it causes).
  for (const auto& q : present)
    if (!q.superseded_by.empty() && q.severity == Severity::error)
      for (auto& p : present)
        if (p.id == q.superseded_by && p.severity == Severity::warning) p.severity = Severity::error;

  std::vector<Finding> roots, moot, wrappers;
  for (auto& f : present) {
    if (f.severity == Severity::wrapper) wrappers.push_back(f);
    else if (!f.superseded_by.empty()) moot.push_back(f);
    else roots.push_back(f);
  }
  bool known_error = std::any_of(roots.begin(), roots.end(), [](const Finding& f) { return f.severity == Severity::error; });
  if (!known_error && facts && !facts->handled_tracebacks.empty()) known_error = restore_stopped_traceback(fb, *facts, roots, wrappers);
  if (!known_error) {
    Finding u = unrecognised(fb, facts);
    // A warning-class signature that matched a line of the failure itself (configure went on
    // without cuDNN, then a compile hit `cudnn.h: No such file`; a REQUIRED find_package's
    // `Could NOT find X` as the message of its CMake Error block) explains it: it is the error.
    auto in_failure = [&](const Evidence& e) {
      return std::any_of(u.evidence.begin(), u.evidence.end(), [&](const Evidence& x) { return x.line == e.line; });
    };
    auto on_line = [&](const Finding& f) {
      return f.severity == Severity::warning && std::any_of(f.evidence.begin(), f.evidence.end(), in_failure);
    };
    // A warning that explains failures of the phase the unrecognised line's grammar is of (an
    // option on the command line that makes the resolver fail) is that failure's cause.
    std::string phase;
    for (const auto& e : u.evidence)
      if (auto line = read_failure_line(e.text)) { phase = line->grammar->phase; break; }
    auto explains = [&](const Finding& f) {
      return f.severity == Severity::warning && !phase.empty() && f.sig->explains == phase;
    };
    auto named = u.count > 0 ? std::find_if(roots.begin(), roots.end(), on_line) : roots.end();
    if (named == roots.end() && u.count > 0) named = std::find_if(roots.begin(), roots.end(), explains);
    Finding meta = named == roots.end() ? metadata_step_failed(set, wrappers, u) : Finding{};
    if (named != roots.end()) named->severity = Severity::error;
    else if (meta.sig) roots.push_back(std::move(meta));
    else if (u.count > 0) roots.push_back(std::move(u));
    else if (roots.empty() && !wrappers.empty()) roots.push_back(only_wrappers(wrappers));
  }
  std::stable_sort(roots.begin(), roots.end(), earlier);
  std::stable_sort(moot.begin(), moot.end(), earlier);
  std::stable_sort(wrappers.begin(), wrappers.end(), earlier);

  Diagnosis d;
  d.root_count = roots.empty() ? 0 : 1;
  for (auto* v : {&roots, &moot, &wrappers})
    for (auto& f : *v) d.findings.push_back(std::move(f));
  return d;
}

}  // namespace ts::triage
