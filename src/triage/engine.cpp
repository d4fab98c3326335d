#include "triage/engine.h"

#include <stdexcept>

namespace ts::triage {
namespace {

// Structural markers: how compilers, CMake and Python start an error. Mechanism, not knowledge
// about a failure, so they live in code.
struct MarkerPattern { Marker m; const char* re; };
constexpr MarkerPattern kMarkers[] = {
    // "^\s*": pip indents a build's output (two spaces with -v, six in its failure dump).
    {Marker::failed_target, R"(^\s*FAILED: )"},
    // Spelled as separate literals of 8+ bytes: an optional group would leave RE2's prefilter
    // only "error", and short literals shorten the prefilter's stride.
    {Marker::compiler_error, R"(: error:)"},                      // gcc, clang, ld
    {Marker::compiler_error, R"(: error [A-Z]+[0-9]+\s*:)"},      // MSVC: "x.cpp(3): error C2065:"
    {Marker::compiler_error, R"(: fatal error(?: [A-Z]+[0-9]+)?\s*:)"},
    {Marker::compiler_error, R"(^\s*fatal error(?: [A-Z]+[0-9]+)?\s*:)"},  // excerpt without the file
    {Marker::compiler_error, R"(\([0-9]+\): error)"},             // nvcc front end
    {Marker::compiler_error, R"(\([0-9]+\): catastrophic error)"},
    {Marker::compiler_error, R"(^\s*nvcc fatal\s*:)"},
    {Marker::compiler_error, R"(^\s*(?:ptxas|nvlink) (?:fatal|error)\s*:)"},
    {Marker::cmake_error, R"(^\s*CMake Error)"},
    {Marker::traceback, R"(^\s*Traceback \(most recent call last\):)"},
    // Literals of 7+ bytes each ("error: ", "exception: ", "cuda error"), for the prefilter's stride.
    {Marker::failure_line, R"(^\s*error: )"},
    {Marker::failure_line, R"(^\s*ERROR: )"},
    {Marker::failure_line, R"(^\s*error (?:C|LNK|D)[0-9]+\s*:)"},  // MSVC without a file name
    {Marker::failure_line, R"(^\s*(?:[A-Za-z_][\w.]*\.)?[A-Z]\w*(?:Error|Exception): )"},  // Python
    {Marker::failure_line, R"(^\s*(?:Illegal instruction|Segmentation fault|Bus error) \(core dumped\))"},
    // An uncaught C++ exception: libstdc++'s two lines (a log cut after the first keeps the second)
    // and libc++'s one (old and new wording).
    {Marker::failure_line, R"(^\s*terminate called after throwing an instance of )"},
    {Marker::failure_line, R"(^\s*what\(\):  )"},
    {Marker::failure_line, R"(libc\+\+abi(?:\.dylib)?: terminating (?:with|due to) uncaught exception )"},
    {Marker::failure_line, R"(\b(?:CUDA|HIP|cuDNN|rocBLAS|NCCL) [Ee]rror\b)"},
    // A CUDA runtime call's status as the CUDA samples print it (deviceQuery: "cudaGetDeviceCount
    // returned 3"), any call and any code.
    {Marker::failure_line, R"(\b(?:cuda|cu|hip)[A-Z]\w* returned [0-9]+\b)"},
    {Marker::failure_line, R"(\bld: cannot find )"},
    {Marker::failure_line, R"(undefined reference to )"},
};

RE2::Options options() {
  RE2::Options o;
  o.set_encoding(RE2::Options::EncodingLatin1);
  o.set_log_errors(false);
  o.set_max_mem(64 << 20);
  return o;
}

}  // namespace

Engine::Engine(SignatureSet set) : set_(std::move(set)) {
  re_set_ = std::make_unique<RE2::Set>(options(), RE2::UNANCHORED);
  std::vector<std::string> all;
  auto add = [&](const std::string& p, PatternRef ref) {
    std::string err;
    if (re_set_->Add(p, &err) < 0) throw std::runtime_error("pattern does not compile: " + p + ": " + err);
    regexes_.push_back(std::make_unique<RE2>(p, options()));
    refs_.push_back(ref);
    all.push_back(p);
  };
  for (int i = 0; i < static_cast<int>(set_.signatures.size()); ++i)
    for (const auto& p : set_.signatures[i].patterns) add(p, {PatternRef::signature, i});
  for (int i = 0; i < static_cast<int>(set_.log_facts.size()); ++i)
    for (const auto& p : set_.log_facts[i].patterns) add(p, {PatternRef::log_fact, i});
  for (const auto& m : kMarkers) add(m.re, {PatternRef::marker, static_cast<int>(m.m)});
  if (!re_set_->Compile()) throw std::runtime_error("RE2::Set: out of memory compiling the patterns");
  prefilter_.build(all);
}

}  // namespace ts::triage
