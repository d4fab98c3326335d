#pragma once
// An extension's tree copied into OUT/src as a mirror: new and changed files copied, files deleted
// from the source deleted from the copy (a deleted .cpp must not be compiled on the next build),
// unchanged files left alone with their mtimes, so the build stays incremental. What the build
// itself writes at the copy's top (build/, dist/, *.egg-info, .torchsmith/) is neither copied nor
// deleted. A directory holding a torchsmith output (its marker file, below) or a CACHEDIR.TAG is
// never copied: `torchsmith build .` with the default --out inside the tree used to copy the tree
// into itself, level after level.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ts::run {

// Written by `build` into every --out it uses; `clean` and the mirror recognise an output by it.
inline constexpr const char* kOutMarker = ".torchsmith-out";
inline constexpr const char* kOutMarkerText =
    "A torchsmith build output (torchsmith build --out). `torchsmith clean` may remove this directory; source copies leave it out.\n";
std::string write_out_marker(const std::string& out_dir);  // "" or the error
bool has_out_marker(const std::string& dir);

struct MirrorResult {
  std::string error;  // "" on success
  std::size_t copied = 0, removed = 0, unchanged = 0;
  std::vector<std::string> skipped;  // source-relative directories left out (outputs, caches)
};

// Mirrors `from` into `to`. `exclude` are absolute directories never copied (the run's --out when
// it lies inside `from`). Refuses (error set, nothing written) when `to` is `from` or inside it
// and not excluded.
// The copy's record (.torchsmith/mirror.tsv): each copied file's source (size, mtime), the name
// length-prefixed so no byte of it can read back as another entry; every name read back must pass
// util::join_inside, else the whole record is refused (nullopt, *error) and the copy compared whole.
inline constexpr const char* kMirrorRecordHeader = "torchsmith-mirror/2";
struct MirrorStamp {
  std::uintmax_t size = 0;
  long long mtime = 0;
  bool operator==(const MirrorStamp&) const = default;
};
std::string render_mirror_record(const std::map<std::string, MirrorStamp>& entries);
std::optional<std::map<std::string, MirrorStamp>> parse_mirror_record(std::string_view text, std::string* error);

MirrorResult mirror_tree(const std::string& from, const std::string& to, const std::vector<std::string>& exclude);

}  // namespace ts::run
