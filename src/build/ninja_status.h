#pragma once
// Ninja's progress, made parseable: torchsmith sets NINJA_STATUS to kNinjaStatus and reads
// "[done/total rate/s elapsed] " back from each line ninja prints, giving progress and an ETA.
#include <optional>
#include <string>
#include <string_view>

namespace ts::build {

// %f finished, %t total, %o finished per second (overall), %e elapsed seconds. The "ts" tag keeps
// it apart from any bracketed text a compiler prints.
inline constexpr std::string_view kNinjaStatus = "[ts %f/%t %o/s %es] ";

struct NinjaProgress {
  long done = 0, total = 0;
  double rate = 0;     // edges finished per second, overall ("?" from ninja reads as 0)
  double elapsed = 0;  // seconds since ninja started
  std::string what;    // what the line says it runs, as compile_subject names it ("scatter_cpu.cpp")
  double fraction() const { return total > 0 ? double(done) / double(total) : 0; }
  // Seconds left at the overall rate; nullopt until something finished.
  std::optional<double> eta() const;
};

// The progress at the start of `line` (after ANSI codes ninja may print on a smart terminal);
// nullopt when the line is not a status line.
std::optional<NinjaProgress> parse_ninja_status(std::string_view line);

// What a build output line says is being made, in a few words: the source of a compiler command
// ("g++ ... -c /x/csrc/scatter_cpu.cpp -o ..." -> "scatter_cpu.cpp"), CMake's "Building CXX object
// a/b.cpp.o" -> "b.cpp", "Linking CXX shared library lib/libtorch.so" -> "linking libtorch.so";
// "" when it names none.
std::string compile_subject(std::string_view line);

// One extension's ninja when a package's extensions build side by side (run/pyshim): its
// "[ext done/total] " line, the extension named by its build_temp ("/ts-NAME/").
struct ExtensionProgress {
  std::string name;
  long done = 0, total = 0;
  std::string what;
};
std::optional<ExtensionProgress> parse_extension_status(std::string_view line);

}  // namespace ts::build
