#pragma once
// A source that includes one file of the package before another whose macro the first uses
// (fairseq's lightconv_cuda_kernel.cu: `#include "../cuda_utils.cu"`, whose warpReduce uses
// SHFL_MASK, above `#include "lightconv_cuda.cuh"`, which defines it): an include-sorting formatter
// (clang-format's SortIncludes, on by default) put the two in alphabetical order, and the first no
// longer compiles ('identifier "SHFL_MASK" is undefined'). The port port.include-order
// (data/kb/ports.toml, transform = "include-order") moves the defining include back above the one
// that uses it. Only macros are counted: a macro is expanded where the text is read, so a use before
// its #define is an error whatever the rest of the file does.
#include <optional>
#include <string>
#include <string_view>

namespace ts::source {

// `text` with its comments and string/character literals blanked (newlines and backslash-newlines
// kept, so offsets and lines stay where they were): code to tokenize or match, not to write back.
std::string code_only(std::string_view text);

// `text` (the file at `path`) with each of its quoted includes B moved to just above an earlier
// quoted include A of the same run of include lines when the file A names uses, outside a #define,
// a macro the file B names #defines, and nothing before A defines it (the file's own lines, the
// files of the run's includes above A). Left alone (nullopt) where A defines or tests that macro
// itself (#ifndef NAME / defined(NAME): a fallback of its own), where the use is only inside a
// #define (expanded later), where B would then use a macro of a file it moves above, or where no
// included file can be read. Included files are read relative to `path`'s directory.
std::optional<std::string> order_includes_before_use(std::string_view text, const std::string& path);

}  // namespace ts::source
