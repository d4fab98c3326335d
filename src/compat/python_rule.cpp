#include "compat/python_rule.h"

#include "compat/facts_util.h"
#include "core/version_range.h"

namespace ts::compat {

bool python_supported(const kb::TorchRelease& rel, const FactVersion& python_version) {
  const auto& v = python_version.parsed();
  return v && rel.python.contains(v->truncated(2));  // 3.11.2 is a 3.11
}

NumpyFit numpy_fit(const kb::TorchRelease& rel, const PythonFacts& py) {
  auto it = py.packages.find("numpy");
  if (it == py.packages.end()) return NumpyFit::missing;
  const auto& nv = it->second.parsed();
  return nv && !rel.numpy.contains(*nv) ? NumpyFit::outside : NumpyFit::fits;
}

}  // namespace ts::compat
