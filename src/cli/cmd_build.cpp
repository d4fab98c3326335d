// `torchsmith build`: being written (this file only keeps the binary linking meanwhile).
#include "cli/commands.h"

namespace ts::cli {

void register_build(CLI::App&, GlobalOptions&, int&) {}

}  // namespace ts::cli
