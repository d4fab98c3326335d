#pragma once
// An undefined symbol read for what it says about the build that referenced it: demangled
// in-process (abi::__cxa_demangle), then attributed by its parts. The rules are mechanisms (a
// namespace, a string type, a library's entry-point prefix), not facts about one release. The
// reading's `cause` is the one place a symbol's kind is turned into a root cause; rank.cpp and the
// entity rules (entity.cpp) both ask it.
#include <string>
#include <string_view>

namespace ts::triage {

struct SymbolReading {
  enum class Origin { torch, cuda_library, cuda_driver, lapack, other };
  std::string mangled, demangled;  // demangled: empty when it is not a C++ name
  Origin origin = Origin::other;
  bool new_abi_string = false;     // std::__cxx11::basic_string: compiled with _GLIBCXX_USE_CXX11_ABI=1
  bool old_abi_string = false;     // std::string of the old ABI (mangled Ss): compiled with _GLIBCXX_USE_CXX11_ABI=0
  std::string library;             // for cuda_library: "cuBLAS", "cuDNN", ...
  std::string rule;                // what was reasoned, one sentence for the answer
  std::string cause;               // the signature the reading decides ("" when it decides none)
};

SymbolReading read_symbol(std::string_view symbol);

}  // namespace ts::triage
