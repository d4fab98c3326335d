// Target-only arches for packages with their own -gencode list (causal-conv1d, mamba-ssm): the
// arch fixes are selected for the versions their anchor was checked at, rewrite the fake setup.py
// trees (tests/fixtures/trees/{causal-conv1d-1.6.1,mamba-ssm-1.0.0}) so that running them prints
// exactly the plan's -gencode flags, and the planner says whether the arches are steered.
#include "plan/speed_arches.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <tuple>

#include "extension_fakes.h"
#include "plan/extension.h"
#include "plan/speed_fixes.h"
#include "tree_testkit.h"
#include "source/apply.h"
#include "util/process.h"

namespace ts::plan {
namespace {

using namespace testing;
namespace fs = std::filesystem;


source::FixContext ctx(const std::string& pkg, const std::string& version,
                       const std::string& arches = "9.0") {
  source::FixContext c;
  c.package = pkg;
  c.version = FactVersion(version);
  c.cuda = "13.0";
  c.gcc = "12.2.0";
  if (!arches.empty()) c.arches = ArchList::parse(arches)->arches();
  return c;
}

TEST(SpeedArches, FixesSelectedForEveryCheckedTagAndNothingElse) {
  using V = std::vector<std::string>;
  const auto& set = test_fixes();
  for (const char* v : {"1.0.0", "1.2.0.post2", "1.5.0.post8", "1.6.1", "1.6.1.post4"})
    EXPECT_EQ(ids(select_package_fixes(set, ctx("causal-conv1d", v))), V{"causal-conv1d-arches"})
        << v;
  EXPECT_EQ(ids(select_package_fixes(set, ctx("causal-conv1d", "1.6.2"))), V{});  // not checked
  EXPECT_EQ(ids(select_package_fixes(set, ctx("causal-conv1d", "0.9"))), V{});
  EXPECT_EQ(ids(select_package_fixes(set, ctx("causal-conv1d", ""))), V{});  // unknown: no guess
  for (const char* v : {"1.0.0", "1.2.2", "2.0.4", "2.2.6.post3", "2.3.2.post1"})
    EXPECT_EQ(ids(select_package_fixes(set, ctx("mamba-ssm", v))), V{"mamba-ssm-arches"}) << v;
  EXPECT_EQ(ids(select_package_fixes(set, ctx("mamba-ssm", "2.3.3"))), V{});
  for (const char* v : {"2.0.0", "2.0.0.post1", "2.2.4", "2.5.6", "2.6.3", "2.7.2.post1"})
    EXPECT_EQ(ids(select_package_fixes(set, ctx("flash-attn", v))), V{"flash-attn-arches"}) << v;
  EXPECT_EQ(ids(select_package_fixes(set, ctx("flash-attn", "2.7.3"))), V{});  // FLASH_ATTN_CUDA_ARCHS
  EXPECT_EQ(ids(select_package_fixes(set, ctx("flash-attn", "1.0.9"))), V{});
  // Without arches there is nothing to write: the fix is left out.
  EXPECT_EQ(ids(select_package_fixes(set, ctx("mamba-ssm", "2.3.2", ""))), V{});
  ASSERT_NE(set.find("causal-conv1d-arches"), nullptr);
  EXPECT_TRUE(fix_sets_arches(*set.find("causal-conv1d-arches")));
  EXPECT_TRUE(fix_sets_arches(*set.find("mamba-ssm-arches")));
  EXPECT_TRUE(fix_sets_arches(*set.find("flash-attn-arches")));
  EXPECT_FALSE(fix_sets_arches(*set.find("torch-scatter-ninja")));
  EXPECT_FALSE(fix_enables_ninja(*set.find("mamba-ssm-arches")));
}

// Runs the (patched) fake setup.py, which prints its nvcc flags one a line.
std::vector<std::string> nvcc_flags(const std::string& tree) {
  auto r = util::run({"/usr/bin/python3", tree + "/setup.py"}, {});
  EXPECT_TRUE(r.ok()) << r.err;
  std::vector<std::string> out;
  std::istringstream in(r.out);
  for (std::string l; std::getline(in, l);)
    if (!l.empty()) out.push_back(l);
  return out;
}

// "-gencode=arch=X,code=Y" (ArchList's spelling) as setup.py's two list items.
std::vector<std::string> planned_flags(const std::string& arches) {
  std::vector<std::string> out;
  for (const auto& g : ArchList::parse(arches)->gencode_flags()) {
    out.push_back("-gencode");
    out.push_back(g.substr(std::string("-gencode=").size()));
  }
  return out;
}

void patched_setup_compiles_only_the_plan(const std::string& tree_name, const std::string& pkg,
                                          const std::string& version,
                                          std::vector<std::string> before) {
  if (!fs::exists("/usr/bin/python3")) GTEST_SKIP() << "no /usr/bin/python3";
  ScratchDir s;
  std::string tree = copy_tree(tree_name, s);
  std::string original = slurp(tree + "/setup.py");
  auto hardcoded = nvcc_flags(tree);
  EXPECT_EQ(hardcoded, before);  // the fake's own list, as upstream's shape builds it
  const std::string arches = "8.6;9.0a;12.0+PTX";
  auto c = ctx(pkg, version, arches);
  auto chosen = select_package_fixes(test_fixes(), c);
  ASSERT_EQ(chosen.size(), 1u);
  auto r1 = source::apply_fixes(tree, chosen, c);
  ASSERT_TRUE(r1.ok) << (r1.errors.empty() ? "" : r1.errors[0]);
  EXPECT_EQ(r1.changed_files, std::vector<std::string>{"setup.py"});
  auto flags = nvcc_flags(tree);
  // The package's own non-arch flags stay, before and after where its -gencode list was.
  auto first = std::find(before.begin(), before.end(), "-gencode");
  auto last = std::find(before.rbegin(), before.rend(), "-gencode").base() + 1;
  ASSERT_TRUE(first != before.end() && last <= before.end());
  std::vector<std::string> want(before.begin(), first);
  std::vector<std::string> planned{"-gencode", "arch=compute_86,code=sm_86", "-gencode",
                                   "arch=compute_90a,code=sm_90a", "-gencode", "arch=compute_120,code=sm_120",
                                   "-gencode", "arch=compute_120,code=compute_120"};
  EXPECT_EQ(planned_flags(arches), planned);
  want.insert(want.end(), planned.begin(), planned.end());
  want.insert(want.end(), last, before.end());
  EXPECT_EQ(flags, want);
  auto r2 = source::apply_fixes(tree, chosen, c);
  ASSERT_TRUE(r2.ok);
  EXPECT_TRUE(r2.changed_files.empty());
  ASSERT_TRUE(source::revert_fixes(tree).ok);
  EXPECT_EQ(slurp(tree + "/setup.py"), original);
}

TEST(SpeedArches, CausalConv1dSetupPyCompilesOnlyThePlannedArches) {
  patched_setup_compiles_only_the_plan(
      "causal-conv1d-1.6.1", "causal-conv1d", "1.6.1",
      {"-O3", "--use_fast_math", "-gencode", "arch=compute_75,code=sm_75", "-gencode",
       "arch=compute_80,code=sm_80", "-gencode", "arch=compute_90,code=sm_90", "-gencode",
       "arch=compute_121,code=sm_121"});
}

TEST(SpeedArches, MambaSetupPyCompilesOnlyThePlannedArches) {
  patched_setup_compiles_only_the_plan(
      "mamba-ssm-1.0.0", "mamba-ssm", "1.0.0",
      {"-O3", "-std=c++17", "-gencode", "arch=compute_70,code=sm_70", "-gencode",
       "arch=compute_80,code=sm_80", "-gencode", "arch=compute_90,code=sm_90"});
}

TEST(SpeedArches, FlashAttnSetupPyCompilesOnlyThePlannedArches) {
  // Its --threads (append_nvcc_threads) stays after the arches; the ROCm branch is not touched.
  patched_setup_compiles_only_the_plan(
      "flash-attn-2.7.2", "flash-attn", "2.7.2",
      {"-O3", "-std=c++17", "-gencode", "arch=compute_80,code=sm_80", "-gencode", "arch=compute_90,code=sm_90",
       "--threads", "4"});
}

// `torchsmith fix --fix ID` alone has no arches: the patched setup.py stops with the fix named.
TEST(SpeedArches, AppliedWithoutArchesTheSetupPyStopsInsteadOfCompilingGarbage) {
  if (!fs::exists("/usr/bin/python3")) GTEST_SKIP() << "no /usr/bin/python3";
  for (auto [tree_name, pkg, version] : {std::tuple{"mamba-ssm-1.0.0", "mamba-ssm", "1.0.0"},
                                         {"flash-attn-2.7.2", "flash-attn", "2.7.2"}}) {
    ScratchDir s;
    std::string tree = copy_tree(tree_name, s);
    const std::string id = std::string(pkg) + "-arches";
    const source::Fix* f = test_fixes().find(id);
    ASSERT_NE(f, nullptr) << id;
    ASSERT_TRUE(source::apply_fixes(tree, {f}, ctx(pkg, version, "")).ok) << id;
    auto r = util::run({"/usr/bin/python3", tree + "/setup.py"}, {});
    EXPECT_FALSE(r.ok()) << id;
    EXPECT_NE(r.err.find(id + " was applied without an arch list (--arch)"), std::string::npos) << r.err;
  }
}

// torch 2.11+cu130 with nvcc 13.0 and an H100, as on the GPU machine.
HostFacts gpu_machine() {
  auto py = fake_python("2.11.0+cu130", "13.0");
  py.torch.arch_list = GpuCodeList::read({"sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120"});
  auto f = fake_host(py, {"13.0"}, {"9.0"});
  f.memory.usable_bytes = 118 * kGiB;
  f.cpu.logical_cores = 16;
  return f;
}


const Recipe& shipped(const std::string& name) {
  static const RecipeSet rs = [] {
    std::vector<std::string> errors;
    return load_recipes({}, errors);
  }();
  const Recipe* r = rs.find(name);
  EXPECT_NE(r, nullptr) << name;
  return *r;
}

// The arch decisions about steering (choose_arches' own "arch" decision says where the list came
// from).
std::vector<const Decision*> arch_decisions(const Plan& p) {
  std::vector<const Decision*> out;
  for (const auto& d : p.decisions)
    if (d.topic == "arch" && (d.value.find("(through fix ") != std::string::npos ||
                              d.value.find("(not steered)") != std::string::npos))
      out.push_back(&d);
  return out;
}

std::string all_conflicts(const PlanResult& r) {
  std::string s;
  for (const auto& c : r.conflicts) s += c.what + ": " + c.why + "\n";
  return s;
}

TEST(SpeedArches, ACheckedVersionIsSteeredThroughItsFix) {
  for (auto [pkg, version] : {std::pair{"causal-conv1d", "1.6.1"}, {"mamba-ssm", "2.3.2.post1"}}) {
    auto r = make_extension_plan(by_name(pkg, version), gpu_machine(), test_kb(), shipped(pkg),
                                 &test_fixes());
    ASSERT_TRUE(r.ok()) << all_conflicts(r);
    EXPECT_EQ(r.plan.arch_list.torch_cuda_arch_list(), "9.0");
    ASSERT_EQ(r.plan.fixes.size(), 1u) << pkg;
    EXPECT_EQ(r.plan.fixes[0].id, std::string(pkg) + "-arches");
    auto ds = arch_decisions(r.plan);
    ASSERT_EQ(ds.size(), 1u) << pkg;
    EXPECT_EQ(ds[0]->value, "9.0 (through fix " + std::string(pkg) + "-arches)");
    EXPECT_FALSE(ds[0]->warning);
    EXPECT_NE(ds[0]->reason.find("has no arch knob"), std::string::npos) << ds[0]->reason;
    // No knob: nothing but TORCH_CUDA_ARCH_LIST (for cpp_extension) carries the arches in the
    // environment.
    EXPECT_EQ(r.plan.env.count(""), 0u);
    EXPECT_EQ(r.plan.env.at("TORCH_CUDA_ARCH_LIST"), "9.0");
  }
}

TEST(SpeedArches, AnUncheckedOrUnknownVersionIsAWarningWithTheWayOut) {
  auto r = make_extension_plan(by_name("causal-conv1d", "1.6.2"), gpu_machine(), test_kb(),
                               shipped("causal-conv1d"), &test_fixes());
  ASSERT_TRUE(r.ok()) << all_conflicts(r);
  EXPECT_TRUE(r.plan.fixes.empty());
  auto ds = arch_decisions(r.plan);
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_TRUE(ds[0]->warning);
  EXPECT_EQ(ds[0]->value, "9.0 (not steered)");
  const std::string& why = ds[0]->reason;
  EXPECT_NE(why.find("passes its own -gencode list"), std::string::npos) << why;
  EXPECT_NE(why.find("causal-conv1d 1.6.2 is not among the versions checked (causal-conv1d-arches: "
                     "1.0.0 to 1.6.1)"),
            std::string::npos)
      << why;
  EXPECT_NE(why.find("causal-conv1d-arches"), std::string::npos) << why;
  EXPECT_NE(why.find("causal-conv1d==VERSION"), std::string::npos) << why;
  EXPECT_NE(why.find("--kb overlay"), std::string::npos) << why;
  EXPECT_EQ(r.plan.env.count(""), 0u);

  // A directory whose version cannot be read: no fix on a guess, and the plan says so.
  auto scan = cuda_only_scan();
  scan.name = "causal_conv1d";
  auto d = make_extension_plan(dir_request(scan), gpu_machine(), test_kb(),
                               shipped("causal-conv1d"), &test_fixes());
  ASSERT_TRUE(d.ok()) << all_conflicts(d);
  auto dd = arch_decisions(d.plan);
  ASSERT_EQ(dd.size(), 1u);
  EXPECT_TRUE(dd[0]->warning);
  EXPECT_NE(dd[0]->reason.find("the version being built is not known"), std::string::npos)
      << dd[0]->reason;

  // No fix KB at all: still a warning, and only the overlay is offered.
  auto n = make_extension_plan(by_name("mamba-ssm", "2.3.2"), gpu_machine(), test_kb(),
                               shipped("mamba-ssm"), nullptr);
  ASSERT_TRUE(n.ok()) << all_conflicts(n);
  auto nd = arch_decisions(n.plan);
  ASSERT_EQ(nd.size(), 1u);
  EXPECT_TRUE(nd[0]->warning);
  EXPECT_NE(nd[0]->reason.find("none in the knowledge base does"), std::string::npos)
      << nd[0]->reason;
  EXPECT_EQ(nd[0]->reason.find("==VERSION"), std::string::npos) << nd[0]->reason;
}

TEST(SpeedArches, APackageWithAnArchKnobNeedsNoSteeringDecision) {
  Recipe fa = recipe_generic("flash-attn");
  fa.cuda_only = true;
  fa.arch_env = "FLASH_ATTN_CUDA_ARCHS";
  fa.arch_format = "semicolon-sm";
  auto r = make_extension_plan(dir_request(cuda_only_scan()), gpu_machine(), test_kb(), fa,
                               &test_fixes());
  ASSERT_TRUE(r.ok()) << all_conflicts(r);
  EXPECT_EQ(r.plan.env.at("FLASH_ATTN_CUDA_ARCHS"), "90");
  EXPECT_TRUE(arch_decisions(r.plan).empty());
}

TEST(SpeedArches, AKnobReadOnlyFromSomeVersionOnSteersOnlyThoseVersions) {
  const Recipe& fa = shipped("flash-attn");
  ASSERT_TRUE(fa.arch_env_since);
  ASSERT_EQ(fa.arch_env_since->original(), "2.7.3");
  auto knob = [&](const Plan& p) {
    for (const auto& d : p.decisions)
      if (d.topic == "arch" && d.value.rfind("9.0 (", 0) == 0) return &d;
    return static_cast<const Decision*>(nullptr);
  };
  auto planned = [&](const char* version) {
    auto r = make_extension_plan(by_name("flash-attn", version), gpu_machine(), test_kb(), fa, &test_fixes());
    EXPECT_TRUE(r.ok()) << version << ": " << all_conflicts(r);
    return r;
  };
  // 2.7.3 reads FLASH_ATTN_CUDA_ARCHS: the knob carries the arches, nothing to warn about.
  auto now = planned("2.7.3");
  EXPECT_EQ(now.plan.env.at("FLASH_ATTN_CUDA_ARCHS"), "90");
  EXPECT_EQ(knob(now.plan), nullptr);
  // 2.6.3 compiles its own sm_80/sm_90 whatever the variable says: its fix steers it.
  auto old = planned("2.6.3");
  const Decision* d = knob(old.plan);
  ASSERT_NE(d, nullptr);
  EXPECT_FALSE(d->warning);
  EXPECT_EQ(d->value, "9.0 (through fix flash-attn-arches)");
  EXPECT_NE(d->reason.find("FLASH_ATTN_CUDA_ARCHS is read only from 2.7.3 on; fix flash-attn-arches puts"),
            std::string::npos) << d->reason;
  ASSERT_EQ(old.plan.fixes.size(), 1u);
  EXPECT_EQ(old.plan.fixes[0].id, "flash-attn-arches");
  // 1.0.9 is older than any tag the fix was checked at: not steered, and the plan says so.
  auto v1 = planned("1.0.9");
  const Decision* n = knob(v1.plan);
  ASSERT_NE(n, nullptr);
  EXPECT_TRUE(n->warning);
  EXPECT_EQ(n->value, "9.0 (not steered)");
  EXPECT_NE(n->reason.find("FLASH_ATTN_CUDA_ARCHS is read only from 2.7.3 on"), std::string::npos) << n->reason;
  EXPECT_NE(n->reason.find("flash-attn 1.0.9 is not among the versions checked (flash-attn-arches: "), std::string::npos)
      << n->reason;
  // A tree of unknown version: it may or may not read it, and the plan says which way out.
  auto dir = make_extension_plan(dir_request(cuda_only_scan()), gpu_machine(), test_kb(), fa, &test_fixes());
  ASSERT_TRUE(dir.ok()) << all_conflicts(dir);
  const Decision* u = knob(dir.plan);
  ASSERT_NE(u, nullptr);
  EXPECT_TRUE(u->warning);
  EXPECT_EQ(u->value, "9.0 (if it reads FLASH_ATTN_CUDA_ARCHS)");
  EXPECT_NE(u->reason.find("flash-attn==VERSION"), std::string::npos) << u->reason;
}

TEST(SpeedArches, ABadSinceVersionIsARecipeError) {
  std::vector<Recipe> set;
  auto errors = parse_recipes_text("x.toml",
                                   "[[package]]\nname = \"x\"\nimport = \"x\"\ngit = \"https://github.com/a/x\"\n"
                                   "build_system = \"setuptools\"\narch_env = \"X_ARCHS\"\narch_env_since = \"soon\"\n"
                                   "smoke = \"import x; x.op(device)\"\nsource = \"test\"\n",
                                   set);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("x.toml:7: package: arch_env_since: 'soon' is not a version"), std::string::npos) << errors[0];
}

}  // namespace
}  // namespace ts::plan
