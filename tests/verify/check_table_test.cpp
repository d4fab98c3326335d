// The verify-check table (verify/check.h): every check id a verify run reports is a row, no row is
// left without a check that makes it, and no check reports worse than the row's worst outcome.
#include "verify/check.h"

#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "core/arch_list.h"
#include "testkit/temp_dir.h"
#include "verify/cuda_runtime.h"
#include "verify/python_compare.h"
#include "verify/verify.h"

namespace ts::verify {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// `name` as a whole word in `text`: Check::cuda is not Check::cuda_arches nor HostsCheck::cuda.
bool uses(const std::string& text, const std::string& name) {
  const auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (auto at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
    const char before = at > 0 ? text[at - 1] : ' ';
    const char next = at + name.size() < text.size() ? text[at + name.size()] : ' ';
    if (!word(before) && !word(next)) return true;
  }
  return false;
}

int rank(Outcome o) { return static_cast<int>(o); }  // pass < note < warn < fail

StepResult ok(std::string step, json value) { return {std::move(step), true, true, std::move(value), ""}; }

// A check script's run with every step answered: torch (and the extension) imported, facts read,
// the GPU steps for two GPUs.
ScriptRun full_run(bool ext, bool good) {
  ScriptRun r;
  r.done = true;
  r.steps.push_back(ok("import torch", {{"file", "/site/torch/__init__.py"}, {"version", good ? "2.6.0" : "2.5.1"},
                                        {"python", "3.12.3"}, {"cuda", "12.8"}}));
  r.steps.push_back(ok("torch facts", {{"config", good ? "PyTorch built with:\n  - CUDA Runtime 12.8\n  - Build settings: USE_CUDA=ON, USE_CUDNN=ON, \n"
                                                       : "garbage"},
                                       {"cudnn", 90100}, {"arch_flags", "-gencode compute=compute_90,code=sm_90"},
                                       {"cxx11_abi", good}}));
  if (ext) {
    r.steps.push_back(ok("import ext", {{"file", "/site/ext/__init__.py"}}));
    r.steps.push_back(ok("import other", {{"file", "/elsewhere/other.py"}}));
    r.steps.push_back(ok("smoke", json(nullptr)));
  }
  r.steps.push_back(ok("gpu devices", {{"count", 2}, {"names", {"H100", "A100"}}, {"capabilities", {"9.0", "8.0"}}}));
  r.steps.push_back(ok("gpu randn", {{"shape", {2, 64, 512}}, {"dtype", "torch.float16"}, {"finite", good}, {"device", "cuda:0"}}));
  r.steps.push_back(ok("gpu matmul", {{"close", good}, {"max_abs_diff", 0.001}}));
  r.steps.push_back(ok("gpu cuda:0", {{"equal", good}, {"device", "cuda:0"}}));
  r.steps.push_back(ok("gpu cuda:1", {{"equal", true}, {"device", "cuda:1"}}));
  if (ext) r.steps.push_back(ok("gpu smoke", json(nullptr)));
  return r;
}

// What verify reports over a spread of runs: torch and extension, passing and failing, with and
// without --gpu and a plan, a GPU-less machine, a crashed script; ELF files and a wheel.
std::vector<Verdict> emitted() {
  std::vector<Verdict> all;
  const auto take = [&](std::vector<Verdict> vs) { all.insert(all.end(), vs.begin(), vs.end()); };
  plan::Plan torch_plan;
  torch_plan.torch_version = "2.6";
  torch_plan.build_version = "2.6.0";
  torch_plan.cuda = plan::CudaChoice::from_text("12.8");
  torch_plan.arch_list = *ArchList::parse("8.0;9.0");
  torch_plan.features = {{"cudnn", true}};
  torch_plan.cmake_options = {{"USE_CUDA", "ON"}, {"USE_CUDNN", "OFF"}};
  torch_plan.env = {{"_GLIBCXX_USE_CXX11_ABI", "1"}};
  plan::Plan ext_plan;
  ext_plan.torch_version = "2.6";
  ext_plan.cuda = plan::CudaChoice::from_text("12.8");
  ext_plan.import_name = "ext";
  ext_plan.smoke = "import ext";
  for (bool good : {true, false})
    for (bool gpu : {true, false}) {
      JudgeOptions t;
      t.gpu = gpu;
      t.torch_dir = good ? "/site" : "/elsewhere";
      take(judge_python_run(full_run(false, good), t));
      t.plan = &torch_plan;
      take(judge_python_run(full_run(false, good), t));
      JudgeOptions e;
      e.gpu = gpu;
      e.plan = &ext_plan;
      e.ext_dir = "/site";
      e.modules = {"other"};
      e.wheel_version = good ? "0.1+pt26cu128" : "0.1+pt113cpu";
      take(judge_python_run(full_run(true, good), e));
    }
  // VoGE's shape: the package's import stops on a module no wheel gives, its compiled module loads by
  // its file, the smoke stops at the same import (load NAME, needs NAME); a compiled module that does not load.
  ScriptRun needs = full_run(true, true);
  for (auto& s : needs.steps)
    if (s.step == "import ext") s.value = {{"file", nullptr}, {"missing_dependency", "dep3d"}, {"error", "No module named 'dep3d'"}};
    else if (s.step == "smoke" || s.step == "gpu smoke") s.value = {{"missing_dependency", "dep3d"}, {"error", "No module named 'dep3d'"}};
  needs.steps.push_back(ok("load ext._C", {{"file", "/site/ext/_C.so"}}));
  needs.steps.push_back({"load ext._D", true, false, nullptr, "ImportError: undefined symbol: x"});
  for (bool gpu : {true, false}) {
    JudgeOptions e;
    e.gpu = gpu;
    e.plan = &ext_plan;
    e.ext_dir = "/site";
    take(judge_python_run(needs, e));
  }
  ScriptRun no_gpu = full_run(false, true);
  for (auto& s : no_gpu.steps)
    if (s.step == "gpu devices") s.value = {{"count", 0}};
  JudgeOptions g;
  g.gpu = true;
  take(judge_python_run(no_gpu, g));
  ScriptRun crashed;
  crashed.steps.push_back({"import torch", false, false, nullptr, ""});
  take(judge_python_run(crashed, {}));
  ScriptRun no_facts = full_run(false, true);
  for (auto& s : no_facts.steps)
    if (s.step == "torch facts") s.ok = false, s.error = "AttributeError";
  take(judge_python_run(no_facts, {}));
  take(judge_python_run(ScriptRun{}, {}));
  take({skipped(Check::dependencies, "not asked")});

  testkit::TempDir dir("check-table");
  const std::string not_elf = dir.path() + "/not.so", bad_wheel = dir.path() + "/x-1-py3-none-any.whl";
  std::ofstream(not_elf) << "text";
  std::ofstream(bad_wheel) << std::string("PK\x03\x04", 4) << "truncated";
  std::vector<std::string> files = {not_elf, bad_wheel};
  for (const char* lib : {"/lib/x86_64-linux-gnu/libstdc++.so.6", "/usr/lib/x86_64-linux-gnu/libstdc++.so.6"})
    if (fs::exists(lib)) files.push_back(lib);
  VerifyOptions o;
  o.arches = ArchList::parse("9.0", nullptr, nullptr);
  VerifyReport rep = verify_files(files, o);
  take(rep.verdicts);
  FileFacts ext_lib;
  ext_lib.path = "ext.so";
  ext_lib.needed = {"libcudart.so.12"};
  ext_lib.cuda = CudaCode{};
  ext_lib.cuda->releases = {"12.8"};
  rep.files.push_back(ext_lib);
  take(check_cuda_runtime(rep, "12.8"));
  take(check_cuda_runtime(rep, "13.0"));
  return all;
}

TEST(CheckTable, RowsAreUniqueDescribedAndFoundByTheirIds) {
  std::set<std::string_view> ids;
  std::size_t i = 0;
  for (const auto& row : check_table()) {
    EXPECT_EQ(static_cast<std::size_t>(row.check), i++) << row.id;
    EXPECT_TRUE(ids.insert(row.id).second) << "two rows for " << row.id;
    EXPECT_FALSE(row.description.empty()) << row.id;
    EXPECT_EQ(&check_info(row.check), &row);
    const std::string shown = CheckName(row.check, row.named ? "x" : "").id();
    ASSERT_NE(find_check(shown), nullptr) << shown;
    EXPECT_EQ(find_check(shown)->check, row.check) << shown;
  }
  // A named check's id is its fixed part and a name; an exact row wins over a named one.
  EXPECT_EQ(CheckName(Check::dependency, "scipy").id(), "dependency scipy");
  EXPECT_EQ(CheckName(Check::gpu_device, "1").id(), "gpu cuda:1");
  EXPECT_TRUE(is_check("import torch", Check::import_torch));
  EXPECT_TRUE(is_check("import simple_knn", Check::import_module));
  EXPECT_EQ(find_check("import "), nullptr);  // a named check without its name
  EXPECT_EQ(find_check("no such check"), nullptr);
}

TEST(CheckTable, EveryCheckAVerifyRunReportsIsARowAndStaysWithinItsWorstOutcome) {
  std::set<Check> seen;
  for (const auto& v : emitted()) {
    const CheckInfo* row = find_check(v.check);
    ASSERT_NE(row, nullptr) << "'" << v.check << "' is reported but not in verify/check.h";
    EXPECT_LE(rank(v.outcome), rank(row->worst))
        << v.check << " gave " << outcome_name(v.outcome) << ", its row says at worst " << outcome_name(row->worst);
    seen.insert(row->check);
  }
  // The runs above reach every row that reads no pip (those need a Python and an index: install_deps_test).
  for (const auto& row : check_table()) {
    if (row.reads == Reads::pip || row.check == Check::install || row.check == Check::wheel_metadata ||
        row.check == Check::modules || row.check == Check::library)
      continue;
    EXPECT_TRUE(seen.count(row.check)) << row.enumerator << ": no run above reported it";
  }
}

// The sources that report verify's checks: each row is made by some check (no orphan), and no
// verdict is made from a spelled-out check id instead of the table (no unlisted).
TEST(CheckTable, EveryRowIsUsedAndNoCheckIsSpelledOutsideTheTable) {
  const fs::path src = fs::path(TS_SOURCE_DIR) / "src";
  std::string all;
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(src))
    if (e.path().extension() == ".cpp" && e.path().filename() != "check.cpp") files.push_back(e.path());
  for (const auto& f : files) all += slurp(f);
  for (const auto& row : check_table())
    EXPECT_TRUE(uses(all, "Check::" + std::string(row.enumerator)))
        << row.enumerator << " is in the table but no check reports it";
  // A Verdict braced from a literal check id: {file, "id", Outcome::...} (verdict(...) is the way).
  const std::regex literal(R"(\{[^{};]*,\s*"[^"]*"\s*,\s*[^,;]*Outcome::)");
  for (const auto& sub : {"verify", "cli", "report", "run"})
    for (const auto& e : fs::directory_iterator(src / sub)) {
      if (e.path().extension() != ".cpp") continue;
      const std::string text = slurp(e.path());
      EXPECT_FALSE(std::regex_search(text, literal)) << e.path() << " makes a Verdict with a literal check id";
    }
}

}  // namespace
}  // namespace ts::verify
