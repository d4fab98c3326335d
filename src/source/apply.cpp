#include "source/apply.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "source/edit.h"
#include "source/hash.h"
#include "source/journal.h"
#include "source/tree_path.h"
#include "source/udiff.h"
#include "util/fs.h"

namespace ts::source {

namespace {

unsigned file_mode(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? (st.st_mode & 07777) : 0644;
}

// write_file_atomic creates 0644; an edited script must keep its mode.
std::string write_keeping_mode(const std::string& path, const std::string& data, unsigned mode) {
  if (std::string err = util::write_file_atomic(path, data); !err.empty()) return err;
  if (::chmod(path.c_str(), mode) != 0) return path + ": written, but its mode could not be restored";
  return "";
}

struct Working {
  std::string abs;       // resolved path inside the tree
  std::string disk;      // as read
  std::string current;   // after the edits so far
  std::vector<std::string> fixes;
};

// The tree's journal, or false with why it cannot be read in the result's errors (apply and revert alike).
template <class Result>
bool journal_or_error(const std::string& tree, Journal& journal, Result& res, const char* rel = kJournalRel) {
  std::string why;
  if (read_journal(tree, journal, &why, rel)) return true;
  res.ok = false;
  res.errors.push_back(why);
  return false;
}

}  // namespace

std::string_view to_string(FixReport::State s) {
  switch (s) {
    case FixReport::State::applied: return "applied";
    case FixReport::State::already_applied: return "already applied";
    case FixReport::State::failed: return "failed";
    case FixReport::State::no_edits: return "env/cmake only";
  }
  return "?";
}

ApplyResult apply_fixes(const std::string& tree, const std::vector<const Fix*>& fixes, const FixContext& ctx,
                        const ApplyOptions& options) {
  ApplyResult res;
  Journal journal;
  if (!journal_or_error(tree, journal, res)) return res;
  std::string why;
  std::map<std::string, Working> files;
  std::vector<std::string> order;  // files in the order first touched

  for (const Fix* fix : fixes) {
    FixReport rep;
    rep.id = fix->id;
    rep.hash = fix_hash(*fix);
    for (const auto& [k, v] : fix_env(*fix, ctx)) res.env.emplace_back(k, v);
    res.cmake_options.insert(res.cmake_options.end(), fix->cmake_options.begin(), fix->cmake_options.end());
    bool any_applied = false, failed = false;
    for (const auto& edit : fix->edits) {
      auto it = files.find(edit.file);
      if (it == files.end()) {
        std::string abs = resolve_in_tree(tree, edit.file, true, &why);
        std::optional<std::string> text;
        if (abs.empty() || !(text = util::read_file(abs))) {
          rep.messages.push_back("fix " + fix->id + ": " + (abs.empty() ? why : edit.file + ": cannot read") +
                                 " (is this the source tree the fix is for?)");
          failed = true;
          continue;
        }
        it = files.emplace(edit.file, Working{abs, *text, *text, {}}).first;
        order.push_back(edit.file);
      }
      Working& w = it->second;
      std::string text = edit.templated ? expand_template(edit.text, ctx) : edit.text;
      EditOutcome out = apply_edit(w.current, edit, text);
      if (out.status == EditOutcome::Status::drifted) {
        rep.messages.push_back(out.message + " [fix " + fix->id + "]");
        failed = true;
        continue;
      }
      if (out.status == EditOutcome::Status::applied) any_applied = true;
      w.current = std::move(out.content);
      if (std::find(w.fixes.begin(), w.fixes.end(), fix->id) == w.fixes.end()) w.fixes.push_back(fix->id);
    }
    rep.state = failed ? FixReport::State::failed
                : fix->edits.empty() ? FixReport::State::no_edits
                : any_applied        ? FixReport::State::applied
                                     : FixReport::State::already_applied;
    if (failed) {
      res.ok = false;
      res.errors.insert(res.errors.end(), rep.messages.begin(), rep.messages.end());
    }
    res.fixes.push_back(std::move(rep));
  }
  if (!res.ok) return res;  // drift anywhere: nothing is written

  for (const auto& rel : order) {
    Working& w = files[rel];
    if (w.current == w.disk) continue;
    res.changed_files.push_back(rel);
    res.diff += unified_diff(rel, w.disk, w.current);
    // A file torchsmith edited before and the user changed since would lose the user's change on
    // revert; stop instead of guessing.
    std::string disk_hash = sha256_hex(w.disk);
    if (JournalFile* jf = journal.find(rel); jf && disk_hash != jf->applied_sha256 && disk_hash != jf->original_sha256) {
      res.ok = false;
      res.errors.push_back(rel + ": changed since torchsmith last edited it; run `torchsmith fix DIR --revert` "
                                 "(with --force to drop those changes) before applying again");
    }
  }
  if (!res.ok || options.dry_run || res.changed_files.empty()) return res;

  for (const auto& rel : res.changed_files) {
    Working& w = files[rel];
    JournalFile* jf = journal.find(rel);
    if (!jf) {
      journal.files.push_back({rel, w.disk, sha256_hex(w.disk), "", file_mode(w.abs), {}});
      jf = &journal.files.back();
    }
    jf->applied_sha256 = sha256_hex(w.current);
    for (const auto& id : w.fixes)
      if (std::find(jf->fixes.begin(), jf->fixes.end(), id) == jf->fixes.end()) jf->fixes.push_back(id);
  }
  for (const auto& rep : res.fixes) {
    if (rep.state == FixReport::State::no_edits) continue;
    auto it = std::find_if(journal.fixes.begin(), journal.fixes.end(), [&](const JournalFix& f) { return f.id == rep.id; });
    if (it == journal.fixes.end()) journal.fixes.push_back({rep.id, rep.hash});
    else it->hash = rep.hash;
  }
  if (std::string err = write_journal(tree, journal); !err.empty()) {
    res.ok = false;
    res.errors.push_back("cannot write the journal, so no file was edited: " + err);
    return res;
  }
  for (const auto& rel : res.changed_files) {
    Working& w = files[rel];
    if (std::string err = write_keeping_mode(w.abs, w.current, journal.find(rel)->mode); !err.empty()) {
      res.ok = false;
      res.errors.push_back(err + " (the journal holds the original; `torchsmith fix DIR --revert` restores it)");
    }
  }
  return res;
}

RevertResult revert_fixes(const std::string& tree, const RevertOptions& options) {
  RevertResult res;
  Journal journal;
  if (!journal_or_error(tree, journal, res, options.journal)) return res;
  std::string why;
  res.had_journal = !journal.empty();
  if (!res.had_journal) return res;
  Journal kept;  // entries that could not be restored stay journaled
  kept.fixes = journal.fixes;
  for (const auto& jf : journal.files) {
    std::string abs = resolve_in_tree(tree, jf.path, false, &why);
    if (abs.empty()) {
      res.errors.push_back(why);
      kept.files.push_back(jf);
      continue;
    }
    auto disk = util::read_file(abs);
    std::string disk_hash = disk ? sha256_hex(*disk) : "";
    if (jf.created && !disk) {  // a file torchsmith added, already gone
      res.unchanged.push_back(jf.path);
      continue;
    }
    if (!jf.created && disk && disk_hash == jf.original_sha256) {
      res.unchanged.push_back(jf.path);
      continue;
    }
    if (disk_hash != jf.applied_sha256 && !options.force) {
      res.refused.push_back(jf.path);
      res.errors.push_back(jf.path + ": " + (disk ? "changed" : "removed") +
                           " since torchsmith edited it; kept as it is. `torchsmith fix DIR --revert --force` "
                           "restores the original anyway (losing those changes)");
      kept.files.push_back(jf);
      continue;
    }
    res.diff += unified_diff(jf.path, disk.value_or(""), jf.original);
    if (options.dry_run) {
      res.restored.push_back(jf.path);
      continue;
    }
    if (jf.created) {  // a file torchsmith added: revert removes it
      std::error_code rm;
      std::filesystem::remove(abs, rm);
      if (rm) {
        res.errors.push_back(abs + ": cannot remove (" + rm.message() + ")");
        kept.files.push_back(jf);
      } else {
        res.restored.push_back(jf.path);
      }
      continue;
    }
    if (std::string err = write_keeping_mode(abs, jf.original, jf.mode); !err.empty()) {
      res.errors.push_back(err);
      kept.files.push_back(jf);
      continue;
    }
    res.restored.push_back(jf.path);
  }
  res.ok = res.errors.empty();
  if (options.dry_run) return res;
  std::string err = kept.files.empty() ? remove_journal(tree, options.journal) : write_journal(tree, kept, options.journal);
  if (!err.empty()) {
    res.ok = false;
    res.errors.push_back(err);
  }
  return res;
}

}  // namespace ts::source
