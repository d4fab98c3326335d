#include "run/mirror.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "util/fs.h"
#include "util/printable.h"
#include "util/safe_path.h"

namespace ts::run {

namespace fs = std::filesystem;

namespace {

// The copy's own record of what each file was copied from: (size, mtime) of the source file at
// copy time. A file is copied again when the source's differ, whatever the copy's own mtime (a
// restored older file is still a change); the copy gets the time of copying, so make and ninja
// rebuild what depends on it.
constexpr const char* kManifest = ".torchsmith/mirror.tsv";

using Stamp = MirrorStamp;

}  // namespace

// Names are bytes: each entry is "SIZE MTIME LEN:NAME\n", the name counted, never split on a tab
// or a newline a file name may hold (a name "x\n0\t0\t.." once read back as the entry "..").
std::string render_mirror_record(const std::map<std::string, Stamp>& m) {
  std::string text = std::string(kMirrorRecordHeader) + "\n";
  for (const auto& [rel, st] : m)
    text += std::to_string(st.size) + " " + std::to_string(st.mtime) + " " + std::to_string(rel.size()) + ":" + rel + "\n";
  return text;
}

std::optional<std::map<std::string, Stamp>> parse_mirror_record(std::string_view text, std::string* error) {
  auto fail = [&](const std::string& why) -> std::optional<std::map<std::string, Stamp>> {
    if (error) *error = std::string(kManifest) + ": " + why;
    return std::nullopt;
  };
  std::string_view head = std::string_view(kMirrorRecordHeader);
  if (text.substr(0, head.size() + 1) != std::string(head) + "\n") return fail("not a torchsmith mirror record");
  std::map<std::string, Stamp> m;
  std::size_t p = head.size() + 1;
  auto number = [&](char end, bool sign, long long& out) {
    std::size_t start = p;
    bool neg = sign && p < text.size() && text[p] == '-';
    if (neg) ++p;
    unsigned long long v = 0;
    std::size_t digits = 0;
    while (p < text.size() && text[p] >= '0' && text[p] <= '9' && digits < 19) v = v * 10 + (text[p++] - '0'), ++digits;
    if (digits == 0 || p >= text.size() || text[p] != end || v > 0x7fffffffffffffffULL) return (p = start, false);
    ++p;
    out = neg ? -static_cast<long long>(v) : static_cast<long long>(v);
    return true;
  };
  while (p < text.size()) {
    long long size = 0, mtime = 0, len = 0;
    if (!number(' ', false, size) || !number(' ', true, mtime) || !number(':', false, len))
      return fail("malformed entry at byte " + std::to_string(p));
    if (static_cast<unsigned long long>(len) > text.size() - p || p + len >= text.size() || text[p + len] != '\n')
      return fail("an entry's name runs past its length at byte " + std::to_string(p));
    std::string rel(text.substr(p, len));
    p += len + 1;
    // A name read back is input like any other: one path below the copy, or the record is refused.
    std::string why;
    if (!util::join_inside(".", rel, &why)) return fail(why);
    m[rel] = {static_cast<std::uintmax_t>(size), mtime};
  }
  return m;
}

namespace {

// nullopt when the copy has no record or a record that cannot be trusted: the copy is then
// compared whole (what the source lacks goes), which follows no record's word.
std::optional<std::map<std::string, Stamp>> read_manifest(const std::string& to) {
  auto text = util::read_file(to + "/" + kManifest);
  if (!text) return std::nullopt;
  return parse_mirror_record(*text, nullptr);
}

// True when no directory between `root` and `p` (exclusive) is a symlink: a deletion the record
// asks for never goes through a link the source put in the copy.
bool no_link_between(const fs::path& root, const fs::path& p) {
  fs::path at = root;
  auto rel = p.lexically_relative(root);
  for (auto it = rel.begin(); it != rel.end(); ++it) {
    if (std::next(it) == rel.end()) break;
    at /= *it;
    std::error_code ec;
    auto st = fs::symlink_status(at, ec);
    if (ec || fs::is_symlink(st) || !fs::is_directory(st)) return false;
  }
  return true;
}

// Top-level names the build writes into its copy: kept there, never taken from the source.
bool build_owned(const fs::path& rel) {
  std::string top = rel.begin()->string();
  return top == "build" || top == "dist" || top == "build-torchsmith" || top == ".torchsmith" || top == kOutMarker ||
         fs::path(top).extension() == ".egg-info";
}

bool inside(const fs::path& dir, const fs::path& root) {
  auto r = dir.lexically_relative(root);
  return !r.empty() && *r.begin() != "..";
}

// True when the link `p` names something that exists outside `root` (both real paths).
bool leads_out(const fs::path& p, const fs::path& root) {
  std::error_code ec;
  fs::path to = fs::canonical(p, ec);
  return !ec && to != root && !inside(to, root);
}

fs::path real(const std::string& p) {
  std::error_code ec;
  fs::path r = fs::weakly_canonical(fs::absolute(p, ec), ec);
  return ec ? fs::absolute(p).lexically_normal() : r;
}

}  // namespace

std::string write_out_marker(const std::string& out_dir) {
  return util::write_file_atomic(out_dir + "/" + kOutMarker, kOutMarkerText);
}

bool has_out_marker(const std::string& dir) {
  std::error_code ec;
  return fs::is_regular_file(fs::path(dir) / kOutMarker, ec);
}

namespace {

// One mirror's state: the copy's old record, and what the walk over the source saw and recorded.
struct Mirror {
  fs::path src, dst;
  std::vector<fs::path> excluded;
  bool had_manifest = false;
  std::map<std::string, Stamp> old, manifest;
  std::set<std::string> seen;  // source-relative paths present (files, links, directories)
  MirrorResult res;

  bool is_excluded(const fs::path& p) const {
    for (const auto& e : excluded)
      if (p == e || inside(p, e)) return true;
    return false;
  }
};

// "" or why the copy may not go where it would: into the tree itself, or around it.
std::string placement_problem(const Mirror& m) {
  if (m.dst == m.src || (inside(m.dst, m.src) && !m.is_excluded(m.dst)))
    return "the copy of " + m.src.string() + " would go to " + m.dst.string() +
           ", inside the tree itself; give an --out outside the source tree";
  if (inside(m.src, m.dst))
    return "the source " + m.src.string() + " is inside its copy's directory " + m.dst.string() +
           "; give an --out that does not contain the source tree";
  return "";
}

// New and changed files, links and directories copied from the source; false with m.res.error set.
bool copy_changes(Mirror& m) {
  MirrorResult& res = m.res;
  const fs::path& src = m.src;
  const fs::path& dst = m.dst;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(src, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    const fs::path& p = it->path();
    fs::path rel = p.lexically_relative(src);
    // The copy takes names a path check accepts (no control character): its record, the build
    // and its logs then never see a name that reads as something else.
    if (std::string why; !util::join_inside(dst.string(), rel.string(), &why)) {
      res.error = "the source holds a file whose name torchsmith will not copy: " + util::printable(rel.string()) +
                  " (a control character or an odd component in the name); rename or remove it, then build again";
      return false;
    }
    if (it.depth() == 0 && build_owned(rel)) {
      std::error_code e1;
      if (it->is_directory(e1)) it.disable_recursion_pending();
      continue;
    }
    fs::path dest = dst / rel;
    std::error_code e2;
    bool is_link = it->is_symlink(e2);
    // A link out of the tree (warp-rnnt's pytorch_binding/core.cu -> ../core.cu, a subdirectory
    // built alone) would dangle in the copy: the file it names is copied in its place.
    // (A directory out of the tree stays a link: copying it could copy a whole checkout.)
    if (is_link && leads_out(p, src) && it->is_regular_file(e2)) is_link = false;
    if (!is_link && it->is_directory(e2)) {
      // Outputs of torchsmith (ours or another run's) and tagged caches are not sources.
      if (m.is_excluded(p) || has_out_marker(p.string()) || fs::exists(p / "CACHEDIR.TAG", e2)) {
        res.skipped.push_back(rel.string());
        it.disable_recursion_pending();
        continue;
      }
      m.seen.insert(rel.string());
      if (fs::is_symlink(dest, e2) || (fs::exists(dest, e2) && !fs::is_directory(dest, e2))) fs::remove(dest, e2);
      fs::create_directories(dest, ec);
    } else if (is_link) {
      m.seen.insert(rel.string());
      m.manifest[rel.string()] = {0, -1};  // links: recorded so their deletion propagates
      fs::path target = fs::read_symlink(p, ec);
      if (!ec && !(fs::is_symlink(dest, e2) && fs::read_symlink(dest, e2) == target)) {
        fs::remove_all(dest, e2);
        fs::create_symlink(target, dest, ec);
      }
    } else if (it->is_regular_file(e2)) {
      m.seen.insert(rel.string());
      Stamp now{it->file_size(ec), std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        it->last_write_time(ec).time_since_epoch()).count()};
      if (ec) break;
      m.manifest[rel.string()] = now;
      auto was = m.old.find(rel.string());
      bool same = was != m.old.end() && was->second == now && fs::is_regular_file(dest, e2) && !fs::is_symlink(dest, e2);
      if (same) {
        ++res.unchanged;
        continue;
      }
      if (fs::is_symlink(dest, e2) || fs::is_directory(dest, e2)) fs::remove_all(dest, e2);
      fs::copy_file(p, dest, fs::copy_options::overwrite_existing, ec);
      ++res.copied;
    }
    if (ec) {
      res.error = "copying " + p.string() + ": " + ec.message();
      return false;
    }
  }
  if (ec) {
    res.error = "copying " + src.string() + ": " + ec.message();
    return false;
  }
  return true;
}

// Deletions: what an earlier mirror copied and the source no longer has. Files the build made
// inside the copy (__pycache__, a CMake build directory) are not the mirror's and stay. A copy
// from before the record existed is compared whole: what the source lacks goes (the build's
// top-level outputs excepted). False with m.res.error set when the copy cannot be read.
bool find_deleted(Mirror& m, std::vector<fs::path>& gone) {
  const fs::path& dst = m.dst;
  std::error_code ec;
  // A name the source still has (a file that became a directory) stays: it was copied above.
  for (const auto& [rel, st] : m.old)
    if (!m.manifest.count(rel) && !m.seen.count(rel) && !build_owned(fs::path(rel))) gone.push_back(dst / rel);
  for (auto it = m.had_manifest ? fs::recursive_directory_iterator() : fs::recursive_directory_iterator(dst, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    fs::path rel = it->path().lexically_relative(dst);
    std::error_code e1;
    if (it.depth() == 0 && build_owned(rel)) {
      if (it->is_directory(e1) && !it->is_symlink(e1)) it.disable_recursion_pending();
      continue;
    }
    if (m.seen.count(rel.string())) continue;
    gone.push_back(it->path());
    std::error_code e2;
    if (it->is_directory(e2) && !it->is_symlink(e2)) it.disable_recursion_pending();
  }
  if (ec) {
    m.res.error = "reading " + dst.string() + ": " + ec.message();
    return false;
  }
  return true;
}

// Links are removed as links, never followed, and never through a linked directory.
bool remove_deleted(Mirror& m, const std::vector<fs::path>& gone) {
  const fs::path& dst = m.dst;
  std::error_code ec;
  for (const auto& g : gone) {
    std::error_code e0;
    if (!no_link_between(dst, g) || !fs::exists(fs::symlink_status(g, e0))) continue;
    m.res.removed += fs::remove_all(g, ec);
    if (ec) {
      m.res.error = "removing " + g.string() + " (deleted from the source): " + ec.message();
      return false;
    }
    // Directories the deletion emptied, up to the copy's root, unless the source still has them.
    for (fs::path p = g.parent_path(); p != dst && inside(p, dst); p = p.parent_path()) {
      std::error_code e2;
      if (m.seen.count(p.lexically_relative(dst).string()) || !fs::is_empty(p, e2) || e2) break;
      fs::remove(p, e2);
    }
  }
  return true;
}

}  // namespace

MirrorResult mirror_tree(const std::string& from, const std::string& to, const std::vector<std::string>& exclude) {
  Mirror m;
  std::error_code ec;
  m.src = real(from);
  m.dst = real(to);
  for (const auto& e : exclude) m.excluded.push_back(real(e));
  if (std::string why = placement_problem(m); !why.empty()) {
    m.res.error = why;
    return m.res;
  }
  fs::create_directories(m.dst, ec);
  if (ec) {
    m.res.error = m.dst.string() + ": " + ec.message();
    return m.res;
  }
  auto record = read_manifest(m.dst.string());
  m.had_manifest = record.has_value();
  m.old = record.value_or(std::map<std::string, Stamp>{});
  if (!copy_changes(m)) return m.res;
  std::vector<fs::path> gone;
  if (!find_deleted(m, gone) || !remove_deleted(m, gone)) return m.res;

  std::string text = render_mirror_record(m.manifest);
  fs::create_directories(m.dst / ".torchsmith", ec);
  if (auto e = util::write_file_atomic((m.dst / kManifest).string(), text); !e.empty()) m.res.error = e;
  return m.res;
}

}  // namespace ts::run
