#pragma once
// Package names as Python packaging compares them (PEP 503): recipes, wheels, conda packages and
// the simple index all look names up this one way.
#include <string>
#include <string_view>

namespace ts {

// Lower case; runs of '-', '_' and '.' become one '-' ("Torch_Scatter" -> "torch-scatter").
std::string normalize_name(std::string_view name);

}  // namespace ts
