#pragma once
// The script verify runs in the Python under test (`python -c SCRIPT ARGS_JSON`). It reports raw
// facts, one marker line per step, flushed as it goes, so a step that hangs or crashes is known by
// name; every judgement is made in C++ (python_compare.h).
namespace ts::verify {

// Each step prints "@@torchsmith {"kind":"begin","step":NAME}" before it runs and
// "@@torchsmith {"kind":"end","step":NAME,"ok":true,"value":...}" (or "ok":false,"error":TEXT)
// after; the last line is {"kind":"done"}. Everything else torch prints goes to stderr.
// ARGS_JSON: {"import_name": "", "smoke": "", "modules": [], "gpu": false}.
const char* python_check_script();

inline constexpr const char* kMarker = "@@torchsmith ";

}  // namespace ts::verify
