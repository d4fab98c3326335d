#pragma once
// Torch facts read from its installed files, without importing it (importing costs 2-7 s per
// Python): torch/version.py, the CMake config's ABI flag, the arch list compiled into
// libtorch_python.so, libc10.so's mangled names, and the cuDNN wheel beside torch.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/host_facts.h"
#include "probe/host.h"

namespace ts::probe {

// Fills t from the files of the torch package at t.path (a host path) and keeps what it cannot
// find as it was; problems worth telling go to notes. `python_prefix` is the interpreter's
// sys.prefix (a conda env's cuDNN header lives there).
void read_torch_files(const Host& h, const std::string& python_prefix, TorchFacts& t,
                      std::vector<std::string>& notes);

// The pieces, exposed for tests.
struct TorchVersionPy {
  bool found = false;  // a __version__ line was there
  std::string version, cuda, git_version;
  bool debug = false;
};
// torch/version.py as generated from 1.x to 2.11: `cuda = '11.1'`, `cuda: Optional[str] = None`.
TorchVersionPy parse_torch_version_py(std::string_view text);
// `-D_GLIBCXX_USE_CXX11_ABI=0|1` in TorchConfig.cmake / Caffe2 cmake files; nullopt when absent
// or empty (some Jetson wheels ship `=` with no value).
std::optional<bool> abi_from_cmake(std::string_view text);
// An ELF's dynamic symbol names: any `__cxx11` -> true; C++ names (`_Z`) but none -> false.
std::optional<bool> abi_from_elf(std::string_view elf);
// The CUDA_ARCH_FLAGS string compiled into libtorch_python.so ("sm_80 sm_90 compute_90"): the
// longest NUL-delimited string made only of sm_N/compute_N tokens (a/f suffix allowed) joined by
// single spaces. Empty when none.
std::vector<std::string> find_arch_list(std::string_view bytes);
// "9.19.0.56" (wheel version) -> "9.19.0".
std::string cudnn_from_wheel(std::string_view wheel_version);

}  // namespace ts::probe
