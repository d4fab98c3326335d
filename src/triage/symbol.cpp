#include "triage/symbol.h"

#include <cctype>
#include <cstdlib>
#include <cxxabi.h>
#include <memory>

namespace ts::triage {
namespace {

std::string demangle(std::string s) {
  // Mach-O prefixes every symbol with '_' (dyld: "Symbol not found: __ZN3c10..."): the C++ name is the rest.
  if (s.rfind("__Z", 0) == 0) s.erase(0, 1);
  if (s.rfind("_Z", 0) != 0) return "";
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> out(abi::__cxa_demangle(s.c_str(), nullptr, nullptr, &status), &std::free);
  return status == 0 && out ? std::string(out.get()) : "";
}

// The qualified name's first namespace ("c10::cuda::SetDevice(int)" -> "c10"), after a return type.
std::string first_namespace(std::string_view d) {
  std::size_t paren = d.find('(');
  std::string_view head = d.substr(0, paren);
  std::size_t sp = head.rfind(' ');  // "void at::native::f(...)": the return type goes
  if (sp != std::string_view::npos) head = head.substr(sp + 1);
  std::size_t colons = head.find("::");
  return colons == std::string_view::npos ? "" : std::string(head.substr(0, colons));
}

// The object a data symbol names: "typeinfo for at::TensorImpl" -> "at::TensorImpl" (the compiler's
// words for what it emits for a class, as __cxa_demangle prints them).
std::string_view object_name(std::string_view d) {
  for (std::string_view lead : {"typeinfo name for ", "typeinfo for ", "vtable for ", "VTT for ", "guard variable for "})
    if (d.rfind(lead, 0) == 0) return d.substr(lead.size());
  return d;
}

struct Library { const char* prefix; const char* name; };
// C entry points of the CUDA libraries by their documented prefixes (cuBLAS's cublas/cublasLt, ...).
constexpr Library kCudaLibraries[] = {
    {"cublas", "cuBLAS"}, {"cudnn", "cuDNN"}, {"cusparse", "cuSPARSE"}, {"cufft", "cuFFT"}, {"curand", "cuRAND"},
    {"cusolver", "cuSOLVER"}, {"nccl", "NCCL"}, {"nvrtc", "NVRTC"}, {"nvJitLink", "nvJitLink"}, {"cuda", "the CUDA runtime"},
};

// BLAS/LAPACK routines by the reference implementation's naming scheme: a precision letter (s, d, c, z)
// and the routine, with the Fortran trailing underscore or without it (a C interface or a library
// built without it). https://netlib.org/lapack/lug/node24.html
bool lapack_routine(std::string_view s) {
  static constexpr std::string_view kRoutines[] = {
      "gesv", "getrf", "getri", "getrs", "geqrf", "geqp3", "gelqf", "potrf", "potri", "potrs", "syev", "syevd", "syevr",
      "heev", "heevd", "geev", "gees", "gesdd", "gesvd", "gels", "gelsd", "gelss", "gelsy", "orgqr", "ormqr", "ungqr",
      "unmqr", "sytrf", "trtrs", "trtri", "gemm", "gemv", "trsm", "syrk", "herk", "axpy", "scal", "ger"};
  if (!s.empty() && s.back() == '_') s.remove_suffix(1);
  if (s.size() < 4 || std::string_view("sdcz").find(s[0]) == std::string_view::npos) return false;
  s.remove_prefix(1);
  for (auto r : kRoutines)
    if (s == r) return true;
  return false;
}

}  // namespace

SymbolReading read_symbol(std::string_view symbol) {
  SymbolReading r;
  r.mangled = std::string(symbol);
  r.demangled = demangle(r.mangled);
  if (!r.demangled.empty()) {
    r.new_abi_string = r.demangled.find("std::__cxx11::") != std::string::npos;
    r.old_abi_string = !r.new_abi_string && (r.demangled.find("std::string") != std::string::npos ||
                                             r.demangled.find("std::basic_string<") != std::string::npos);
    // An object, not a function: no parameter list (a variable or static member), or the typeinfo/vtable
    // the compiler emits for a class ("typeinfo for at::TensorImpl").
    bool object = r.demangled.find('(') == std::string::npos;
    std::string ns = first_namespace(object ? object_name(r.demangled) : r.demangled);
    if (ns == "c10" || ns == "at" || ns == "torch" || ns == "caffe2") {
      r.origin = SymbolReading::Origin::torch;
      if (object) {
        // A release that lacks a torch function the module calls is the usual mismatch: functions change
        // their parameters between releases, objects (a static member, a class's typeinfo) seldom do. And
        // the dynamic loader binds a module's data references before its function calls (glibc relocates
        // .rela.dyn before .rela.plt), so when no torch library is loaded at all the first symbol it names
        // is an object. The C object THPVariableClass reads the same (TORCH_LIB_NOT_LOADED_IMPORT_ORDER).
        r.rule = "a torch object (a variable, static member or class typeinfo), not a function: the loader "
                 "found no torch library loaded at all when it loaded the module (it binds objects first), "
                 "so torch was not imported before it, or the module has no path to torch's libraries";
        r.cause = "TORCH_LIB_NOT_LOADED_IMPORT_ORDER";
        return r;
      }
      r.rule = r.new_abi_string
                   ? "a torch function taking the new C++ ABI's std::__cxx11 string: the module was compiled with "
                     "_GLIBCXX_USE_CXX11_ABI=1 and this torch exports the other ABI"
               : r.old_abi_string
                   ? "a torch function taking the old C++ ABI's std::string: the module was compiled with "
                     "_GLIBCXX_USE_CXX11_ABI=0, so this torch either has the other ABI or lacks the function"
                   : "a torch function with no string type in it, which this torch does not export: the module "
                     "was built against another torch release (the C++ ABI cannot explain it)";
      // An old-ABI string fits both readings: the patterns' one stands.
      r.cause = r.new_abi_string ? "UNDEFINED_SYMBOL_CXX11_ABI" : r.old_abi_string ? "" : "EXT_BUILT_FOR_OTHER_TORCH";
    }
    return r;
  }
  // A name the log cut short (a title's 255 characters, a terminal's width) does not demangle; its mangled
  // form still says what it is: torch's namespaces as their length-prefixed names, and the new C++ ABI's
  // string as the std::__cxx11 namespace it is mangled in (St7__cxx11, or the B5cxx11 ABI tag). Only that
  // reading is made of it: without the whole parameter list an old-ABI string or none cannot be told apart.
  {
    std::string_view m = symbol;
    if (m.rfind("__Z", 0) == 0) m.remove_prefix(1);
    for (std::string_view lead : {"_ZN3c10", "_ZNK3c10", "_ZN2at", "_ZNK2at", "_ZN5torch", "_ZNK5torch", "_ZN6caffe2", "_ZNK6caffe2"})
      if (m.rfind(lead, 0) == 0 && (m.find("St7__cxx11") != std::string_view::npos || m.find("B5cxx11") != std::string_view::npos)) {
        r.origin = SymbolReading::Origin::torch;
        r.new_abi_string = true;
        r.rule = "a torch function (its name is cut short, read in mangled form) taking the new C++ ABI's std::__cxx11 "
                 "string: the module was compiled with _GLIBCXX_USE_CXX11_ABI=1 and this torch exports the other ABI";
        r.cause = "UNDEFINED_SYMBOL_CXX11_ABI";
        return r;
      }
  }
  if (lapack_routine(symbol)) {
    r.origin = SymbolReading::Origin::lapack;
    r.library = "a BLAS/LAPACK library";
    r.rule = "a BLAS/LAPACK routine (precision letter and routine name): the library that references it was "
             "linked without a LAPACK, or expects one on the loader path that is not installed";
    r.cause = "LAPACK_NOT_LINKED";
    return r;
  }
  for (const auto& l : kCudaLibraries)
    if (symbol.rfind(l.prefix, 0) == 0) {
      r.origin = SymbolReading::Origin::cuda_library;
      r.library = l.name;
      r.rule = std::string("an entry point of ") + l.name + " that the loaded copy lacks: an older copy of " + l.name +
               " was loaded first (another one on the loader path)";
      return r;
    }
  // The driver API's entry points are cu + an upper-case letter (cuInit, cuGreenCtxDestroy), exported by
  // libcuda, which the NVIDIA driver installs: one it lacks is newer than that driver
  // (https://docs.nvidia.com/cuda/cuda-driver-api/index.html).
  if (symbol.size() > 2 && symbol.rfind("cu", 0) == 0 && std::isupper(static_cast<unsigned char>(symbol[2]))) {
    r.origin = SymbolReading::Origin::cuda_driver;
    r.library = "the CUDA driver (libcuda)";
    r.rule = "an entry point of the CUDA driver API, which libcuda exports and the NVIDIA driver installs: the module "
             "was built for a newer CUDA than this driver supports";
    r.cause = "NVIDIA_DRIVER_TOO_OLD";
  }
  return r;
}

}  // namespace ts::triage
