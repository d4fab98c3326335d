#pragma once
// Internals shared by the recipe reader, loader and validator (not for other stages).
#include <string_view>
#include <vector>

#include "kb/kb.h"
#include "plan/recipe.h"

namespace ts::plan::detail {

// One file's recipes appended to out when the file has no errors; duplicates against `out` are errors.
std::vector<kb::KbError> read_recipes(std::string_view file_name, std::string_view text, std::vector<Recipe>& out);
// Names and aliases of `fresh` must not be taken by `existing` or by each other (normalized).
void check_unique(const std::vector<Recipe>& fresh, const std::vector<Recipe>& existing,
                  std::vector<kb::KbError>& errors);

}  // namespace ts::plan::detail
