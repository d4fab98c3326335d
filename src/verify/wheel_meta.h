#pragma once
// What a built wheel says about itself, read natively: its name and version, its runtime
// dependencies (Requires-Dist in *.dist-info/METADATA), its top-level modules (top_level.txt, else
// the file list) and its compiled modules (every .so a Python module could be), so verify can
// import all of it and install what it needs.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ts::verify {

struct WheelMeta {
  std::string name, version;
  std::vector<std::string> requires_dist;  // the lines as written ("scipy>=1.4; python_version>='3.8'")
  std::vector<std::string> top_level;      // importable top-level names ("detectron2", "tools")
  // Names top_level.txt lists that no file of the wheel installs: setuptools writes the names setup()
  // is given (Distribution.iter_distribution_names): every packages= name, even a directory with no
  // Python file; every py_modules= name, even one with no NAME.py (openretro's gln_model:
  // py_modules=['gln'] for a package directory); each extension's name without ext_package
  // (srrcomp's 'eden_utils', installed as srrcomp.eden_utils). Nothing imports them from this wheel,
  // so they are not among top_level.
  std::vector<std::string> top_level_empty;
  std::vector<std::string> compiled;       // dotted module names of the .so files ("simple_knn._C")
  std::map<std::string, std::string> compiled_files;  // each of those -> its path under site-packages
  // Of those, the ones without PyInit_<name> (split_op_libraries): op libraries the package loads
  // itself (torch.ops.load_library), not modules; importing one the package did not choose can
  // abort the process (a CPU and a CUDA variant registering the same TORCH_LIBRARY).
  std::vector<std::string> libraries;
};

// True when the ELF bytes of NAME.so define no PyInit_<stem> (their .dynstr lacks the name);
// false when they do or when they are not an ELF file with a .dynstr (then it is imported as before).
bool elf_is_plain_library(const unsigned char* data, std::size_t size, const std::string& stem);

// Moves the op libraries among `w.compiled` to `w.libraries`, reading each file where the wheel was
// installed (`site`), so nothing is decompressed again; a file that cannot be read stays a module.
void split_op_libraries(WheelMeta& w, const std::string& site);

// nullopt and *error when the file is no wheel (not a zip, no *.dist-info/METADATA).
std::optional<WheelMeta> read_wheel_meta(const std::string& wheel, std::string* error);

// The same from the member names and METADATA/top_level.txt texts (top_level "" = not in the wheel).
WheelMeta wheel_meta_from(const std::vector<std::string>& members, const std::string& metadata,
                          const std::string& top_level_txt);

}  // namespace ts::verify
