// The steps (fetch, fix, clean, configure/build, package, verify), the rest of the environment
// (PATH, build type, package variables, features for setup.py) and the expected artifacts.
#include <algorithm>

#include "plan/extension_internal.h"
#include "plan/resolve_ctx.h"
#include "plan/steps.h"

namespace ts::plan::detail {

namespace {

const char* kDefaultRepo = "https://github.com/pytorch/pytorch";

std::string fill(std::string s, const Ctx& c) {
  auto rep = [&](const std::string& k, const std::string& v) {
    for (auto p = s.find(k); p != std::string::npos; p = s.find(k, p + v.size())) s.replace(p, k.size(), v);
  };
  rep("{python}", c.p.python.empty() ? "python3" : c.p.python);
  rep("{dist}", "dist");
  rep("{build}", "build-libtorch");
  return s;
}

// PATH: a provisioned CMake/ninja first (its cache bin/ holds only that tool, and setup.py takes
// the first cmake on PATH: the build Python's dir may be /usr/bin, with an older one), then the
// build Python's bin (its cmake, ninja, pip), CMake and ninja; the core adds the toolkit, the
// compiler and the system's.
void set_path(Ctx& c) {
  std::vector<std::string> dirs;
  for (const auto& s : c.provision_steps)
    if (s.name == "provision-cmake") dirs.push_back(dir_of(c.cmake_path));
    else if (s.name == "provision-ninja") dirs.push_back(dir_of(c.ninja_path));
  if (c.python) dirs.push_back(dir_of(c.python->path));
  dirs.push_back(dir_of(c.cmake_path));
  dirs.push_back(dir_of(c.ninja_path));
  core::set_path(c, dirs, "only the directories of the chosen tools and the system's: nothing else from the shell "
                 "reaches the build");
}

void fetch(Ctx& c) {
  const auto& spec = c.spec();
  auto ref = spec::parse_source(spec.source);
  if (!ref.dir.empty()) {
    c.p.source_dir = ref.dir;
    c.p.steps.push_back({"fetch", {"torchsmith", "fetch", "--source", ref.dir}, "",
                         "the tree at " + ref.dir + " as it is; submodules checked and completed (incomplete ones are "
                         "the commonest failure)"});
    return;
  }
  c.p.source_url = ref.url.empty() ? kDefaultRepo : ref.url;
  c.p.source_ref = ref.ref.empty() ? "v" + c.version() : ref.ref;
  // Our own fetch, not a bare `git clone`: it resumes an interrupted clone and repairs submodules.
  c.p.steps.push_back({"fetch", {"torchsmith", "fetch", c.p.source_url + "@" + c.p.source_ref, "--dir", "{src}"},
                       "", "the release tag with every submodule, checked complete"});
}

void build(Ctx& c) {
  const auto& spec = c.spec();
  std::string type = spec::build_type_name(spec.build_type);
  bool setup_py = spec.wants("wheel") || spec.wants("conda");
  if (setup_py) {
    if (spec.build_type == spec::BuildType::debug) c.set_env("DEBUG", "1", "a Debug build (-O0 -g), asked for");
    if (spec.build_type == spec::BuildType::relwithdebinfo)
      c.set_env("REL_WITH_DEB_INFO", "1", "a RelWithDebInfo build, asked for");
    for (const auto& [name, on] : c.p.features)
      if (const Feature* f = c.in->build.feature(name)) c.p.env[f->option] = on ? "1" : "0";
    if (c.cuda_on && c.release->version >= *Version::parse("2.0"))
      c.warn("triton", "not built by setup.py",
             "torch.compile (TorchDynamo/Inductor) needs Triton, which the torch build does not make: run `make triton` "
             "in the tree, or pip install the triton version pinned in .ci/docker/triton_version.txt",
             "pytorch/pytorch@v2.6.0:.ci/docker/triton_version.txt");
    c.decide("env", "USE_*/BUILD_* from the features", "setup.py forwards every USE_*/BUILD_* variable to CMake as -D",
             "pytorch/pytorch@v2.6.0:tools/setup_helpers/cmake.py");
  }
  // A conda package is made from the wheel (torchsmith conda), so conda needs the wheel built too.
  for (const char* kind : {"wheel"}) {
    if (!spec.wants("wheel") && !spec.wants("conda")) continue;
    const Invocation* inv = c.in->build.invocation(c.torch_version(), kind);
    if (!inv) {
      c.conflict(std::string(kind) + " build of torch " + c.version(), "build.toml names no build command for it",
                 {"add an [[invocation]] to build.toml in a --kb overlay"}, "build.toml");
      continue;
    }
    Step s{"build", {}, "{src}", ""};
    for (const auto& a : inv->command) s.argv.push_back(fill(a, c));
    s.note = std::string(kind) == "wheel"
                 ? "configure + build + wheel in one; not 'setup.py install', whose custom install command fails with "
                   "'file INSTALL cannot set permissions on /usr/local/include'"
                 : "setup.py install into the conda build prefix, as the official conda builds do";
    c.decide("build", [&] { std::string j; for (auto& a : s.argv) j += (j.empty() ? "" : " ") + a; return j; }(),
             std::string(kind) + " build command of torch " + c.release->version.original(), cite(inv->source, inv->origin));
    c.p.steps.push_back(s);
  }
  if (spec.wants("libtorch")) {
    Step cfg{"configure", {c.cmake_path.empty() ? "cmake" : c.cmake_path, "-S", ".", "-B", "build-libtorch", "-G",
                           c.ninja_path.empty() ? "Unix Makefiles" : "Ninja"},
             "{src}", "libtorch straight through CMake: no Python bindings, shared libraries"};
    c.p.cmake_options["BUILD_PYTHON"] = "OFF";
    c.p.cmake_options["BUILD_SHARED_LIBS"] = "ON";
    c.p.cmake_options["CMAKE_BUILD_TYPE"] = type;
    c.p.cmake_options["CMAKE_INSTALL_PREFIX"] = "{src}/build-libtorch/libtorch";
    // CMake splits the environment's CMAKE_PREFIX_PATH on ':'; the plan's is a ';' list, so pass it as -D.
    if (c.p.env.count("CMAKE_PREFIX_PATH")) c.p.cmake_options["CMAKE_PREFIX_PATH"] = c.p.env.at("CMAKE_PREFIX_PATH");
    if (c.release) c.p.cmake_options["CMAKE_CXX_STANDARD"] = std::to_string(c.release->cxx_standard);
    if (c.cuda_on && !c.arches.empty()) c.p.cmake_options["CMAKE_CUDA_ARCHITECTURES"] = c.arches.cmake_cuda_architectures();
    for (const auto& [k, v] : c.p.cmake_options) cfg.argv.push_back("-D" + k + "=" + v);
    c.p.steps.push_back(cfg);
    const Invocation* inv = c.in->build.invocation(c.torch_version(), "libtorch");
    Step b{"build", {}, "{src}", "build and install into build-libtorch/libtorch"};
    if (inv)
      for (const auto& a : inv->command) b.argv.push_back(fill(a, c));
    b.argv.insert(b.argv.end(), {"-j", std::to_string(c.p.jobs)});
    if (!b.argv.empty()) b.argv[0] = c.cmake_path.empty() ? b.argv[0] : c.cmake_path;
    c.p.steps.push_back(b);
  }
  c.decide("build", type, spec.origin_of("build_type") == "default" ? "the default" : "asked for", spec.origin_of("build_type"));
}

void artifacts(Ctx& c) {
  const auto& spec = c.spec();
  const auto [abi, plat] = core::wheel_tags(c);
  std::string mm = c.release->version.major_minor();
  // A package's name carries the CUDA (+cu<XY>, _cuda<X.Y>): none while the CUDA is a conflict.
  bool packaged = spec.wants("wheel") || spec.wants("conda");
  bool named = !(packaged && c.skipped_for_cuda("artifact", "the package's name"));
  if (named && spec.wants("wheel")) {
    std::string name = "torch-" + c.p.build_version + "-" + abi + "-" + abi + "-" + plat + ".whl";
    c.p.artifacts.push_back({"wheel", name, "torch-" + mm + ".*-" + abi + "-" + abi + "-" + plat + ".whl", "in {src}/dist"});
    c.decide("artifact", name, "the wheel name from PYTORCH_BUILD_VERSION and the build Python's tags", "PEP 427");
  }
  if (named && spec.wants("conda")) {
    std::string py = c.python ? c.python->version.parsed()->major_minor() : "3.X";
    std::string cudnn;
    for (const auto& l : c.facts().libraries)
      if (l.name == "cudnn") cudnn = l.version;
    std::string bs = "py" + py + (c.cuda_on ? "_cuda" + c.p.cuda.text() + "_cudnn" + cudnn : "_cpu") + "_0";
    std::string name = "pytorch-" + c.version() + "-" + bs + ".tar.bz2";
    c.p.artifacts.push_back({"conda", name, "pytorch-" + c.version() + "-py" + py + "_*.tar.bz2", "build string " + bs});
    c.decide("artifact", name, "official build string py<X.Y>_cuda<toolkit>_cudnn<cuDNN>_<conda build number 0>",
             "pytorch/builder@release/2.4:conda/build_pytorch.sh");
    c.set_env("PACKAGE_TYPE", "conda", "an official-style conda package");
    c.set_env("DESIRED_PYTHON", py, "the package's Python");
    if (c.cuda_on && c.p.cuda.is_chosen()) c.set_env("DESIRED_CUDA", c.p.cuda.cu_tag(),
                             "the package's CUDA in builder's spelling");
  }
  if (spec.wants("libtorch"))
    c.p.artifacts.push_back({"libtorch", "", "build-libtorch/libtorch/lib/libtorch.so", "the installed C++ library tree"});
  // The libraries every torch build must contain (what verify and ldd look at).
  std::vector<std::string> libs{"libc10.so", "libtorch.so", "libtorch_cpu.so"};
  if (c.cuda_on) {
    libs.push_back("libc10_cuda.so");
    libs.push_back("libtorch_cuda.so");
    if (c.p.features.count("split-cuda") && c.p.features["split-cuda"]) {
      libs.push_back("libtorch_cuda_cu.so");
      libs.push_back("libtorch_cuda_cpp.so");
    }
  }
  if (spec.wants("wheel") || spec.wants("conda")) {
    libs.push_back("libtorch_python.so");
    std::string tag = abi.rfind("cp", 0) == 0 ? abi.substr(2) : abi;
    c.p.artifacts.push_back({"library", "torch/_C.cpython-" + tag + "-" + c.facts().cpu.arch + "-linux-gnu.so", "", "the Python extension"});
  }
  for (const auto& l : libs) c.p.artifacts.push_back({"library", "torch/lib/" + l, "", ""});
}

void package_and_verify(Ctx& c) {
  const auto& spec = c.spec();
  bool wheel = spec.wants("wheel") || spec.wants("conda");
  if (wheel)
    c.p.steps.push_back(core::package_step("RPATHs as the official wheels, NEEDED checked, tags from the symbol "
                                           "versions, RECORD rewritten"));
  if (spec.wants("conda")) {
    // `torchsmith conda` reads the same [[rpath]] entries; the note shows them for review.
    std::string rpaths;
    for (const auto& r : c.in->build.rpaths)
      if (r.package == "conda")
        for (const auto& f : r.files) rpaths += (rpaths.empty() ? "" : ", ") + f + "=" + r.rpath;
    c.p.steps.push_back({"conda", {"torchsmith", "conda", "{wheel}", "-o", "{dist}", "--plan", "{lock}"}, "",
                         "the conda package from the wheel: RPATHs as the official conda package (" + rpaths +
                             "), build string py<X.Y>_cuda<A.B.C>_cudnn<D>_<N>"});
  }
  int gpus = static_cast<int>(c.facts().gpus.size());
  // On Tegra no NVML answers and nvidia-smi may be absent: the CUDA runtime (torch.cuda) is the
  // test (tegra.toml [[gpu_access]]), so a missing desktop driver does not skip it.
  const auto& access = c.in->kb.tegra_gpu_access;
  bool tegra_test = c.facts().jetson.present && !access.empty() && access.back().test_through == "torch.cuda" &&
                    std::any_of(c.facts().gpus.begin(), c.facts().gpus.end(), [](const GpuFacts& g) { return g.integrated; });
  bool gpu_test = c.cuda_on && (c.facts().driver.present || tegra_test) && gpus > 0;
  Step v{"verify", {"torchsmith", "verify"}, "", ""};
  if (wheel) v.argv.push_back("{wheel}");
  if (spec.wants("libtorch")) v.argv.push_back("{src}/build-libtorch/libtorch/lib/libtorch.so");
  if (wheel && !c.p.python.empty()) v.argv.insert(v.argv.end(), {"--python", c.p.python});
  v.argv.insert(v.argv.end(), {"--plan", "{lock}"});
  if (gpu_test) v.argv.push_back("--gpu");
  v.note = "in a fresh environment: torch.__version__ == " + c.p.build_version +
           "; torch.__config__.show() agrees with the plan (CUDA, arch flags" +
           (c.cuda_on && c.p.features["cudnn"] ? ", cuDNN" : "") + (c.cuda_on && c.p.features["magma"] ? ", magma" : "") +
           "); the GPU code covers " + (c.cuda_on ? c.p.arch_list.torch_cuda_arch_list() : std::string("nothing (a CPU build)")) +
           "; every library's NEEDED resolves" +
           (gpu_test ? std::string("; torch.cuda.is_available() and torch.randn(2, 64, 512, device='cuda', "
                                   "dtype=torch.float16)") + (gpus > 1 ? "; a tensor moved to cuda:1" : "") +
                         (tegra_test ? "; on Tegra through torch.cuda, not NVML (" + access.back().reason + ")" : "")
                     : c.cuda_on ? "; no GPU test (no driver loaded here)" : "");
  c.p.steps.push_back(v);
}

}  // namespace

// A torch build's steps: PATH, fetch (resumed, submodules completed), the KB fixes, a stale build/
// cleaned, setup.py or CMake, the wheel/conda/libtorch artifacts, repair, conda, verify.
void build_steps(Ctx& c) {
  set_path(c);
  fetch(c);
  if (!c.p.fixes.empty()) {
    Step s{"fix", {"torchsmith", "fix", "{src}"}, "", "anchored, journaled edits; --revert undoes them"};
    for (const auto& f : c.p.fixes) s.argv.insert(s.argv.end(), {"--fix", f.id});
    c.p.steps.push_back(s);
  }
  c.p.steps.push_back({"clean", {"torchsmith", "clean", "--if-stale", "{src}/build", "--plan", "{lock}"}, "",
                       "a build/ configured differently is removed first: a stale one makes the next build fail"});
  build(c);
  artifacts(c);
  package_and_verify(c);
}

}  // namespace ts::plan::detail

namespace ts::plan::steps {

// plan.steps, one rule for every kind: fetch, fix, build, repair the wheel (core::package_step) and
// verify, with provision steps put before the compiles by core::run. The commands are the kind's: a
// torch build runs torch's own setup.py/CMake; an extension builds against an installed torch.
void choose_steps(Ctx& c) {
  if (c.kind == core::kTorchBuild)
    detail::build_steps(c);
  else
    ext::build_steps(c);
}

}  // namespace ts::plan::steps
