#include "run/pyshim.h"

#include <filesystem>

#include "util/fs.h"

namespace ts::run {

std::string write_pyshim(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir + "/fetch/pybind11", ec);
  if (ec) return "cannot create " + dir + "/fetch/pybind11: " + ec.message();
  for (const auto& [name, text] : {std::pair{"/sitecustomize.py", pyshim_sitecustomize()},
                                    std::pair{"/torchsmith_project.cmake", pyshim_cmake_include()},
                                    std::pair{"/torchsmith_pep517.py", pyshim_pep517()},
                                    std::pair{"/fetch/pybind11/CMakeLists.txt", pyshim_fetch_pybind11()}})
    if (std::string err = util::write_file_atomic(dir + name, text); !err.empty()) return err;
  return "";
}

std::string cmake_include_define(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
                                 const std::string& dir) {
  auto asked = [&](const char* k) {
    auto it = env.find(k);
    return it != env.end() && !it->second.empty();
  };
  if (argv.empty() || std::filesystem::path(argv[0]).filename() != "cmake" || dir.empty()) return "";
  if (!asked("TORCHSMITH_CMAKE_ARCHES") && !asked("TORCHSMITH_CMAKE_STD") && !asked("TORCHSMITH_NO_LTO") &&
      !asked("TORCHSMITH_CMAKE_TOOLCHAIN"))
    return "";
  bool configure = false;
  for (std::size_t i = 1; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a == "--build" || a == "--install" || a == "-E" || a == "-P" || a == "--open") return "";
    if (a.rfind("-DCMAKE_PROJECT_INCLUDE_BEFORE", 0) == 0) return "";  // never twice
    configure |= a.rfind("-S", 0) == 0 || a.rfind("-B", 0) == 0;
  }
  return configure ? "-DCMAKE_PROJECT_INCLUDE_BEFORE=" + dir + "/torchsmith_project.cmake" : "";
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
