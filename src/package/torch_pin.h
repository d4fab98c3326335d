#pragma once
// --pin-torch: the Requires-Dist line that ties an extension wheel to the torch it was built
// against (a C++ extension imports only with that torch's minor release: libtorch's C++ symbols
// change between minors), and METADATA with it. docs/packaging.md argues the default.
#include <optional>
#include <string>
#include <string_view>

namespace ts::package {

// mode "minor": "torch==1.13.*"; "exact": "torch==1.13.1" (the public version, local part left
// out: pip then accepts +cpu and +cu124 alike); "none": "". nullopt and *error for another mode
// or a torch version with no major.minor.
std::optional<std::string> torch_requirement(std::string_view mode, std::string_view torch_version,
                                             std::string* error);

// METADATA with every marker-less "Requires-Dist: torch..." header replaced by one
// "Requires-Dist: <req>", added after the last header when there was none. `replaced` (optional)
// gets the lines it took out.
std::string metadata_with_torch_requirement(std::string_view metadata, const std::string& req,
                                            std::string* replaced = nullptr);

}  // namespace ts::package
