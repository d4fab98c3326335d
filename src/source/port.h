#pragma once
// Source ports (data/kb/ports.toml): mechanical rewrites of torch C++/CUDA APIs a torch release
// removed (THC headers and calls, AT_CHECK, .type() in AT_DISPATCH, ...), for unmaintained extension
// packages. Unlike a Fix (one anchored edit in one named file), a port rewrites every match of its
// pattern in every C/C++/CUDA file of the tree. It is applied to the build's copy of the source only,
// journaled in its own journal (kPortJournalRel), so revert_ports restores each file byte for byte
// without touching the package fixes applied before it.
#include <string>
#include <string_view>
#include <vector>

#include "kb/table.h"

namespace ts::source {

struct Port {
  std::string id, reason, source, checked;
  std::string removed_in;  // "1.11"; "" = deprecated, still in the headers
  std::string pattern;     // RE2
  std::string rewrite;     // RE2 rewrite string (\1 ...)
  // An include port: in a file another port changed (a THC header ported away, a call rewritten),
  // where `pattern` matches (a use) and `unless` does not (the header, or one that gives it, already
  // included), `#include <include>` is added once, after the last #include active wherever the first
  // use is (never inside a closed #if block); `rewrite` is then empty. Listed after the rewrites.
  std::string include;
  std::string unless;      // RE2: a file it matches is left alone (an include port: its header given)
  std::string when;        // RE2: a file is ported only where it also matches (the failure's other half)
  bool repeat = false;     // rewrite again while it still matches (at most 8 passes): matches one pass cannot reach
  // A rewrite a pattern cannot say (kTransforms, e.g. "python2-tabs"): in a file `pattern` matches
  // (the anchor), the named function decides and rewrites; `rewrite` is then empty.
  std::string transform;
  // Signature ids of a failure before any compile (package phase) that this port changes: setup.py
  // that Python cannot read for a committed merge conflict (SOURCE_MERGE_CONFLICT_MARKERS). Such a
  // failure gets the ports' one round, as a failed compile does; any other package-phase one none.
  std::vector<std::string> answers;
  std::vector<std::string> files;  // file name endings it applies to
  std::string file;        // where it was read
  int line = 0;
};

struct PortSet {
  std::vector<Port> ports;
  const Port* find(std::string_view id) const;
};

// ports.toml: the embedded one, then DIR/ports.toml of each overlay (a port with the same id replaces).
PortSet load_ports(const std::vector<std::string>& overlay_dirs, std::vector<std::string>& errors);
std::vector<std::string> parse_ports_text(std::string_view file_name, std::string_view text, std::vector<Port>& out);
void validate_ports_file(std::string_view file, std::string_view text, std::vector<kb::KbError>& errors);
inline constexpr kb::TableDef<PortSet> kPortTable{{"ports", "ports.toml", &validate_ports_file}, &load_ports};

struct PortedFile {
  std::string path;                // relative to the tree
  std::vector<std::string> ports;  // ids that matched, in catalogue order
  int rewrites = 0;                // matches rewritten
};

struct PortResult {
  bool ok = true;
  std::vector<std::string> errors;
  std::vector<PortedFile> files;   // changed (or, for a dry run, that would be)
  std::vector<std::string> ports;  // ids that matched anywhere, in catalogue order
  std::string diff;                // unified diff of every change
  bool changed() const { return !files.empty(); }
};

// `text` with `#include <header>` added for a use at offset `use`: after the last #include line
// before it that is active wherever the use is (one in an #if block closed before the use is not),
// else at the top.
std::string add_include(std::string_view text, std::size_t use, std::string_view header);

// What a transform port is given beside the file's text.
struct TransformContext {
  std::string path;                                      // the file, to read what it includes
  const std::vector<std::string>* undefined = nullptr;   // mangled symbols a built library could not find
};

// Rewrites the tree's C/C++/CUDA sources (third_party/, build/, .git/ and .torchsmith/ skipped) with
// every port whose pattern matches; nothing is written on a dry run. Each changed file is journaled
// (original bytes) before it is written, atomically. `undefined_symbols`: what verify's import could
// not find in the built library, for the transform that answers it (port.template-instantiation).
PortResult apply_ports(const std::string& tree, const PortSet& set, bool dry_run = false,
                       const std::vector<std::string>* undefined_symbols = nullptr);

// Puts back every file the ports changed, byte for byte, and removes the ports' journal; "" or why not.
std::string revert_ports(const std::string& tree);

}  // namespace ts::source
