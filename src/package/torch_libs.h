#pragma once
// What `import torch` has mapped before an extension loads, read from torch's package directory:
// its extension modules (torch/_C*.so) and libtorch_global_deps.so, and every library of torch/lib
// they NEED, transitively. The loader binds a later NEEDED to an object already mapped under that
// SONAME, so an extension's NEEDED that names one of them (libgomp.so.1 of torch's own wheels) is
// provided by torch exactly as libc10.so is: never vendored, never a second copy in the process.
#include <map>
#include <string>
#include <vector>

namespace ts::package {

struct TorchLib {
  std::string path;                        // the file in torch/lib
  std::vector<std::string> version_defs;   // the symbol versions it defines
};

struct TorchLibs {
  std::string dir;                          // torch's package directory ("" = not read)
  std::map<std::string, TorchLib> mapped;   // by SONAME (the file name when it has none)
  std::map<std::string, std::string> unmapped;  // SONAME -> file: in torch/lib, not mapped by import torch
};

// Reads `torch_dir` (the directory of torch/__init__.py); ELF files of another class or machine
// are skipped, as the loader skips them.
TorchLibs read_torch_libs(const std::string& torch_dir, int elf_class, unsigned machine);

// Whether torch provides `name` to an extension that needs `versions` of it: "" when it does (then
// *path is its file), else why not, for the verdict ("" and no path when torch has no such library).
struct TorchProvides {
  bool provided = false;
  std::string path;  // the library in torch/lib, when there is one by that name
  std::string why;   // why it is not provided although torch ships it ("" when provided or absent)
};
TorchProvides torch_provides(const TorchLibs& t, const std::string& name, const std::vector<std::string>& versions);

}  // namespace ts::package
