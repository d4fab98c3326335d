#pragma once
// The script verify runs in the Python under test (`python -c SCRIPT ARGS_JSON`). It reports raw
// facts, one marker line per step, flushed as it goes, so a step that hangs or crashes is known by
// name; every judgement is made in C++ (python_compare.h). The script is python_script/check.py,
// embedded at build time (CMakeLists.txt, as the KB and the build helper are): Python 3.6+ (no
// walrus, no f-string '='), importing only the standard library before torch. Its first line is
// blank and its second `import sys, ...`: tests know the checker's process by that command line.
#include <string_view>

namespace ts::verify {

// Each step prints "@@torchsmith {"kind":"begin","step":NAME}" before it runs and
// "@@torchsmith {"kind":"end","step":NAME,"ok":true,"value":...}" (or "ok":false,"error":TEXT)
// after; the last line is {"kind":"done"}. Everything else torch prints goes to stderr.
// ARGS_JSON: {"import_name": "", "smoke": "", "modules": [], "gpu": false}.
std::string_view python_check_script();

inline constexpr const char* kMarker = "@@torchsmith ";

}  // namespace ts::verify
