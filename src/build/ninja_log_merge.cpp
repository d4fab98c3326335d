#include "build/ninja_log_merge.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <optional>

namespace ts::build {

namespace fs = std::filesystem;

std::vector<std::string> find_ninja_logs(const std::string& root, int max_depth) {
  std::vector<std::string> out;
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return out;
  fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    if (it.depth() >= max_depth) it.disable_recursion_pending();
    if (it->path().filename() == ".ninja_log" && it->is_regular_file(ec)) out.push_back(it->path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

namespace {

// Milliseconds since the epoch at which this ninja run started: the median over its outputs of
// (their mtime - their end_ms); nullopt when none is left on disk.
std::optional<std::int64_t> run_start(const std::string& dir, const std::vector<NinjaLogEntry>& entries) {
  std::vector<std::int64_t> starts;
  for (const auto& e : entries) {
    struct stat st {};
    std::string p = e.output.rfind('/', 0) == 0 ? e.output : dir + "/" + e.output;
    if (::stat(p.c_str(), &st) != 0) continue;
    std::int64_t mtime_ms = std::int64_t(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1000000;
    starts.push_back(mtime_ms - e.end_ms);
  }
  if (starts.empty()) return std::nullopt;
  std::nth_element(starts.begin(), starts.begin() + starts.size() / 2, starts.end());
  return starts[starts.size() / 2];
}

// An output as the merged log names it: under root, relative to it (cpp_extension's ninja writes
// absolute paths); otherwise its log's directory first.
std::string named(const std::string& root, const std::string& prefix, const std::string& output) {
  if (output.rfind('/', 0) != 0) return prefix + output;
  std::string rel = fs::path(output).lexically_relative(root).string();
  return rel.empty() || rel.rfind("..", 0) == 0 ? output : rel;
}

}  // namespace

MergedNinjaLog merge_ninja_logs(const std::string& root, const std::vector<std::string>& logs) {
  MergedNinjaLog m;
  m.log.version = 5;
  struct Placed {
    std::string prefix;
    std::vector<NinjaLogEntry> entries;
    std::optional<std::int64_t> start;
  };
  std::vector<Placed> placed;
  for (const auto& path : logs) {
    NinjaLog one = read_ninja_log(path);
    if (!one.ok()) {
      m.notes.push_back(path + ": " + one.error);
      continue;
    }
    m.log.skipped += one.skipped;
    std::string dir = fs::path(path).parent_path().string();
    std::string prefix = fs::path(dir).lexically_relative(root).string();
    if (prefix.find_first_of("\t\n") != std::string::npos) {
      m.notes.push_back(path + ": its directory's name holds a tab or a newline, which a ninja log line cannot");
      continue;
    }
    Placed p{prefix == "." || prefix.empty() ? "" : prefix + "/", {}, std::nullopt};
    for (const auto& e : one.entries)
      if (e.run == one.runs - 1) p.entries.push_back(e);  // the newest run: this build's
    if (p.entries.empty()) continue;
    p.start = run_start(dir, p.entries);
    if (!p.start) m.notes.push_back(path + ": none of its outputs is on disk, so its jobs are drawn from the start");
    placed.push_back(std::move(p));
  }
  std::int64_t base = std::numeric_limits<std::int64_t>::max();
  for (const auto& p : placed)
    if (p.start) base = std::min(base, *p.start);
  if (base == std::numeric_limits<std::int64_t>::max()) base = 0;
  for (auto& p : placed) {
    std::int64_t shift = p.start ? std::max<std::int64_t>(*p.start - base, 0) : 0;
    for (auto& e : p.entries) {
      e.start_ms += shift;
      e.end_ms += shift;
      e.output = named(root, p.prefix, e.output);
      e.run = 0;
      m.log.entries.push_back(std::move(e));
      ++m.log.lines;
    }
  }
  // Written as ninja writes: in the order jobs ended.
  std::stable_sort(m.log.entries.begin(), m.log.entries.end(),
                   [](const NinjaLogEntry& a, const NinjaLogEntry& b) { return a.end_ms < b.end_ms; });
  m.log.runs = m.log.entries.empty() ? 0 : 1;
  return m;
}

std::string ninja_log_text(const NinjaLog& log) {
  std::string s = "# ninja log v5\n";
  for (const auto& e : log.entries)
    s += std::to_string(e.start_ms) + "\t" + std::to_string(e.end_ms) + "\t" + std::to_string(e.mtime) + "\t" + e.output +
         "\t" + e.hash + "\n";
  return s;
}

}  // namespace ts::build
