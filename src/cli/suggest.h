#pragma once
// "Did you mean": the nearest command or option to a mistyped one, by edit distance.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace ts::cli {

// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
// neighbours each cost 1 ("doctr" -> "doctor" 1, "chekc" -> "check" 1).
std::size_t edit_distance(const std::string& a, const std::string& b);

// The candidate nearest to word when it is near enough to be a typo (at most a third of its
// length, at least 1, away), or a prefix of exactly one candidate; "" otherwise.
std::string nearest(const std::string& word, const std::vector<std::string>& candidates);

// The command path args name, checked before parsing: "" when each word in the command position
// is a command of its parent (or help, or a global option), else the error with the nearest
// command ("'doctr' is not a torchsmith command; did you mean `torchsmith doctor`? ...").
std::string unknown_command_error(const CLI::App& app, const std::vector<std::string>& args);

// The nearest long option (or its short form) of cmd and its parents to name ("--resum"), "" when none.
std::string nearest_option(const CLI::App* cmd, const std::string& name);

}  // namespace ts::cli
