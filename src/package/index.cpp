#include "package/index.h"

#include <filesystem>

namespace ts::package {

IndexResult build_index(const std::string& dir) {
  IndexResult r;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    r.fatal = dir +
              " is not a directory: give the channel directory (packages in DIR/linux-64/, wheels "
              "anywhere under DIR)";
    return r;
  }
  index_conda_channel(dir, r);
  index_wheels(dir, r);
  return r;
}

}  // namespace ts::package
