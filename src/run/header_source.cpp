#include "run/header_source.h"

#include <unistd.h>

#include <filesystem>

#include <re2/re2.h>

#include "provision/fetch_file.h"
#include "source/hash.h"
#include "source/journal.h"
#include "source/udiff.h"
#include "util/fs.h"

namespace ts::run {

namespace fs = std::filesystem;

std::string missing_include_in(const std::string& line) {
  static const RE2 gcc(R"(fatal error: ([^:\s]+): No such file or directory)");
  static const RE2 nvcc(R"re(cannot open source file "([^"]+)")re");
  std::string h;
  if (RE2::PartialMatch(line, gcc, &h) || RE2::PartialMatch(line, nvcc, &h)) return h;
  return "";
}

std::string missing_header_in(const std::string& line) {
  // "cuda/helper_math.h" names the same file of the folder
  return fs::path(missing_include_in(line)).filename().string();
}

namespace {

// One file into the cache: already there with its digest, else fetched into a staging name and
// renamed once checked. "" or why not.
std::string cache_file(const plan::HeaderSource& h, std::size_t i, const std::string& dir, const std::string& mirror,
                       std::string& from) {
  const std::string path = dir + "/" + h.headers[i];
  if (auto have = util::read_file(path); have && source::sha256_hex(*have) == h.sha256[i]) return "";
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return dir + ": cannot create (" + ec.message() + ")";
  provision::Mirror m{mirror.empty() ? "https://raw.githubusercontent.com" : mirror};
  const std::string rel = h.repository + "/" + h.commit + "/" + h.path + "/" + h.headers[i];
  const std::string staged = path + ".part-" + std::to_string(getpid());
  if (std::string e = m.fetch(rel, staged); !e.empty()) return e;
  auto got = util::read_file(staged);
  const std::string digest = got ? source::sha256_hex(*got) : "";
  if (digest != h.sha256[i]) {
    fs::remove(staged, ec);
    return m.where(rel) + ": sha256 " + (digest.empty() ? "(unreadable)" : digest) + ", the KB pins " + h.sha256[i] +
           " (" + h.source + ")";
  }
  fs::rename(staged, path, ec);
  if (ec) return path + ": cannot be written (" + ec.message() + ")";
  from = m.where(h.repository + "/" + h.commit + "/" + h.path);
  return "";
}

// The files into TREE/REL_DIR, each one the tree lacks journaled as created (the journal first, so an
// interrupted copy can still be reverted); one it has with the same bytes is left alone.
std::string copy_into_tree(const plan::HeaderSource& h, const std::string& cache, const std::string& tree,
                           const std::string& rel_dir, HeaderSourceResult& r) {
  source::Journal j;
  std::string err;
  if (!source::read_journal(tree, j, &err)) return err;
  std::vector<std::pair<std::string, std::string>> writes;
  for (std::size_t i = 0; i < h.headers.size(); ++i) {
    const std::string rel = rel_dir + "/" + h.headers[i];
    auto text = util::read_file(cache + "/" + h.headers[i]);
    if (!text) return cache + "/" + h.headers[i] + ": cannot be read";
    if (auto there = util::read_file(tree + "/" + rel)) {
      if (*there == *text) continue;
      return tree + "/" + rel + ": the tree already has another file there; not replaced";
    }
    if (!j.find(rel)) {
      source::JournalFile f;
      f.path = rel;
      f.original_sha256 = source::sha256_hex("");
      f.applied_sha256 = h.sha256[i];
      f.fixes = {"build.header-source"};
      f.created = true;
      j.files.push_back(f);
    }
    writes.emplace_back(rel, *text);
  }
  if (writes.empty()) return "";
  if (std::string e = source::write_journal(tree, j); !e.empty()) return e;
  std::error_code ec;
  fs::create_directories(tree + "/" + rel_dir, ec);
  if (ec) return tree + "/" + rel_dir + ": cannot create (" + ec.message() + ")";
  for (const auto& [rel, text] : writes) {
    if (std::string e = util::write_file_atomic(tree + "/" + rel, text); !e.empty()) return e;
    r.copied.push_back(rel);
    r.diff += source::unified_diff(rel, "", text);
  }
  return "";
}

}  // namespace

HeaderSourceResult provide_header_source(const plan::HeaderSource& h, const std::string& cache_root,
                                         const std::string& mirror, const std::string& tree, bool in_place) {
  HeaderSourceResult r;
  if (cache_root.empty()) {
    r.error = "no cache directory (set TORCHSMITH_CACHE or HOME) to keep " + h.repository + "'s " + h.path + " in";
    return r;
  }
  std::string owner_name = h.repository;
  owner_name.replace(owner_name.find('/'), 1, "+");
  const std::string cache = cache_root + "/header-sources/" + owner_name + "@" + h.commit + "/" + h.path;
  r.from = "the cache";
  for (std::size_t i = 0; i < h.headers.size() && i < h.sha256.size(); ++i)
    if (std::string e = cache_file(h, i, cache, mirror, r.from); !e.empty()) {
      r.error = e;
      return r;
    }
  if (in_place) {
    r.include_dir = cache;
    return r;
  }
  const std::string name = h.repository.substr(h.repository.find('/') + 1);
  const std::string rel_dir = std::string(kHeaderSourceDir) + "/" + name + "/" + h.path;
  r.error = copy_into_tree(h, cache, tree, rel_dir, r);
  r.include_dir = tree + "/" + rel_dir;
  return r;
}

}  // namespace ts::run
