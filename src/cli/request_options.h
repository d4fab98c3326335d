#pragma once
// The options of a request (`plan` and `build`) as one table: each option's name, the request kinds
// it applies to, its help and its strict parser. Registration (and so --help) and the checks before
// any work read the same rows, so help and parsing cannot disagree.
#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace ts::cli {

struct Request;

// What a request builds; an option applies to some of them.
enum RequestKind : unsigned {
  torch_request = 1,      // torch==X (or torchsmith.toml): PyTorch itself
  extension_request = 2,  // DIR | URL@REF | NAME==X against an installed torch
  locked_request = 4,     // build --lock FILE: the plan is already decided
};

// The commands that carry request options. `matrix` checks its rows as an extension request's and
// passes each one given on to every build it runs.
enum RequestCommand : unsigned { plan_command = 1, build_command = 2, matrix_command = 4 };

struct RequestOption {
  std::string name;       // "--jobs"
  std::string type;       // "N|auto" ("" for a flag)
  std::string help;
  unsigned commands = plan_command | build_command;
  unsigned kinds = torch_request | extension_request;
  std::string not_for_extension;  // why it does not apply to an extension, and what to write instead
  std::string not_for_torch;      // the same for torch's own build
  // Checks the value as written (strictly) and stores it in the request; "" or the accepted form.
  std::function<std::string(const std::string& value, Request& r)> parse;
};

const std::vector<RequestOption>& request_options();

// Registers the table's rows for this command on c; each remembers its text in r.given.
void add_request_options(CLI::App* c, Request& r, RequestCommand command);

// Each option given checked against the kind and parsed into r, in table order: "" or the error
// ("--with applies to torch builds only; for an extension ...", "--jobs 4x: write ...").
std::string apply_request_options(Request& r, RequestKind kind);

// "torch builds only", "extension builds only", "torch and extension builds": the help's note.
std::string applies_to(const RequestOption& o);

}  // namespace ts::cli
