#include "build/ninja_log.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <tuple>
#include <unordered_map>

#include "util/fs.h"

namespace ts::build {
namespace {

constexpr std::string_view kHeader = "# ninja log v";

bool parse_int(std::string_view s, std::int64_t& v) {
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && p == s.data() + s.size();
}

// The version from a header line, or -1 when the line is not a header.
int header_version(std::string_view line) {
  if (line.substr(0, kHeader.size()) != kHeader) return -1;
  std::int64_t v = 0;
  return parse_int(line.substr(kHeader.size()), v) && v >= 0 && v < 1000 ? int(v) : -1;
}

std::string_view chomp(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

}  // namespace

bool parse_ninja_log_line(std::string_view line, NinjaLogEntry& out) {
  std::string_view f[5];
  std::size_t n = 0, pos = 0;
  while (n < 5) {
    std::size_t tab = line.find('\t', pos);
    if (n == 4) {
      if (tab != std::string_view::npos) return false;  // a sixth field: not a v4+ record
      f[n++] = line.substr(pos);
      break;
    }
    if (tab == std::string_view::npos) return false;
    f[n++] = line.substr(pos, tab - pos);
    pos = tab + 1;
  }
  NinjaLogEntry e;
  if (!parse_int(f[0], e.start_ms) || !parse_int(f[1], e.end_ms) || !parse_int(f[2], e.mtime)) return false;
  if (e.start_ms < 0 || e.end_ms < e.start_ms || f[3].empty() || f[4].empty()) return false;
  if (!std::all_of(f[4].begin(), f[4].end(), [](char c) { return std::isxdigit((unsigned char)c); }))
    return false;
  e.output = std::string(f[3]);
  e.hash = std::string(f[4]);
  out = std::move(e);
  return true;
}

NinjaLog parse_ninja_log(std::string_view text) {
  NinjaLog log;
  std::vector<NinjaLogEntry> all;
  std::int64_t last_end = -1;
  int run = 0;
  bool first = true;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) {
      ++log.skipped;  // no newline: a line cut short (ninja itself ignores it too)
      break;
    }
    std::string_view line = chomp(text.substr(pos, nl - pos));
    pos = nl + 1;
    if (int v = header_version(line); v >= 0) {
      if (first) log.version = v;
      else if (!all.empty()) ++run, last_end = -1;  // a second header: another log concatenated
      first = false;
      continue;
    }
    first = false;
    if (line.empty()) continue;
    ++log.lines;
    NinjaLogEntry e;
    if (!parse_ninja_log_line(line, e)) {
      ++log.skipped;
      continue;
    }
    if (last_end >= 0 && e.end_ms < last_end) ++run;
    last_end = e.end_ms;
    e.run = run;
    all.push_back(std::move(e));
  }
  if (log.version == 0 && all.empty()) {
    log.error = "not a .ninja_log: no '# ninja log vN' header and no record lines";
    return log;
  }
  if (log.version != 0 && log.version < 4) {
    log.error = "ninja log v" + std::to_string(log.version) +
                " is too old to read (v4 and later); ninja rewrites it on its next run";
    return log;
  }
  log.runs = all.empty() ? 0 : run + 1;
  // Keep the latest record of each output, in the order the records were written.
  std::unordered_map<std::string_view, std::size_t> latest;
  for (std::size_t i = 0; i < all.size(); ++i) latest[all[i].output] = i;
  for (std::size_t i = 0; i < all.size(); ++i)
    if (latest[all[i].output] == i) log.entries.push_back(all[i]);
  return log;
}

NinjaLog read_ninja_log(const std::string& path) {
  auto text = util::read_file(path);
  if (!text) {
    NinjaLog log;
    log.error = "cannot read " + path + " (missing or not readable): no per-target history";
    return log;
  }
  NinjaLog log = parse_ninja_log(*text);
  if (!log.ok()) log.error = path + ": " + log.error;
  return log;
}

std::vector<NinjaJob> NinjaLog::jobs(bool last_run_only) const {
  int newest = 0;
  for (const auto& e : entries) newest = std::max(newest, e.run);
  std::vector<NinjaJob> out;
  std::map<std::tuple<int, std::int64_t, std::int64_t, std::string_view>, std::size_t> index;
  for (const auto& e : entries) {
    if (last_run_only && e.run != newest) continue;
    auto key = std::make_tuple(e.run, e.start_ms, e.end_ms, std::string_view(e.hash));
    auto [it, fresh] = index.emplace(key, out.size());
    if (fresh) out.push_back(NinjaJob{e.start_ms, e.end_ms, e.run, {}});
    out[it->second].outputs.push_back(e.output);
  }
  std::stable_sort(out.begin(), out.end(), [](const NinjaJob& a, const NinjaJob& b) {
    return std::tie(a.run, a.start_ms, a.end_ms) < std::tie(b.run, b.start_ms, b.end_ms);
  });
  return out;
}

std::map<std::string, double> NinjaLog::durations() const {
  std::map<std::string, double> d;
  for (const auto& e : entries) d[e.output] = double(e.duration_ms()) / 1000.0;
  return d;
}

NinjaLogTail::NinjaLogTail(std::string path, std::uint64_t offset)
    : path_(std::move(path)), offset_(offset) {}

NinjaLogTail NinjaLogTail::at_end(std::string path) {
  struct stat st {};
  std::uint64_t size = ::stat(path.c_str(), &st) == 0 ? std::uint64_t(st.st_size) : 0;
  return NinjaLogTail(std::move(path), size);
}

std::vector<NinjaLogEntry> NinjaLogTail::poll() {
  std::vector<NinjaLogEntry> out;
  struct stat st {};
  if (::stat(path_.c_str(), &st) != 0) return out;
  std::uint64_t size = std::uint64_t(st.st_size);
  if (size < offset_) offset_ = 0, last_end_ = -1;  // recompacted or replaced: read it again
  if (size == offset_) return out;
  std::ifstream in(path_, std::ios::binary);
  if (!in) return out;
  in.seekg(std::streamoff(offset_));
  std::string chunk(size - offset_, '\0');
  in.read(chunk.data(), std::streamsize(chunk.size()));
  chunk.resize(std::size_t(in.gcount()));
  std::size_t pos = 0;
  for (std::size_t nl; (nl = chunk.find('\n', pos)) != std::string::npos; pos = nl + 1) {
    std::string_view line = chomp(std::string_view(chunk).substr(pos, nl - pos));
    if (line.empty() || header_version(line) >= 0) continue;
    NinjaLogEntry e;
    if (!parse_ninja_log_line(line, e)) {
      ++skipped_;
      continue;
    }
    if (last_end_ >= 0 && e.end_ms < last_end_) ++run_;
    last_end_ = e.end_ms;
    e.run = run_;
    out.push_back(std::move(e));
  }
  offset_ += pos;  // a partial last line is read again, whole, next time
  return out;
}

}  // namespace ts::build
