// `torchsmith conda`: being written (this file only keeps the binary linking meanwhile).
#include "cli/commands.h"

namespace ts::cli {

void register_conda(CLI::App&, GlobalOptions&, int&) {}

}  // namespace ts::cli
