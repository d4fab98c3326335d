#pragma once
// Failure grammars: how each tool prints the line that says it failed (a Python exception in any
// framing, a resolver's verdict, LLVM's fatal error, a signal, CMake, ninja/make, MSBuild/MSVC,
// nvcc/ptxas, Triton, the CUDA/HIP runtime). The engine compiles every grammar into its marker set
// (engine.h), so a log holding any such line never reads "no error found"; read_failure_line says
// which tool and phase a line belongs to and which entities (module, header, symbol, library,
// arch, version, path, package, PTX ISA) it names, for the answer and for the entity rules (entity.h).
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ts::triage {

// Which structural fallback a grammar line feeds (scanner.h): the order the scanner prefers them.
// frame_raise: a traceback frame's `raise` source line, a failure only right under its `File "..."` line and only
// until a failure line of another grammar comes (a traceback quoted without its exception line); never alone.
enum class Marker { failed_target, compiler_error, cmake_error, traceback, failure_line, frame_raise };
inline constexpr std::size_t kMarkerCount = 6;

struct Grammar {
  Marker marker;
  const char* tool;   // "python", "pytest", "pip", "uv", "conda", "llvm", "signal", "cmake", ...
  const char* phase;  // "resolve", "configure", "compile", "link", "import", "runtime", "any"
  const char* re;     // RE2, Latin-1; its necessary literals should be 6+ bytes (prefilter.h)
  // The cause every failure line of this grammar means, for a failure no signature read: a tool whose
  // failure report has one cause (bitsandbytes' CUDA setup: its native library did not load). Else null.
  const char* signature = nullptr;
};

// Every grammar, in the order read_failure_line tries them (the specific before the generic).
std::span<const Grammar> grammars();

struct Entity {
  std::string kind;   // "module", "header", "symbol", "identifier" (a name a compiler found undeclared), "library", "arch", "version", "path", "package", "program",
                      // "dependency" (what a build's finder could not find: "CUDNN", "Torch"),
                      // "torch_installed" (the torch a line says the environment has),
                      // "ptx_isa" / "ptx_isa_known" (a PTX file's ISA, the newest its reader knows)
                      // "arch_needed" (the oldest arch that has an instruction ptxas refused for the GPU)
  std::string value;
};

struct FailureLine {
  const Grammar* grammar = nullptr;
  std::vector<Entity> entities;
};

// The grammar a (sanitised, line.h) line is a failure line of, with the entities it names; nullopt
// when it is none (a frame's `raise` line is none on its own: its frame above makes it one, scanner.h). For tests, the corpus check and the answer's notes: not on the scan's hot path.
std::optional<FailureLine> read_failure_line(std::string_view line);

// The entities one line names, whatever the grammar (the evidence of a finding).
std::vector<Entity> entities_of(std::string_view line);

}  // namespace ts::triage
