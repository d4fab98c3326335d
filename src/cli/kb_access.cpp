#include "cli/kb_access.h"

#include <cstdio>

namespace ts::cli {

bool load_kb(const GlobalOptions& g, kb::Kb& out) {
  std::vector<std::string> dirs = kb::default_overlay_dirs();
  dirs.insert(dirs.end(), g.kb_dirs.begin(), g.kb_dirs.end());
  std::vector<kb::KbError> errors;
  out = kb::load(dirs, errors);
  for (const auto& e : errors) std::fprintf(stderr, "torchsmith: kb: %s\n", e.str().c_str());
  if (!errors.empty())
    std::fprintf(stderr,
                 "torchsmith: the knowledge base has %zu error(s); fix them "
                 "(torchsmith kb check lists them) or drop the overlay\n",
                 errors.size());
  return errors.empty();
}

}  // namespace ts::cli
