// --pin-torch: the Requires-Dist line for the torch an extension was built against, and METADATA
// carrying it (the package's own torch requirement replaced, marked ones kept).
#include "package/torch_pin.h"

#include <gtest/gtest.h>

#include "package/wheel_version.h"

namespace ts::package {
namespace {

TEST(TorchPin, RequirementPerMode) {
  std::string err;
  EXPECT_EQ(torch_requirement("minor", "1.13.1", &err), "torch==1.13.*");
  EXPECT_EQ(torch_requirement("minor", "2.6.0+cu124", &err), "torch==2.6.*");
  EXPECT_EQ(torch_requirement("exact", "2.6.0+cu124", &err), "torch==2.6.0");
  EXPECT_EQ(torch_requirement("exact", "1.13.0a0+git7c98e70", &err), "torch==1.13.0a0");
  EXPECT_EQ(torch_requirement("none", "2.6.0", &err), "");
  EXPECT_FALSE(torch_requirement("major", "2.6.0", &err));
  EXPECT_NE(err.find("minor"), std::string::npos) << err;
  EXPECT_FALSE(torch_requirement("minor", "", &err));
  EXPECT_NE(err.find("--pin-torch none"), std::string::npos) << err;
}

TEST(TorchPin, MetadataGetsOneTorchRequirement) {
  const std::string meta =
      "Metadata-Version: 2.1\nName: hello-ext\nVersion: 0.1.0\nRequires-Dist: numpy\n"
      "Requires-Dist: torch>=1.8\nRequires-Dist: torch[opt]; extra == \"x\"\n\nLong description\nRequires-Dist: torch\n";
  std::string took;
  std::string out = metadata_with_torch_requirement(meta, "torch==1.13.*", &took);
  EXPECT_EQ(out,
            "Metadata-Version: 2.1\nName: hello-ext\nVersion: 0.1.0\nRequires-Dist: numpy\n"
            "Requires-Dist: torch==1.13.*\nRequires-Dist: torch[opt]; extra == \"x\"\n\nLong description\n"
            "Requires-Dist: torch\n");  // the body is not a header
  EXPECT_EQ(took, "Requires-Dist: torch>=1.8\n");
  // None before: added after the last header, before the body.
  EXPECT_EQ(metadata_with_torch_requirement("Name: a\nVersion: 1\n\nbody\n", "torch==2.6.*"),
            "Name: a\nVersion: 1\nRequires-Dist: torch==2.6.*\n\nbody\n");
  EXPECT_EQ(metadata_with_torch_requirement("Name: a\nVersion: 1", "torch==2.6.*"),
            "Name: a\nVersion: 1\nRequires-Dist: torch==2.6.*\n");
}

// The local version an extension gets from its plan: the torch and CUDA first, as torch-scatter's
// per-torch wheels are named, then the arches compiled.
TEST(TorchPin, ExtensionLocalVersionNamesItsTorch) {
  plan::Plan cpu;
  cpu.torch_version = "1.13.1";
  cpu.import_name = "hello_ext";
  std::string err;
  EXPECT_EQ(extension_local_from_plan(cpu), "pt113cpu");
  EXPECT_EQ(apply_local_version("0.1.0", "hello_ext", "auto", &cpu, &err), "0.1.0+pt113cpu");

  plan::Plan cuda;
  cuda.torch_version = "2.6.0+cu124";
  cuda.torch_cuda = "12.4";
  cuda.cuda = plan::CudaChoice::from_text("12.8.93");  // nvcc 12.8 for torch's CUDA 12.4: the wheel belongs with cu124
  cuda.arch_list = *ArchList::parse("8.0;9.0+PTX");
  EXPECT_EQ(extension_local_from_plan(cuda), "pt26cu124.sm80.sm90.ptx");
  EXPECT_EQ(apply_local_version("2.1.2", "torch_scatter", "auto", &cuda, &err), "2.1.2+pt26cu124.sm80.sm90.ptx");
  // A torch plan keeps its own version; a plan without a torch version keeps the old text.
  plan::Plan torch = cuda;
  torch.torch_version = "2.6.0";
  torch.torch_cuda.clear();
  torch.build_version = "2.6.0";
  EXPECT_EQ(apply_local_version("2.6.0", "torch", "auto", &torch, &err), "2.6.0+cu128.sm80.sm90.ptx");
  plan::Plan bare = cuda;
  bare.torch_version.clear();
  EXPECT_EQ(apply_local_version("1.0", "demo", "auto", &bare, &err), "1.0+cu128.sm80.sm90.ptx");
}

}  // namespace
}  // namespace ts::package
