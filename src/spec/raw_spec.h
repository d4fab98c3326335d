#pragma once
// RawSpec: the fields of a spec as text, before checking, from either source (command line or
// torchsmith.toml). Merging the two and checking them gives a BuildSpec or one clear error line.
#include <optional>
#include <string>
#include <vector>

#include "spec/build_spec.h"

namespace ts::spec {

// One field's text and where it came from ("--cuda", "torchsmith.toml:4").
struct RawField {
  std::string value;
  std::string where;
  bool set = false;
};

struct RawSpec {
  RawField requirement;  // "torch==2.4.1"
  RawField cuda, arch, python, build_type, jobs, mem_budget, source, facts, root;
  RawField with, without, packages;  // comma-separated lists
};

// Fields set in `over` replace those in `base` (the command line wins over the file).
RawSpec merge(const RawSpec& base, const RawSpec& over);

// Checks every field; on failure returns nullopt and one line naming the field's origin:
// "torchsmith.toml:4: cuda: '12,8' is not a version (write \"12.8\")".
std::optional<BuildSpec> check(const RawSpec& raw, std::string& error);

// --cuda's text as a CUDA version (X.Y or X.Y.Z, digits and dots); nullopt and `error` naming the
// field's origin when it is not one.
std::optional<Version> parse_cuda(const RawField& f, std::string& error);

// "16G", "16GiB", "512M", "1.5T", plain bytes -> bytes; nullopt when not a size.
std::optional<std::uint64_t> parse_size(const std::string& text);

// A job count: "auto" (any case) is 0 (from memory), else 1 to 9999 in plain digits; nullopt otherwise.
std::optional<int> parse_jobs(const std::string& text);

}  // namespace ts::spec
