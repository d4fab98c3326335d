// The undefined-symbol rule on real symbols (each from the thread named beside it): demangled in
// process, attributed by namespace and string type, and the attribution decides the root cause.
#include "test_util.h"
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

}  // namespace
}  // namespace ts::triage::testing
