#pragma once
// torchsmith.toml: the same fields as the command line, in a file that a project can commit.
//
//   [build]
//   torch = "2.4.1"           # or requirement = "torch==2.4.1"
//   cuda = "12.8"
//   arch = "native"           # or a list: ["8.9", "12.0+PTX"]
//   python = "3.8"
//   with = ["cudnn"]          without = ["test"]
//   build_type = "release"    # debug, relwithdebinfo
//   jobs = "auto"             mem_budget = "16G"
//   packages = ["wheel"]      source = "https://github.com/pytorch/pytorch@v2.4.1"
#include <string>
#include <string_view>

#include "spec/raw_spec.h"

namespace ts::spec {

// Reads the file text; false and one "file:line: key: problem" line in error when it is wrong.
bool read_spec_text(std::string_view text, const std::string& file_name, RawSpec& out, std::string& error);
bool read_spec_file(const std::string& path, RawSpec& out, std::string& error);

}  // namespace ts::spec
