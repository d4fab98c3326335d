// collect_files on a build tree: the produced libraries, never what CMake keeps for itself under
// CMakeFiles/ (compiler-id executables, try-compile outputs, object files).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "testkit/temp_dir.h"
#include "verify/verify.h"

namespace ts::verify {
namespace {

namespace fs = std::filesystem;

void elf(const std::string& path) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << std::string("\x7f" "ELF\x02\x01\x01", 7) << std::string(57, '\0');
}

TEST(CollectFiles, ABuildTreeGivesItsLibrariesNotCMakesOwnFiles) {
  testkit::TempDir dir{"ts-collect"};
  const std::string tree = dir / "build-torchsmith";
  elf(tree + "/libdemo.so");
  elf(tree + "/sub/libpart.so");
  elf(tree + "/CMakeFiles/3.28.3/CompilerIdCXX/a.out");
  elf(tree + "/CMakeFiles/3.28.3/CompilerIdCUDA/a.out");
  elf(tree + "/CMakeFiles/CMakeScratch/TryCompile-abc/cmTC_1.so");
  elf(tree + "/CMakeFiles/demo.dir/demo.cpp.o");
  elf(tree + "/sub/CMakeFiles/part.dir/part.cpp.o");
  std::string err;
  auto files = collect_files({tree}, &err);
  ASSERT_TRUE(files) << err;
  EXPECT_EQ(*files, (std::vector<std::string>{tree + "/libdemo.so", tree + "/sub/libpart.so"}));
  // Asked for by name, a file under CMakeFiles is still checked: only the walk leaves them out.
  auto one = collect_files({tree + "/CMakeFiles/3.28.3/CompilerIdCXX/a.out"}, &err);
  ASSERT_TRUE(one) << err;
  EXPECT_EQ(one->size(), 1u);
}

}  // namespace
}  // namespace ts::verify
