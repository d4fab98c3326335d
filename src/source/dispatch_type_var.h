#pragma once
// port.dispatch-type-variable (data/kb/ports.toml, transform = "dispatch-type-variable"): a tensor's
// deprecated .type() held in a variable and passed to AT_DISPATCH_* later (cond-norm's
// `auto input_type = input_reshaped.type(); ... AT_DISPATCH_FLOATING_TYPES(input_type, ...)`), which
// port.dispatch-type (the .type() inside the macro) does not reach. torch 2.6's dispatch macros take a
// ScalarType only. The variable becomes the tensor's scalar_type() where every use of it, from its
// declaration to the end of its block, is a dispatch macro's first argument or `.scalarType()` (what
// DeprecatedTypeProperties gave of a ScalarType; the ScalarType itself once ported). Any other use
// (.is_cuda(), .backend(), passed on, a comment naming it), a declaration held by a non-const
// reference, or none of its uses a dispatch, and that declaration is left as it is.
#include <optional>
#include <string>
#include <string_view>

namespace ts::source {

// `text` with each such variable ported, or nullopt where there is none.
std::optional<std::string> port_dispatch_type_variables(std::string_view text);

}  // namespace ts::source
