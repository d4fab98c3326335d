// The extension's steps (fetch, fixes of torch's cpp_extension.py and of the package's own tree,
// build, repair, verify), the wheel expected, and the import name and smoke code verify runs.
#include <algorithm>
#include <cctype>

#include "plan/build_remedies.h"
#include "plan/contract.h"
#include "plan/extension_internal.h"
#include "util/split.h"

namespace ts::plan::ext {

namespace {

std::string module_key(std::string s) {
  for (auto& ch : s) ch = ch == '-' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

// A package without a recipe is imported by its distribution's name only when the tree has a package
// or an extension of that name (or setup.py names none); otherwise by the first extension setup.py
// builds (DCNv2's "_ext").
void import_from_tree(Ctx& c, const SourceScan& scan) {
  if (scan.ext_modules.empty()) return;
  std::string guessed = c.p.import_name;
  auto take = [&](const std::string& name, const std::string& why) {
    c.p.import_name = name;
    if (c.p.smoke == "import " + guessed) c.p.smoke = "import " + name;  // the generic smoke
    c.decide("import", name, why, "setup.py", "plan.import");
  };
  // Names match as pip's do (case, '-' and '_' aside), but `import` is exact: the tree's spelling is taken.
  std::string want = module_key(guessed);
  std::vector<std::string> tops = scan.py_packages;
  for (const auto& e : scan.ext_modules) tops.push_back(e.substr(0, e.find('.')));
  for (const auto& t : tops)
    if (module_key(t) == want) {
      if (t != guessed)
        take(t, "the tree's module is spelled " + t + " (an import is case-sensitive; the distribution is " + c.dist_name + ")");
      return;
    }
  const std::string& first = scan.ext_modules.front();
  take(first.substr(0, first.find('.')), "no package or extension named " + c.dist_name +
                                             " in the tree: the first extension setup.py builds (" + first +
                                             ") is what an import can find");
}

// PEP 427: a wheel file name's distribution part has runs of -_. replaced by '_'.
std::string wheel_escape(const std::string& name) {
  std::string o;
  for (char ch : name) {
    bool sep = ch == '-' || ch == '_' || ch == '.';
    if (sep) {
      if (o.empty() || o.back() != '_') o += '_';
    } else {
      o += ch;
    }
  }
  return o;
}


void fetch(Ctx& c) {
  const auto& src = c.req->source;
  const auto& r = *c.recipe;
  using K = ExtensionSource::Kind;
  if (src.kind == K::dir) {
    c.p.source_dir = c.req->source_dir.empty() ? src.dir : c.req->source_dir;
    c.decide("source", c.p.source_dir, "the tree as it is (no fetch)", "the requirement");
    return;
  }
  if (src.kind == K::git) {
    c.p.source_url = src.url;
    c.p.source_ref = src.ref;
  } else {
    // NAME==VERSION: the index's sdist when there is one (what `pip install NAME==VERSION` builds), the
    // recipe's git tag otherwise; --source git|sdist picks one.
    const SdistLookup& sd = c.req->sdist;
    const std::string req = src.name + "==" + src.version;
    bool has_git = !r.git_url.empty() && !r.tag.empty();
    if (c.req->source_kind != "git" && sd.found()) {
      c.p.source_url = sd.url;
      c.p.source_ref = "sha256:" + sd.sha256;  // an archive's identity, in the lock as a commit is for git
      c.p.steps.push_back({"fetch", {"torchsmith", "fetch", "--sdist", sd.url, "--sha256", sd.sha256, "--out", "{src}"},
                           "", "the sdist, its sha256 checked against the index's before it is unpacked"});
      c.decide("source", sd.filename + " (sha256 " + sd.sha256 + ")",
               c.req->source_kind == "sdist" ? "--source sdist" : "the index has an sdist for " + req + " (what pip builds)",
               sd.index.empty() ? "the package index" : sd.index);
      return;
    }
    if (c.req->source_kind == "sdist") {
      c.conflict(req, "--source sdist: " + (sd.error.empty() ? "the index was not asked" : sd.error),
                 {"--source git builds the recipe's git tag", "or give the source: a directory, or its git URL@TAG"},
                 sd.index.empty() ? "the package index" : sd.index);
      return;
    }
    if (!has_git) {
      c.conflict(req, "no recipe says where " + src.name + "'s source lives" +
                          (sd.asked ? " and the index has no sdist (" + sd.error + ")" : ""),
                 {"give its source instead: a directory, or its git URL@TAG",
                  "or add a recipe (packages/" + r.name + ".toml with git and tag) in a --kb overlay"},
                 c.recipe_source());
      return;
    }
    c.p.source_url = r.git_url;
    c.p.source_ref = tag_for(r, src.version.text());
  }
  c.p.steps.push_back({"fetch", {"git", "clone", "--branch", c.p.source_ref, "--recursive", "--shallow-submodules",
                                 "--depth", "1", "--", c.p.source_url, "{src}"},
                       "", "the tag with its submodules (several packages need cutlass, glm ... as submodules)"});
  std::string why = src.kind == K::git          ? "asked for"
                    : c.req->source_kind == "git" ? "--source git: the recipe's tag for " + src.version
                    : c.req->sdist.asked          ? "no sdist (" + c.req->sdist.error + "): the recipe's tag for " + src.version
                                                 : "the recipe's tag for " + src.version;
  c.decide("source", c.p.source_url + "@" + c.p.source_ref, why,
           src.kind == K::git ? "the requirement" : c.recipe_source());
}

}  // namespace

// An extension's steps: fetch (sdist or tag), torch's and the package's own fixes, pip wheel (or
// CMake) against the target torch, repair, verify after import torch.
bool cmake_only_build(const Ctx& c) {
  const auto& scan = c.req->scan;
  return (c.recipe->build_system == "cmake" && !(scan.setup_py || scan.pyproject)) ||
         (scan.scanned && !scan.setup_py && !scan.pyproject && scan.cmake_lists);
}

void build_steps(Ctx& c) {
  if (!c.python) return;
  const auto& r = *c.recipe;
  const auto& scan = c.req->scan;
  fetch(c);
  std::string name = !scan.name.empty() ? scan.name : c.req->source.kind == ExtensionSource::Kind::name
                                                          ? c.req->source.name
                                                          : r.name;
  c.dist_name = wheel_escape(name);
  c.p.import_name = r.import_name.empty() ? c.dist_name : r.import_name;
  c.p.smoke = r.origin.file.empty() && !scan.smoke.empty() ? scan.smoke : r.smoke;
  if (r.origin.file.empty()) import_from_tree(c, scan);  // the generic recipe guessed it from the name
  c.p.runtime_requires = r.runtime_requires;
  std::string site = core::dir_of(c.python->torch.path);
  // torch's fixes edit the installed torch; the package's own edit the fetched tree ({src}).
  Step torch_fix{"fix", {"torchsmith", "fix", site}, "",
                 "torch's own cpp_extension.py at " + site + " (the installed torch the extension builds against), journaled"};
  Step own_fix{"fix-source", {"torchsmith", "fix", "{src}"}, "",
               "the package's own build files, in the tree being built (journaled in {src}/.torchsmith)"};
  for (const auto& f : c.p.fixes) {
    const source::Fix* fx = c.fix_set ? c.fix_set->find(f.id) : nullptr;
    bool own = fx && fx->when.package != "torch";
    (own ? own_fix : torch_fix).argv.insert((own ? own_fix : torch_fix).argv.end(), {"--fix", f.id});
  }
  // A package fix may write the plan's arches into the tree ({{arch_list}}: causal-conv1d-arches).
  if (own_fix.argv.size() > 3 && c.cuda_on && !c.arches.empty())
    own_fix.argv.insert(own_fix.argv.end(), {"--arch", c.arches.torch_cuda_arch_list()});
  if (torch_fix.argv.size() > 3) c.p.steps.push_back(torch_fix);
  if (own_fix.argv.size() > 3) c.p.steps.push_back(own_fix);
  // Without a setup.py or pyproject the CMake project builds a library, not a wheel.
  if (cmake_only_build(c)) {
    Step cfg{"configure", {"cmake", "-S", ".", "-B", "build-torchsmith", "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                           "-DCMAKE_PREFIX_PATH=" + c.python->torch.path + "/share/cmake"},
             "{src}", "find_package(Torch) from the target torch"};
    if (c.cuda_on && !c.arches.empty())
      cfg.argv.push_back("-DCMAKE_CUDA_ARCHITECTURES=" + c.arches.cmake_cuda_architectures());
    c.p.steps.push_back(cfg);
    c.p.steps.push_back({"build", {"cmake", "--build", "build-torchsmith", "-j", std::to_string(c.p.jobs)}, "{src}", ""});
    c.p.artifacts.push_back({"library", "", "build-torchsmith/*.so", "a CMake build: no wheel"});
    c.decide("build", "cmake", "a CMake project without setup.py or pyproject.toml", "the source tree");
    c.p.steps.push_back({"verify", {"torchsmith", "verify", "{src}/build-torchsmith", "--plan", "{lock}", "--preload",
                                    c.python->torch.path + "/lib"},
                         "", "libraries read natively; torch's own libraries resolve from the target torch"});
    return;
  }
  bool setup_py = scan.scanned ? scan.setup_py : r.build_system != "pep517";
  bool pyproject = scan.scanned ? scan.pyproject : r.build_system == "pep517";
  auto argv = build_command(*c.python, setup_py, pyproject, c.req->build_kb ? &c.req->build_kb->legacy_backend : nullptr, c);
  if (argv.empty()) return;
  if (is_frontend(argv))
    use_build_helper(c, "the build step runs torchsmith's PEP 517 frontend from there",
                     "src/run/pyshim/torchsmith_pep517.py");
  c.p.steps.push_back({"build", argv, "{src}", util::join(argv, " ") + ": against the target torch, nothing downloaded"});
  std::string pattern = c.dist_name + "-*.whl";
  const auto [abi, plat] = core::wheel_tags(c);
  c.p.artifacts.push_back({"wheel", "", pattern, "in {src}/dist; tags " + abi + "-" + abi + "-" + plat +
                                                     " for a cpp_extension build"});
  c.decide("artifact", pattern, "the wheel " + util::join(argv, " ") + " writes to dist/", "PEP 427");
  c.p.steps.push_back(core::package_step("torch's libraries are never vendored: the extension finds them through import torch"));
  // What import torch maps (torch/lib/libgomp.so.1 in torch's wheels) answers the extension's NEEDED too.
  if (!c.python->torch.path.empty()) c.p.steps.back().argv.insert(c.p.steps.back().argv.end(), {"--torch-dir", c.python->torch.path});
  bool gpu_test = c.cuda_on && c.facts().driver.present && !c.facts().gpus.empty();
  Step v{"verify", {"torchsmith", "verify", "{wheel}", "--python", c.python->path, "--plan", "{lock}", "--preload",
                    c.python->torch.path + "/lib"},
         "", "in a fresh target dir: import " + c.p.import_name + " after torch and run the smoke op" +
                 (c.cuda_on ? "; the GPU code covers " + c.p.arch_list.torch_cuda_arch_list() : "") +
                 (gpu_test ? "; on the GPU" : c.cuda_on ? "; no GPU test (no driver or GPU here)" : "")};
  if (gpu_test) v.argv.push_back("--gpu");
  // --wheelhouse: the runtime dependencies from there only, as the lock says.
  if (!c.req->wheelhouse.empty()) v.argv.insert(v.argv.end(), {"--wheelhouse", c.req->wheelhouse});
  c.p.steps.push_back(v);
}

}  // namespace ts::plan::ext
