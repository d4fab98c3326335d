#pragma once
// Fake source trees for the plan's fix tests: the fix engine's own test kit (a scratch directory,
// copies of tests/fixtures/trees/NAME, a file's bytes), plus the ids of selected fixes.
#include <string>
#include <vector>

#include "../source/test_tree.h"
#include "source/fix.h"

namespace ts::plan::testing {

using source::testkit::copy_tree;
using source::testkit::ScratchDir;
using source::testkit::slurp;

inline std::vector<std::string> ids(const std::vector<const source::Fix*>& v) {
  std::vector<std::string> out;
  for (const auto* f : v) out.push_back(f->id);
  return out;
}

}  // namespace ts::plan::testing
