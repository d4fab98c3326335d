#pragma once
// The one way a name that came from input (a wheel's Tag: line, a --python version, an archive
// member, a dist name) becomes a path: joined under a base it can never leave. Absolute paths,
// '..' and '.' components, empty components (a//b) and control characters are refused, so a
// `../` in a WHEEL file or `--python 3.11/../../x` cannot write outside the output directory.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ts::util {

// "" when `name` may be one path component (no '/', not "", ".", "..", no NUL or control
// character); else why not, naming it.
std::string check_path_component(std::string_view name);

// base/rel when rel is a relative path whose every component passes check_path_component;
// nullopt and *error (naming rel) otherwise. `rel` may have several components ("a/b/c.so").
std::optional<std::string> join_inside(const std::string& base, std::string_view rel, std::string* error = nullptr);
// base/c1/c2/...: each argument must be exactly one component.
std::optional<std::string> join_components(const std::string& base, const std::vector<std::string>& components,
                                           std::string* error = nullptr);

// A directory the build compiles in (--out, a source tree) reaches files other tools write without
// quoting: torch's build.ninja (ninja reads '$' as a variable, '|' and ':' as separators, and runs
// its commands through sh), CMake lists (';'), PATH and PYTHONPATH (':'). "" when `path` holds none
// of those characters, else a sentence naming the first one and the characters to avoid.
std::string build_path_problem(std::string_view path);

// A path handed to a tool that has no `--` (patchelf): "./-x" for "-x", so it is never an option.
std::string as_operand(const std::string& path);

}  // namespace ts::util
