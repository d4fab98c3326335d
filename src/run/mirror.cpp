#include "run/mirror.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "util/fs.h"

namespace ts::run {

namespace fs = std::filesystem;

namespace {

// The copy's own record of what each file was copied from: (size, mtime) of the source file at
// copy time. A file is copied again when the source's differ, whatever the copy's own mtime (a
// restored older file is still a change); the copy gets the time of copying, so make and ninja
// rebuild what depends on it.
constexpr const char* kManifest = ".torchsmith/mirror.tsv";

struct Stamp {
  std::uintmax_t size = 0;
  long long mtime = 0;
  bool operator==(const Stamp&) const = default;
};

std::map<std::string, Stamp> read_manifest(const std::string& to) {
  std::map<std::string, Stamp> m;
  auto text = util::read_file(to + "/" + kManifest);
  if (!text) return m;
  std::istringstream in(*text);
  std::string line;
  while (std::getline(in, line)) {
    auto t1 = line.find('\t');
    auto t2 = t1 == std::string::npos ? t1 : line.find('\t', t1 + 1);
    if (t2 == std::string::npos) continue;
    try {
      m[line.substr(t2 + 1)] = {std::stoull(line.substr(0, t1)), std::stoll(line.substr(t1 + 1, t2 - t1 - 1))};
    } catch (const std::exception&) {
    }
  }
  return m;
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

fs::path real(const std::string& p) {
  std::error_code ec;
  fs::path r = fs::weakly_canonical(fs::absolute(p, ec), ec);
  return ec ? fs::absolute(p).lexically_normal() : r;
}

}  // namespace

std::string write_out_marker(const std::string& out_dir) {
  return util::write_file_atomic(out_dir + "/" + kOutMarker,
                                 "A torchsmith build output (torchsmith build --out). `torchsmith clean` may remove "
                                 "this directory; source copies leave it out.\n");
}

bool has_out_marker(const std::string& dir) {
  std::error_code ec;
  return fs::is_regular_file(fs::path(dir) / kOutMarker, ec);
}

MirrorResult mirror_tree(const std::string& from, const std::string& to, const std::vector<std::string>& exclude) {
  MirrorResult res;
  std::error_code ec;
  const fs::path src = real(from), dst = real(to);
  std::vector<fs::path> excluded;
  for (const auto& e : exclude) excluded.push_back(real(e));
  auto is_excluded = [&](const fs::path& p) {
    for (const auto& e : excluded)
      if (p == e || inside(p, e)) return true;
    return false;
  };
  if (dst == src || (inside(dst, src) && !is_excluded(dst))) {
    res.error = "the copy of " + src.string() + " would go to " + dst.string() +
                ", inside the tree itself; give an --out outside the source tree";
    return res;
  }
  if (inside(src, dst)) {
    res.error = "the source " + src.string() + " is inside its copy's directory " + dst.string() +
                "; give an --out that does not contain the source tree";
    return res;
  }
  fs::create_directories(dst, ec);
  if (ec) {
    res.error = dst.string() + ": " + ec.message();
    return res;
  }
  const bool had_manifest = fs::exists(dst / kManifest, ec);
  auto old = read_manifest(dst.string());
  std::map<std::string, Stamp> manifest;
  std::set<std::string> seen;  // source-relative paths present (files, links, directories)

  for (auto it = fs::recursive_directory_iterator(src, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    const fs::path& p = it->path();
    fs::path rel = p.lexically_relative(src);
    if (it.depth() == 0 && build_owned(rel)) {
      std::error_code e1;
      if (it->is_directory(e1)) it.disable_recursion_pending();
      continue;
    }
    fs::path dest = dst / rel;
    std::error_code e2;
    bool is_link = it->is_symlink(e2);
    if (!is_link && it->is_directory(e2)) {
      // Outputs of torchsmith (ours or another run's) and tagged caches are not sources.
      if (is_excluded(p) || has_out_marker(p.string()) || fs::exists(p / "CACHEDIR.TAG", e2)) {
        res.skipped.push_back(rel.string());
        it.disable_recursion_pending();
        continue;
      }
      seen.insert(rel.string());
      if (fs::is_symlink(dest, e2) || (fs::exists(dest, e2) && !fs::is_directory(dest, e2))) fs::remove(dest, e2);
      fs::create_directories(dest, ec);
    } else if (is_link) {
      seen.insert(rel.string());
      manifest[rel.string()] = {0, -1};  // links: recorded so their deletion propagates
      fs::path target = fs::read_symlink(p, ec);
      if (!ec && !(fs::is_symlink(dest, e2) && fs::read_symlink(dest, e2) == target)) {
        fs::remove_all(dest, e2);
        fs::create_symlink(target, dest, ec);
      }
    } else if (it->is_regular_file(e2)) {
      seen.insert(rel.string());
      Stamp now{it->file_size(ec), std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        it->last_write_time(ec).time_since_epoch()).count()};
      if (ec) break;
      manifest[rel.string()] = now;
      auto was = old.find(rel.string());
      bool same = was != old.end() && was->second == now && fs::is_regular_file(dest, e2) && !fs::is_symlink(dest, e2);
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
      return res;
    }
  }
  if (ec) {
    res.error = "copying " + src.string() + ": " + ec.message();
    return res;
  }

  // Deletions: what an earlier mirror copied and the source no longer has. Files the build made
  // inside the copy (__pycache__, a CMake build directory) are not the mirror's and stay. A copy
  // from before the record existed is compared whole: what the source lacks goes (the build's
  // top-level outputs excepted). Links are removed as links, never followed.
  std::vector<fs::path> gone;
  for (const auto& [rel, st] : old)
    if (had_manifest && !manifest.count(rel) && !build_owned(fs::path(rel))) gone.push_back(dst / rel);
  for (auto it = had_manifest ? fs::recursive_directory_iterator() : fs::recursive_directory_iterator(dst, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    fs::path rel = it->path().lexically_relative(dst);
    std::error_code e1;
    if (it.depth() == 0 && build_owned(rel)) {
      if (it->is_directory(e1) && !it->is_symlink(e1)) it.disable_recursion_pending();
      continue;
    }
    if (seen.count(rel.string())) continue;
    gone.push_back(it->path());
    std::error_code e2;
    if (it->is_directory(e2) && !it->is_symlink(e2)) it.disable_recursion_pending();
  }
  if (ec) {
    res.error = "reading " + dst.string() + ": " + ec.message();
    return res;
  }
  for (const auto& g : gone) {
    std::error_code e0;
    if (!fs::exists(fs::symlink_status(g, e0))) continue;
    res.removed += fs::remove_all(g, ec);
    if (ec) {
      res.error = "removing " + g.string() + " (deleted from the source): " + ec.message();
      return res;
    }
    // Directories the deletion emptied, up to the copy's root, unless the source still has them.
    for (fs::path p = g.parent_path(); p != dst && inside(p, dst); p = p.parent_path()) {
      std::error_code e2;
      if (seen.count(p.lexically_relative(dst).string()) || !fs::is_empty(p, e2) || e2) break;
      fs::remove(p, e2);
    }
  }

  std::string text;
  for (const auto& [rel, st] : manifest) text += std::to_string(st.size) + "\t" + std::to_string(st.mtime) + "\t" + rel + "\n";
  fs::create_directories(dst / ".torchsmith", ec);
  if (auto e = util::write_file_atomic((dst / kManifest).string(), text); !e.empty()) res.error = e;
  return res;
}

}  // namespace ts::run
