#pragma once
// File helpers. Every write is atomic (temp file in the same directory, fsync, rename), so an
// interrupted torchsmith never leaves a half-written file of the user's.
#include <optional>
#include <string>
#include <string_view>

namespace ts::util {

// Whole file, or nullopt when it cannot be read (missing, a directory, no permission).
std::optional<std::string> read_file(const std::string& path);
// Reads at most max_bytes (for /proc and /sys files, and to guard against huge inputs).
std::optional<std::string> read_file_prefix(const std::string& path, std::size_t max_bytes);
// "no space left on the device holding PATH: free some space or write the output elsewhere" for
// ENOSPC/EDQUOT, "cannot write PATH: <strerror>" otherwise: one wording for every failed write.
std::string write_error(const std::string& path, int err);
// Writes atomically; returns an error message or "" on success (ENOSPC worded by write_error,
// whether write, fsync or close reported it).
std::string write_file_atomic(const std::string& path, std::string_view data);

std::string trim(std::string_view s);

// This user's home directory from the password database (getpwuid_r), "" when it has none: what
// HOME would say, for the checks that must hold when HOME is unset or wrong.
std::string passwd_home();

}  // namespace ts::util
