#include "run/pyshim.h"

#include <filesystem>

#include "util/fs.h"

namespace ts::run {

std::string write_pyshim(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return "cannot create " + dir + ": " + ec.message();
  std::string err = util::write_file_atomic(dir + "/sitecustomize.py", pyshim_sitecustomize());
  return err.empty() ? util::write_file_atomic(dir + "/torchsmith_project.cmake", pyshim_cmake_include()) : err;
}

bool expand_pyshim(std::map<std::string, std::string>& env, const std::string& dir) {
  const std::string key = kPyshimPlaceholder;
  bool used = false;
  for (auto& [k, v] : env)
    for (auto at = v.find(key); at != std::string::npos; at = v.find(key, at + dir.size())) {
      v.replace(at, key.size(), dir);
      used = true;
    }
  return used;
}

}  // namespace ts::run
