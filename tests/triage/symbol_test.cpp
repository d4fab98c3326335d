// The undefined-symbol rule on real symbols (each from the thread named beside it): demangled in
// process, attributed by namespace and string type, and the attribution decides the root cause.
#include "test_util.h"
#include "triage/grammar.h"
#include "triage/symbol.h"

namespace ts::triage::testing {
namespace {

TEST(Symbol, TorchSymbolWithoutAStringIsAnotherTorchNotTheAbi) {
  // https://github.com/Dao-AILab/flash-attention/issues/931: wheels built for another torch.
  SymbolReading s = read_symbol("_ZN3c104cuda9SetDeviceEi");
  EXPECT_EQ(s.demangled, "c10::cuda::SetDevice(int)");
  EXPECT_EQ(s.origin, SymbolReading::Origin::torch);
  EXPECT_FALSE(s.new_abi_string);
  EXPECT_FALSE(s.old_abi_string);
  EXPECT_NE(s.rule.find("another torch release"), std::string::npos);
}

TEST(Symbol, OldAbiStringFitsBothReadings) {
  // https://github.com/pyg-team/pytorch_scatter/issues/462 (the ABI, per the maintainer) and
  // https://github.com/vllm-project/vllm/issues/13608 (another torch build): the same symbol.
  SymbolReading r = read_symbol("_ZN5torch3jit17parseSchemaOrNameERKSsb");
  EXPECT_EQ(r.demangled, "torch::jit::parseSchemaOrName(std::string const&, bool)");
  EXPECT_EQ(r.origin, SymbolReading::Origin::torch);
  EXPECT_TRUE(r.old_abi_string);
  EXPECT_FALSE(r.new_abi_string);
  EXPECT_NE(r.rule.find("either"), std::string::npos);
}

TEST(Symbol, Cxx11StringIsTheAbi) {
  // https://github.com/Dao-AILab/flash-attention/issues/1832
  SymbolReading r = read_symbol("_ZN3c105ErrorC2ENS_14SourceLocationENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE");
  EXPECT_EQ(r.origin, SymbolReading::Origin::torch);
  EXPECT_TRUE(r.new_abi_string);
  EXPECT_NE(r.rule.find("_GLIBCXX_USE_CXX11_ABI"), std::string::npos);
}

TEST(Symbol, CudaLibraryEntryPointMeansAnotherCopy) {
  SymbolReading r = read_symbol("cublasLtGetVersion");
  EXPECT_EQ(r.origin, SymbolReading::Origin::cuda_library);
  EXPECT_EQ(r.library, "cuBLAS");
  // Near misses: a plain C symbol of another library, and a C++ symbol outside torch.
  EXPECT_EQ(read_symbol("getVapourSynthAPI").origin, SymbolReading::Origin::other);
  EXPECT_EQ(read_symbol("_ZN2cv3Mat10deallocateEv").origin, SymbolReading::Origin::other);
  EXPECT_TRUE(read_symbol("getVapourSynthAPI").rule.empty());
}

// The CUDA driver API (cu + an upper-case letter) is libcuda's, which the NVIDIA driver installs:
// sgl-project/sglang#8701 (cuGreenCtxDestroy) and #8131 (cuGreenCtxStreamCreate), an sgl-kernel built
// for a newer CUDA than the driver. Near misses: the runtime (cudaMalloc), a library's entry point
// (cublasLt..., curand_init), a bare "cu".
TEST(Symbol, ADriverApiEntryPointIsTheDriver) {
  SymbolReading r = read_symbol("cuGreenCtxDestroy");
  EXPECT_EQ(r.origin, SymbolReading::Origin::cuda_driver);
  EXPECT_EQ(r.cause, "NVIDIA_DRIVER_TOO_OLD");
  EXPECT_NE(r.rule.find("newer CUDA than this driver"), std::string::npos);
  EXPECT_EQ(read_symbol("cuCtxCreate_v4").origin, SymbolReading::Origin::cuda_driver);
  EXPECT_EQ(read_symbol("cudaMalloc").origin, SymbolReading::Origin::cuda_library);
  EXPECT_EQ(read_symbol("cublasLtMatmul").library, "cuBLAS");
  EXPECT_EQ(read_symbol("curand_init").library, "cuRAND");
  EXPECT_EQ(read_symbol("cu").origin, SymbolReading::Origin::other);
  EXPECT_TRUE(read_symbol("cudaMalloc").cause.empty());
}

TEST(Symbol, TheReadingDecidesTheRootCause) {
  // A std::__cxx11 string in a torch symbol that only the "another torch" patterns catch: the ABI decides.
  Diagnosis a = diagnose(
      "ImportError: x.so: undefined symbol: _ZN5torch8autograd12VariableInfoC1ERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE\n");
  EXPECT_EQ(root_id(a), "UNDEFINED_SYMBOL_CXX11_ABI");
  // No string type: another torch, and the answer says what the symbol is and why.
  Diagnosis d = diagnose(
      "ImportError: /usr/local/lib/python3.8/dist-packages/flash_attn_2_cuda.cpython-38-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi\n");
  EXPECT_EQ(root_id(d), "EXT_BUILT_FOR_OTHER_TORCH");
  ASSERT_TRUE(d.root());
  bool said = false;
  for (const auto& n : d.root()->notes) said |= n.find("c10::cuda::SetDevice(int)") != std::string::npos;
  EXPECT_TRUE(said) << "the answer names the demangled symbol";
  // An old-ABI string: the patterns' ABI reading stands.
  Diagnosis o = diagnose("ImportError: torch_scatter/_scatter_cuda.so: undefined symbol: _ZN5torch3jit17parseSchemaOrNameERKSsb\n");
  EXPECT_EQ(root_id(o), "UNDEFINED_SYMBOL_CXX11_ABI");
}

TEST(Symbol, MachOUnderscoreIsNotPartOfTheName) {
  // dyld's wording carries Mach-O's extra '_' (https://github.com/Cytnx-dev/Cytnx/issues/8): the C++
  // name is demangled without it; a C symbol with the prefix (___addtf3, TomHeaven/pytorch-osx-build#19)
  // stays a C symbol.
  SymbolReading r = read_symbol("__ZN5cytnx14utils_internal19Complexmem_cpu_cdtdEPvS1_RKyb");
  EXPECT_EQ(r.demangled, "cytnx::utils_internal::Complexmem_cpu_cdtd(void*, void*, unsigned long long const&, bool)");
  EXPECT_EQ(r.origin, SymbolReading::Origin::other);
  EXPECT_EQ(read_symbol("__ZN3c104cuda9SetDeviceEi").origin, SymbolReading::Origin::torch);
  EXPECT_TRUE(read_symbol("___addtf3").demangled.empty());
}

// A BLAS/LAPACK routine by its naming scheme (precision letter and routine, with or without Fortran's
// underscore) is a LAPACK the library was not linked with (pytorch/pytorch#51092, NVIDIA's Jetson wheel).
// Near misses: no precision letter, a longer name, a C++ name.
TEST(Symbol, ALapackRoutineIsAMissingLapack) {
  for (const char* s : {"sgesdd", "sgesdd_", "dormqr_", "zgetrf_"}) {
    SymbolReading r = read_symbol(s);
    EXPECT_EQ(r.origin, SymbolReading::Origin::lapack) << s;
    EXPECT_EQ(r.cause, "LAPACK_NOT_LINKED") << s;
  }
  for (const char* s : {"gesdd_", "sgesddx", "dgemm_kernel", "getVapourSynthAPI", "_ZN3c104cuda9SetDeviceEi"})
    EXPECT_NE(read_symbol(s).origin, SymbolReading::Origin::lapack) << s;
}

// torch's own library missing a symbol reads as stale torch libraries, unless the symbol is not torch's:
// a LAPACK routine decides (pytorch/pytorch#51092's line). Near miss: a torch symbol stays a stale install.
TEST(Symbol, TorchsLibraryMissingALapackRoutineIsTheLapack) {
  Diagnosis d = diagnose("import torch\nImportError: /home/dji/.local/lib/python3.6/site-packages/torch/lib/libtorch_cpu.so: undefined symbol: sgesdd\n");
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "LAPACK_NOT_LINKED");
  Diagnosis torch = diagnose("import torch\nImportError: /opt/venv/lib/python3.10/site-packages/torch/lib/libtorch_cpu.so: undefined symbol: _ZN3c1017RegisterOperatorsD1Ev\n");
  ASSERT_TRUE(torch.root());
  EXPECT_EQ(torch.root()->id, "TORCH_MIXED_INSTALL_STALE_LIBS");
}

TEST(Symbol, TheEntityStopsWhereTheMangledNameEnds) {
  // vllm's warning prints the ImportError as its repr (vllm-project/vllm#5501): the quote and parenthesis
  // after the symbol are the framing, so the symbol is read whole and attributed.
  const std::string line =
      "WARNING 06-13 11:42:20 _custom_ops.py:11] Failed to import from vllm._C with ImportError('/usr/local/lib/python3.8/"
      "dist-packages/vllm/_C.abi3.so: undefined symbol: _ZN5torch7LibraryC1ENS0_4KindESsSt8optionalIN3c1011DispatchKeyEEPKcj')";
  auto symbol_of = [](const std::string& text) {
    for (const auto& e : entities_of(text))
      if (e.kind == "symbol") return e.value;
    return std::string("(none)");
  };
  std::string symbol = symbol_of(line);
  EXPECT_EQ(symbol, "_ZN5torch7LibraryC1ENS0_4KindESsSt8optionalIN3c1011DispatchKeyEEPKcj");
  EXPECT_EQ(read_symbol(symbol).origin, SymbolReading::Origin::torch);
  // A versioned symbol keeps its version; a quoted one (detectron2's message) loses only the quote.
  EXPECT_EQ(symbol_of("ImportError: x.so: undefined symbol: _ZNK2at10TensorBase8data_ptrIdEEPT_v\""), "_ZNK2at10TensorBase8data_ptrIdEEPT_v");
  EXPECT_EQ(symbol_of("x.so: undefined symbol: cudaGetDriverEntryPoint@libcudart.so.12"), "cudaGetDriverEntryPoint@libcudart.so.12");
}

// A torch object, not a function (a static member, a variable, a class's typeinfo): functions change
// their parameters between releases, objects seldom do, and the loader binds a module's objects before
// its calls, so no torch library was loaded at all. lufficc/SSD#125: both symbols, fixed by importing
// torch first. Near misses: a torch function stays another torch (flash-attention#931's), an object of
// another library stays unread, and torch's own library missing a torch typeinfo stays a mixed install
// (pytorch/pytorch#13893's line).
TEST(Symbol, ATorchObjectMeansNoTorchWasLoaded) {
  for (const char* sym : {"_ZN2at19UndefinedTensorImpl10_singletonE", "_ZN6caffe26detail37_typeMetaDataInstance_preallocated_32E",
                          "_ZTIN3c1010TensorImplE"}) {
    SymbolReading r = read_symbol(sym);
    EXPECT_EQ(r.origin, SymbolReading::Origin::torch) << sym;
    EXPECT_EQ(r.cause, "TORCH_LIB_NOT_LOADED_IMPORT_ORDER") << sym;
    EXPECT_NE(r.rule.find("not a function"), std::string::npos) << sym;
  }
  EXPECT_EQ(read_symbol("_ZN2at19UndefinedTensorImpl10_singletonE").demangled, "at::UndefinedTensorImpl::_singleton");
  EXPECT_EQ(read_symbol("_ZN3c104cuda9SetDeviceEi").cause, "EXT_BUILT_FOR_OTHER_TORCH");
  EXPECT_EQ(read_symbol("_ZN2cv3Mat5emptyE").origin, SymbolReading::Origin::other);
  EXPECT_TRUE(read_symbol("_ZTIN2cv9ExceptionE").cause.empty());

  Diagnosis d = diagnose("ImportError: ./ssd/layers/_C.cpython-36m-x86_64-linux-gnu.so: undefined symbol: "
                         "_ZN2at19UndefinedTensorImpl10_singletonE\n");
  EXPECT_EQ(root_id(d), "TORCH_LIB_NOT_LOADED_IMPORT_ORDER");
  Diagnosis f = diagnose("ImportError: ./ssd/layers/_C.cpython-36m-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi\n");
  EXPECT_EQ(root_id(f), "EXT_BUILT_FOR_OTHER_TORCH");
  Diagnosis own = diagnose("    from torch._C import *\nImportError: /home/u/anaconda3/envs/m/lib/python3.7/site-packages/torch/lib/"
                           "libcaffe2.so: undefined symbol: _ZTIN3c1010TensorImplE\n");
  EXPECT_EQ(root_id(own), "TORCH_MIXED_INSTALL_STALE_LIBS");
}

// A name the log cut short does not demangle, but its mangled form still names torch's namespace and the new
// ABI's string (St7__cxx11): Dao-AILab/flash-attention#1518's title, cut at "basi", is the C++ ABI. Near misses:
// a cut torch name with no string in what is left (pytorch/pytorch#23585's "_ZN2at7ge") says nothing, and a cut
// name of another library with __cxx11 in it is not torch's.
TEST(Symbol, ACutNameIsReadInItsMangledForm) {
  SymbolReading cut = read_symbol("_ZN3c105ErrorC2ENS_14SourceLocationENSt7__cxx1112basi");
  EXPECT_TRUE(cut.demangled.empty());
  EXPECT_EQ(cut.origin, SymbolReading::Origin::torch);
  EXPECT_EQ(cut.cause, "UNDEFINED_SYMBOL_CXX11_ABI");
  EXPECT_NE(cut.rule.find("cut short"), std::string::npos) << cut.rule;
  EXPECT_TRUE(read_symbol("_ZN2at7ge").cause.empty());
  EXPECT_TRUE(read_symbol("_ZN2cv3MatC1ERKNSt7__cxx1112basi").cause.empty());

  Diagnosis d = diagnose("ImportError: /home/data/miniconda3/envs/museTalk/lib/python3.10/site-packages/flash_attn_2_cuda.cpython-310-"
                         "x86_64-linux-gnu.so: undefined symbol: _ZN3c105ErrorC2ENS_14SourceLocationENSt7__cxx1112basi\n");
  EXPECT_EQ(root_id(d), "UNDEFINED_SYMBOL_CXX11_ABI");
}

}  // namespace
}  // namespace ts::triage::testing
