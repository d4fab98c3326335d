#include "cli/kb_access.h"

#include <cstdio>

#include "cli/knowledge.h"

namespace ts::cli {

const kb::Kb* load_kb(const GlobalOptions& g) {
  const auto& core = g.knowledge().core();
  for (const auto& e : core.errors) std::fprintf(stderr, "torchsmith: kb: %s\n", e.c_str());
  if (core.errors.empty()) return &core.value;
  std::fprintf(stderr,
               "torchsmith: the knowledge base has %zu error(s); fix them "
               "(torchsmith kb check lists them) or drop the overlay\n",
               core.errors.size());
  return nullptr;
}

}  // namespace ts::cli
