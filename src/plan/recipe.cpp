// Recipe lookup by name and the generic recipe for packages the KB does not know.
#include "plan/recipe.h"

#include <cctype>

namespace ts::plan {

std::string requirement_name_problem(std::string_view text) {
  auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  std::size_t i = 0;
  while (i < text.size() && (alnum(text[i]) || text[i] == '-' || text[i] == '_' || text[i] == '.')) ++i;
  if (i == 0) return "does not start with a distribution name";
  if (!alnum(text[0]) || !alnum(text[i - 1])) return "has a name that does not start and end with a letter or digit (PEP 508)";
  std::size_t j = i;
  while (j < text.size() && text[j] == ' ') ++j;
  if (j < text.size() && std::string_view("[<>=!~;@(").find(text[j]) == std::string_view::npos)
    return "has '" + std::string(1, text[j]) + "' after its name, where a version, extras, marker or URL goes";
  return "";
}

std::string tag_for(const Recipe& r, std::string_view version) {
  std::string t = r.tag;
  for (auto at = t.find("{version}"); at != std::string::npos; at = t.find("{version}", at + version.size()))
    t.replace(at, 9, version);
  return t;
}

const Recipe* RecipeSet::find(std::string_view name) const {
  std::string want = normalize_name(name);
  if (want.empty()) return nullptr;
  for (const auto& r : recipes)
    if (r.name == want) return &r;
  for (const auto& r : recipes)
    for (const auto& a : r.aliases)
      if (normalize_name(a) == want) return &r;
  return nullptr;
}

Recipe recipe_generic(std::string_view name) {
  Recipe r;
  r.name = normalize_name(name);
  r.import_name = r.name;
  for (auto& c : r.import_name)
    if (c == '-') c = '_';
  r.build_system = "setuptools";
  r.cuda_env["FORCE_CUDA"] = "1";  // most cpp_extension projects skip CUDA without a visible GPU otherwise
  r.smoke = "import " + r.import_name;  // no op is known for an unknown package: the import only
  r.source = "torchsmith generic recipe: torch.utils.cpp_extension conventions";
  r.status = "derived";
  r.note = "no data/kb/packages recipe for '" + std::string(name) + "'; import name guessed from the package name";
  return r;
}

}  // namespace ts::plan
