#pragma once
// `torchsmith completions bash|zsh|fish`: a completion script made from the commands and options
// registered on the app, so it cannot drift from them.
#include <string>

#include <CLI/CLI.hpp>

namespace ts::cli {

// The script for shell ("bash", "zsh", "fish"); "" for another shell.
std::string completion_script(const CLI::App& app, const std::string& shell);

}  // namespace ts::cli
