#pragma once
// The fix journal, <tree>/.torchsmith/journal.json: for every file torchsmith edited, its original
// bytes (base64) and digest, its mode, and the digest of what torchsmith wrote. Written before any
// edited file, so an interrupted apply can still be reverted.
#include <string>
#include <vector>

namespace ts::source {

struct JournalFile {
  std::string path;            // relative to the tree
  std::string original;        // the bytes before torchsmith's first edit
  std::string original_sha256;
  std::string applied_sha256;  // what torchsmith last wrote
  unsigned mode = 0644;
  std::vector<std::string> fixes;  // ids whose edits touched it
  bool created = false;            // torchsmith wrote a file the tree did not have: revert removes it
};

struct JournalFix {
  std::string id, hash;
};

struct Journal {
  std::vector<JournalFile> files;
  std::vector<JournalFix> fixes;
  JournalFile* find(const std::string& path);
  bool empty() const { return files.empty() && fixes.empty(); }
};

inline constexpr const char* kJournalRel = ".torchsmith/journal.json";
// Source ports (source/port.h) keep their own journal, so they revert without the fixes before them.
inline constexpr const char* kPortJournalRel = ".torchsmith/ports-journal.json";

// False with *error when the journal exists but cannot be read; true and an empty journal when none.
bool read_journal(const std::string& tree, Journal& out, std::string* error, const char* rel = kJournalRel);
// "" or why not. Creates .torchsmith/ inside the tree.
std::string write_journal(const std::string& tree, const Journal& j, const char* rel = kJournalRel);
std::string remove_journal(const std::string& tree, const char* rel = kJournalRel);

}  // namespace ts::source
