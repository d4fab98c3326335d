#include "compat/assess.h"

namespace ts::compat {

std::vector<Verdict> assess(const HostFacts& facts, const kb::Kb& kb, const Target& target) {
  std::vector<Verdict> out;
  check_driver(facts, kb, out);
  check_gpus(facts, kb, out);
  check_target_toolkits(facts, kb, target, out);
  check_compilers(facts, kb, target, out);
  check_cmake(facts, kb, target, out);
  check_pythons(facts, kb, target, out);
  check_installed_torch(facts, kb, out);
  check_resources(facts, kb, out);
  return out;
}

}  // namespace ts::compat
