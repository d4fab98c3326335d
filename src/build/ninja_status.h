#pragma once
// Ninja's progress, made parseable: torchsmith sets NINJA_STATUS to kNinjaStatus and reads
// "[done/total rate/s elapsed] " back from each line ninja prints, giving progress and an ETA.
#include <optional>
#include <string_view>

namespace ts::build {

// %f finished, %t total, %o finished per second (overall), %e elapsed seconds. The "ts" tag keeps
// it apart from any bracketed text a compiler prints.
inline constexpr std::string_view kNinjaStatus = "[ts %f/%t %o/s %es] ";

struct NinjaProgress {
  long done = 0, total = 0;
  double rate = 0;     // edges finished per second, overall ("?" from ninja reads as 0)
  double elapsed = 0;  // seconds since ninja started
  double fraction() const { return total > 0 ? double(done) / double(total) : 0; }
  // Seconds left at the overall rate; nullopt until something finished.
  std::optional<double> eta() const;
};

// The progress at the start of `line` (after ANSI codes ninja may print on a smart terminal);
// nullopt when the line is not a status line.
std::optional<NinjaProgress> parse_ninja_status(std::string_view line);

}  // namespace ts::build
