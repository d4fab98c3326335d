#pragma once
// ninja's .ninja_log read natively: the per-target history behind the ETA, report.html's
// timeline and trace.json. Formats v4..v7 share one line layout (tab-separated
// "start_ms end_ms mtime output command_hash"); each ninja run appends its lines, so an output
// may appear several times and only its latest record counts. Bad lines are skipped and counted.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace ts::build {

struct NinjaLogEntry {
  std::int64_t start_ms = 0, end_ms = 0;  // since that ninja run started
  std::int64_t mtime = 0;                 // as ninja wrote it (its units vary by version)
  std::string output;
  std::string hash;  // the command's hash, as written
  int run = 0;       // which ninja run in the file wrote it (0 = the oldest)
  std::int64_t duration_ms() const { return end_ms - start_ms; }
};

// One command ninja ran: the entries of one edge share run, start, end and hash.
struct NinjaJob {
  std::int64_t start_ms = 0, end_ms = 0;
  int run = 0;
  std::vector<std::string> outputs;  // in log order
  std::int64_t duration_ms() const { return end_ms - start_ms; }
  const std::string& name() const { return outputs.front(); }
};

struct NinjaLog {
  int version = 0;                     // from "# ninja log vN"; 0 when the header was missing
  std::vector<NinjaLogEntry> entries;  // the latest record per output, in the order they were written
  int runs = 0;                        // ninja runs seen in the file
  std::size_t lines = 0;               // record lines read (header excluded)
  std::size_t skipped = 0;             // truncated or garbage lines, ignored
  std::string error;                   // why nothing could be read (missing file, not a ninja log)
  bool ok() const { return error.empty(); }

  // Jobs (entries grouped by edge), sorted by start then end. last_run_only keeps the
  // jobs of the newest run: one build's timeline, as ninjatracing shows it.
  std::vector<NinjaJob> jobs(bool last_run_only) const;
  // Seconds each output took, by output (the latest record of each).
  std::map<std::string, double> durations() const;
};

// Parses the text of a .ninja_log. A new run is recognised when an end time goes backwards
// (within one run ninja writes entries as jobs finish, so end times never decrease).
NinjaLog parse_ninja_log(std::string_view text);
// Reads and parses a file; a missing or unreadable file gives error set and no entries.
NinjaLog read_ninja_log(const std::string& path);

// Follows a .ninja_log while ninja appends to it: poll() returns the complete lines written
// since the last poll (a partial last line waits for its newline). Cheap enough for every tick.
class NinjaLogTail {
 public:
  // Starts at `offset` bytes: pass the file's size before ninja starts to see only the new run.
  explicit NinjaLogTail(std::string path, std::uint64_t offset = 0);
  static NinjaLogTail at_end(std::string path);  // from the file's current end
  std::vector<NinjaLogEntry> poll();
  std::size_t skipped() const { return skipped_; }

 private:
  std::string path_;
  std::uint64_t offset_ = 0;
  std::int64_t last_end_ = -1;
  int run_ = 0;
  std::size_t skipped_ = 0;
};

// One record line ("start\tend\tmtime\toutput\thash"), or false when it is not one.
bool parse_ninja_log_line(std::string_view line, NinjaLogEntry& out);

}  // namespace ts::build
