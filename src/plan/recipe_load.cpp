// Loads the embedded recipes and overlay recipes, and validates recipe files for `kb check`.
#include <algorithm>
#include <filesystem>

#include "kb/check.h"
#include "kb/layers.h"
#include "plan/recipe.h"
#include "plan/recipe_detail.h"

namespace ts::plan {

namespace {

namespace fs = std::filesystem;

using TextFile = kb::LayerFile;

bool is_recipe_path(std::string_view p) {
  return p.rfind("packages/", 0) == 0 && p.size() > 14 && p.substr(p.size() - 5) == ".toml" &&
         p.find('/', 9) == std::string_view::npos;
}

std::vector<TextFile> embedded_recipe_files() { return kb::embedded_folder("packages/"); }

// DIR's readable *.toml files, sorted; a missing directory gives none, and `errors` (when given)
// hears of a file or directory that cannot be read.
std::vector<TextFile> dir_files(const fs::path& dir, std::vector<kb::KbError>* errors) {
  std::string list_error;
  std::vector<TextFile> out;
  for (auto& f : kb::folder_layer(dir.string(), &list_error)) {
    if (f.read) out.push_back(std::move(f));
    else if (errors) errors->push_back({{f.name, 0}, "cannot read the file; check its permissions"});
  }
  if (!list_error.empty() && errors) errors->push_back({{dir.string(), 0}, list_error});
  return out;
}

// An overlay file's recipes replace built-in ones of the same name; their aliases must not take
// another package's names.
void merge(RecipeSet& set, std::vector<Recipe> file_recipes, std::vector<kb::KbError>& errors) {
  std::vector<Recipe> others;
  for (const auto& r : set.recipes)
    if (std::none_of(file_recipes.begin(), file_recipes.end(), [&](const Recipe& f) { return f.name == r.name; }))
      others.push_back(r);
  std::size_t before = errors.size();
  detail::check_unique(file_recipes, others, errors);
  if (errors.size() != before) return;  // a file with errors contributes nothing
  for (auto& f : file_recipes) {
    auto it = std::find_if(set.recipes.begin(), set.recipes.end(), [&](const Recipe& r) { return r.name == f.name; });
    if (it != set.recipes.end()) *it = std::move(f);
    else set.recipes.push_back(std::move(f));
  }
}

}  // namespace

RecipeSet load_recipes(const std::vector<std::string>& overlay_dirs, std::vector<std::string>& errors) {
  RecipeSet set;
  std::vector<kb::KbError> errs;
  for (const auto& f : embedded_recipe_files())
    for (auto& e : detail::read_recipes(f.name, f.text, set.recipes)) errs.push_back(std::move(e));
  for (const auto& dir : overlay_dirs) {
    std::vector<Recipe> layer;  // this directory's recipes so far: one name once per directory
    for (const auto& f : dir_files(fs::path(dir) / "packages", &errs)) {
      std::size_t at = layer.size();
      std::vector<kb::KbError> file_errs = detail::read_recipes(f.name, f.text, layer);
      if (file_errs.empty()) merge(set, std::vector<Recipe>(layer.begin() + static_cast<std::ptrdiff_t>(at), layer.end()), errs);
      for (auto& e : file_errs) errs.push_back(std::move(e));
    }
  }
  for (const auto& e : errs) errors.push_back(e.str());
  return set;
}

void validate_recipe_file(std::string_view file, std::string_view text, std::vector<kb::KbError>& errors) {
  // The other recipe files of the same place (the embedded set, or the overlay's directory), so
  // that a name or alias claimed twice across files is reported.
  std::vector<TextFile> siblings;
  auto embedded = embedded_recipe_files();
  bool is_embedded = std::any_of(embedded.begin(), embedded.end(), [&](const TextFile& f) { return f.name == file; });
  if (is_embedded) siblings = std::move(embedded);
  else if (is_recipe_path(file)) siblings = {};
  else siblings = dir_files(fs::path(std::string(file)).parent_path(), nullptr);
  std::vector<Recipe> others;
  for (const auto& s : siblings)
    if (s.name != file && fs::path(s.name) != fs::path(std::string(file))) (void)detail::read_recipes(s.name, s.text, others);
  for (auto& e : detail::read_recipes(file, text, others)) errors.push_back(std::move(e));
}

}  // namespace ts::plan
