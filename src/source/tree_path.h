#pragma once
// Keeping every write inside the source tree: relative paths only, no '..', and no symlink that
// leads out of the tree.
#include <string>
#include <string_view>

namespace ts::source {

// "" when rel is a clean relative path (no leading '/', no '..' or '.' component, no empty
// component, no NUL); else why not.
std::string relative_path_problem(std::string_view rel);

// The real path of tree/rel when it stays inside the tree (symlinks resolved), for reading and
// writing; "" and a reason in *error otherwise. The file need not exist when must_exist is false.
std::string resolve_in_tree(const std::string& tree, std::string_view rel, bool must_exist, std::string* error);

}  // namespace ts::source
