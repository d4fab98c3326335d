#pragma once
// The Python-vs-torch rules: which Python a torch release builds with (rule id "python.target";
// "python.experimental" when its compatibility matrix marks that Python experimental) and which
// NumPy it compiles against ("numpy.target"). Doctor's verdicts and the torch planner ask them.
#include <string>

#include "core/host_facts.h"
#include "kb/kb.h"

namespace ts::compat {

inline constexpr const char* kPythonRule = "python.target";
inline constexpr const char* kPythonExperimentalRule = "python.experimental";
inline constexpr const char* kNumpyRule = "numpy.target";

// Whether torch release rel supports a Python of this version (its major.minor within
// rel.python); false when either cannot be read.
bool python_supported(const kb::TorchRelease& rel, const FactVersion& python_version);

// The NumPy installed in py against rel's NumPy range: missing, outside it, or within it (an
// unreadable version or range counts as within: the build will tell).
enum class NumpyFit { missing, outside, fits };
NumpyFit numpy_fit(const kb::TorchRelease& rel, const PythonFacts& py);

}  // namespace ts::compat
