// Which recipe a request means: by its name, the tree's name, or its git URL; else none (generic).
#include <cctype>

#include "plan/extension.h"

namespace ts::plan {

namespace {

// "https://github.com/x/y.git/" and "https://github.com/x/y" are the same repository.
std::string url_key(std::string u) {
  while (!u.empty() && u.back() == '/') u.pop_back();
  if (u.size() > 4 && u.compare(u.size() - 4, 4, ".git") == 0) u.resize(u.size() - 4);
  for (auto& ch : u) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return u;
}

}  // namespace

const Recipe* find_recipe(const RecipeSet& set, const ExtensionRequest& req) {
  if (!req.scan.name.empty())
    if (const Recipe* r = set.find(req.scan.name)) return r;
  if (req.source.kind == ExtensionSource::Kind::git)
    for (const auto& r : set.recipes)
      if (!r.git_url.empty() && url_key(r.git_url) == url_key(req.source.url)) return &r;
  if (!req.source.name.empty()) return set.find(req.source.name);
  return nullptr;
}

}  // namespace ts::plan
