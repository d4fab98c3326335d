#include "formats/tar_extract.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <vector>

#include "formats/bzip_stream.h"
#include "formats/tar_reader.h"
#include "formats/xz_stream.h"
#include "formats/zstd_stream.h"
#include "util/safe_path.h"

namespace ts::formats {

namespace fs = std::filesystem;

namespace {

// "./bin/nvcc" and "include/" as archives write them: the relative path without "./" or a trailing '/'.
std::string clean_name(std::string n) {
  while (n.rfind("./", 0) == 0) n.erase(0, 2);
  while (!n.empty() && n.back() == '/') n.pop_back();
  return n;
}

std::vector<std::string> components(const std::string& rel) {
  std::vector<std::string> out;
  for (std::size_t a = 0, b; a <= rel.size(); a = b + 1) {
    b = rel.find('/', a);
    if (b == std::string::npos) b = rel.size();
    out.push_back(rel.substr(a, b - a));
  }
  return out;
}

bool is_link(const fs::path& p) {
  std::error_code ec;
  return fs::symlink_status(p, ec).type() == fs::file_type::symlink;
}

// The parents of `rel` under `root` made as real directories; "" or why not (one of them a link).
std::string make_parents(const fs::path& root, const std::string& rel) {
  auto parts = components(rel);
  fs::path at = root;
  std::error_code ec;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    at /= parts[i];
    auto st = fs::symlink_status(at, ec);
    if (st.type() == fs::file_type::symlink) return "'" + rel + "' would be written through the link " + parts[i];
    if (st.type() == fs::file_type::directory) continue;
    if (fs::exists(st)) return "'" + rel + "': " + parts[i] + " is a file, not a directory";
    if (!fs::create_directory(at, ec) && ec) return "cannot create " + at.string() + ": " + ec.message();
  }
  return "";
}

// A link's target, walked from the link's directory: relative, never above the tree, never through
// another link (whose own target could lead anywhere). "" or why not.
std::string check_link(const fs::path& root, const std::string& rel, const std::string& target) {
  if (target.empty() || target[0] == '/') return "the link '" + rel + "' points at an absolute path (" + target + ")";
  auto here = components(rel);
  here.pop_back();  // the link's directory
  auto parts = components(target);
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const auto& p = parts[i];
    if (p.empty() || p == ".") continue;
    if (p == "..") {
      if (here.empty()) return "the link '" + rel + "' points out of the tree (" + target + ")";
      here.pop_back();
      continue;
    }
    here.push_back(p);
    if (i + 1 < parts.size()) {
      fs::path at = root;
      for (const auto& h : here) at /= h;
      if (is_link(at)) return "the link '" + rel + "' points through another link (" + target + ")";
    }
  }
  return "";
}

}  // namespace

std::string extract_tar(ByteSource& in, const std::string& dir, const TarLimits& limits) {
  std::error_code ec;
  fs::path root(dir);
  fs::create_directories(root, ec);
  if (ec) return "cannot create " + dir + ": " + ec.message();
  TarReader tar(in);
  TarMember m;
  std::uint64_t entries = 0, total = 0;
  std::vector<std::pair<std::string, std::string>> links;
  std::vector<char> buf(1 << 16);
  while (tar.next(m)) {
    if (++entries > limits.max_entries) return "more than " + std::to_string(limits.max_entries) + " members";
    std::string rel = clean_name(m.name);
    if (rel.empty() && m.type == '5') continue;  // "./" itself
    std::string err;
    auto path = util::join_inside(dir, rel, &err);
    if (!path) return "member '" + m.name + "': " + err;
    if (auto e = make_parents(root, rel); !e.empty()) return e;
    if (m.type == '5') {
      auto st = fs::symlink_status(*path, ec);
      if (st.type() == fs::file_type::directory) continue;
      if (fs::exists(st)) return "'" + rel + "' is both a directory and something else";
      fs::create_directory(*path, ec);
      if (ec) return "cannot create " + *path + ": " + ec.message();
      continue;
    }
    if (m.type == '2') {
      if (fs::exists(fs::symlink_status(*path, ec))) return "'" + rel + "' appears twice (a link over an existing member)";
      fs::create_symlink(m.link, *path, ec);
      if (ec) return "cannot link " + *path + ": " + ec.message();
      links.emplace_back(rel, m.link);
      continue;
    }
    if (m.type != '0' && m.type != '7')
      return "member '" + m.name + "': type '" + std::string(1, m.type) +
             "' (a hard link, device or fifo) is not taken from an archive";
    if (m.size > limits.max_member_size) return "member '" + m.name + "' is larger than " + std::to_string(limits.max_member_size) + " bytes";
    total += m.size;
    if (total > limits.max_total_size) return "the members together pass " + std::to_string(limits.max_total_size) + " bytes";
    // O_NOFOLLOW: a link of the same name planted earlier is never written through.
    int fd = ::open(path->c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, (m.mode & 0111) ? 0755 : 0644);
    if (fd < 0) return "cannot write " + *path + ": " + std::strerror(errno);
    std::uint64_t left = m.size;
    while (left) {
      std::size_t got = tar.read_some(buf.data(), buf.size());
      if (got == 0) break;
      for (std::size_t off = 0; off < got;) {
        ssize_t w = ::write(fd, buf.data() + off, got - off);
        if (w < 0) {
          std::string e = std::strerror(errno);
          ::close(fd);
          return "cannot write " + *path + ": " + e;
        }
        off += static_cast<std::size_t>(w);
      }
      left -= got;
    }
    if (::close(fd) != 0) return "cannot write " + *path + ": " + std::strerror(errno);
    if (left) return "member '" + m.name + "': " + (tar.error().empty() ? "the archive ends early (truncated file)" : tar.error());
  }
  if (!tar.error().empty()) return tar.error();
  // Links are judged once every member is there: one added later could redirect an earlier one.
  for (const auto& [rel, target] : links)
    if (auto e = check_link(root, rel, target); !e.empty()) return e;
  return "";
}

std::string extract_tar_file(const std::string& path, const std::string& dir, const TarLimits& limits) {
  auto ends = [&](const char* s) {
    std::string e(s);
    return path.size() > e.size() && path.compare(path.size() - e.size(), e.size(), e) == 0;
  };
  FileSource file(path);
  if (!file.ok()) return file.error();
  std::unique_ptr<ByteSource> filter;
  if (ends(".tar.xz") || ends(".txz")) filter = std::make_unique<XzSource>(file);
  else if (ends(".tar.bz2")) filter = std::make_unique<Bzip2Source>(file);
  else if (ends(".tar.zst")) filter = std::make_unique<ZstdSource>(file);
  else if (!ends(".tar")) return path + ": not a .tar, .tar.xz, .tar.bz2 or .tar.zst archive";
  return extract_tar(filter ? *filter : static_cast<ByteSource&>(file), dir, limits);
}

}  // namespace ts::formats
