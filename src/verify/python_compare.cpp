#include "verify/python_compare.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "compat/arch_rule.h"
#include "core/arch_list.h"
#include "core/torch_tag.h"
#include "verify/arch_check.h"
#include "verify/config_show.h"

namespace ts::verify {
namespace {

using nlohmann::json;

std::string str_of(const json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
}

bool under(const std::string& path, const std::string& dir) {
  return !dir.empty() && path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 &&
         path[dir.size()] == '/';
}

std::vector<int> release_numbers(const std::string& v) {
  std::vector<int> out;
  std::size_t i = 0;
  while (i < v.size() && std::isdigit(static_cast<unsigned char>(v[i]))) {
    int x = 0;
    while (i < v.size() && std::isdigit(static_cast<unsigned char>(v[i])) && x < 100000)
      x = x * 10 + (v[i++] - '0');
    out.push_back(x);
    if (i + 1 < v.size() && v[i] == '.' && std::isdigit(static_cast<unsigned char>(v[i + 1])))
      ++i;
    else
      break;
  }
  return out;
}

class Judge {
 public:
  Judge(const ScriptRun& run, const JudgeOptions& o) : run_(run), o_(o) {}

  std::vector<Verdict> operator()() {
    const StepResult* imp = value_of("import torch", Check::import_torch);
    if (imp) import_torch(*imp);
    if (imp && is_ext()) torch_of_wheel();
    if (imp && ok("torch facts", Check::torch_facts)) torch_facts(run_.find("torch facts")->value);
    if (imp && is_ext()) extension();
    if (imp) gpu();
    process();
    return std::move(out_);
  }

 private:
  void add(Outcome oc, const CheckName& check, std::string detail) {
    out_.push_back(verdict("", check, oc, std::move(detail)));
  }
  void fail(const CheckName& check, std::string detail) { add(Outcome::fail, check, std::move(detail)); }
  void pass(const CheckName& check, std::string detail) { add(Outcome::pass, check, std::move(detail)); }
  void note(const CheckName& check, std::string detail) { add(Outcome::note, check, std::move(detail)); }
  const std::string& ext_name() const {
    return o_.plan && !o_.plan->import_name.empty() ? o_.plan->import_name : o_.import_name;
  }
  bool is_ext() const { return !ext_name().empty(); }
  const std::string& smoke_code() const { return o_.plan && !o_.plan->smoke.empty() ? o_.plan->smoke : o_.smoke; }
  bool has_smoke() const { return is_ext() && !smoke_code().empty(); }

  // A module the plan warned about: the package imports it and another setup.py of the same tree builds it
  // (plan/build_remedies.cpp: bottom-up-attention's detectron2 submodule, FRNN's prefix_sum). The plan's
  // reason, which names the build to run first; "" for any other module.
  std::string sibling(const std::string& module) const {
    if (!o_.plan || module.empty()) return "";
    for (const auto& d : o_.plan->decisions)
      if (d.topic == "extension" && d.warning && d.value == "imports " + module + ", which this build does not make")
        return d.reason;
    return "";
  }
  // The top-level module of `No module named 'a.b'` in an error text, else "".
  static std::string missing_module(const std::string& error) {
    const std::string key = "No module named '";
    auto at = error.find(key);
    if (at == std::string::npos) return "";
    auto end = error.find('\'', at + key.size());
    std::string m = end == std::string::npos ? "" : error.substr(at + key.size(), end - at - key.size());
    return m.substr(0, m.find('.'));
  }

  // The step's result when it finished well; else nullptr, and a FAIL saying why when it ran.
  const StepResult* value_of(const std::string& step, const CheckName& check) {
    const StepResult* s = run_.find(step);
    if (!s) return nullptr;
    if (!s->finished) {
      std::string p = run_.process_problem();
      fail(check, (p.empty() ? "stopped without a result" : "python " + p) + " during this step");
      blamed_ = true;
      return nullptr;
    }
    if (!s->ok) {
      std::string why = sibling(missing_module(s->error));
      if (!why.empty())
        why = ": the plan warned: " + why;
      else if (missing_module(s->error) == "torch")  // check.py: torch's own module is no dependency
        why = ": a module of torch that this torch (" + str_of(torch_, "version") +
              ") does not have; the package was written for another torch, and no install gives it";
      fail(check, s->error + why);
      return nullptr;
    }
    return s;
  }
  bool ok(const std::string& step, const CheckName& check) {
    return value_of(step, check) != nullptr;
  }

  void import_torch(const StepResult& s) {
    torch_ = s.value;
    std::string file = str_of(s.value, "file"), dir = file.substr(0, file.rfind('/'));
    std::string detail = "torch " + str_of(s.value, "version") + " from " + dir + " (Python " +
                         str_of(s.value, "python") + ")";
    if (!o_.torch_dir.empty() && !under(file, o_.torch_dir))
      fail(Check::import_torch, detail + ": not from the installed wheel under " + o_.torch_dir);
    else
      pass(Check::import_torch, detail);
  }

  // The torch the wheel's version names (+pt113cpu) against the one here: a mismatch is the import
  // failure ("undefined symbol") triage meets most, so it is said before the import is tried.
  void torch_of_wheel() {
    auto tag = parse_torch_tag(o_.wheel_version);
    if (!tag) return;
    const std::string version = str_of(torch_, "version"), cuda = str_of(torch_, "cuda");
    std::string diff = torch_tag_mismatch(*tag, version, cuda);
    std::string built = "torch " + tag->torch() + (tag->cuda.empty() ? " (CPU)" : " (CUDA " + tag->cuda_dotted() + ")");
    if (diff.empty())
      pass(Check::torch_of_wheel, "built for " + built + " (" + tag->text() + "), this environment has torch " + version);
    else
      add(Outcome::warn, Check::torch_of_wheel,
          diff + ": the import may fail (undefined symbol); install torch " + tag->torch() + " here (pip install 'torch==" +
              tag->torch() + ".*') or rebuild the wheel against this torch");
  }

  // torch's build facts against the plan: one check each.
  void torch_facts(const json& f) {
    check_torch_version();
    const std::optional<TorchConfig> cfg = check_config(f);
    check_cuda(cfg);
    check_cudnn(f);
    check_arch_list(f, cfg);
    check_cxx11_abi(f);
    check_build_settings(cfg);
  }

  void check_torch_version() {
    const plan::Plan* p = o_.plan;
    const std::string version = str_of(torch_, "version");
    if (!p) {
      note(Check::torch_version, version + " (no plan to compare with)");
    } else if (!p->build_version.empty() && !is_ext()) {
      if (version == p->build_version)
        pass(Check::torch_version, version);
      else
        fail(Check::torch_version, "plan says " + p->build_version + ", torch reports " + version);
    } else if (!p->torch_version.empty()) {
      auto want = release_numbers(p->torch_version), got = release_numbers(version);
      bool match = got.size() >= want.size() && std::equal(want.begin(), want.end(), got.begin());
      if (match)
        pass(Check::torch_version, version + " (plan: " + p->torch_version + ")");
      else
        fail(Check::torch_version, "plan says " + p->torch_version + ", torch reports " + version);
    } else {
      note(Check::torch_version, version + " (the plan names no version)");
    }
  }

  std::optional<TorchConfig> check_config(const json& f) {
    std::optional<TorchConfig> cfg;
    const json errors = f.contains("errors") ? f["errors"] : json::object();
    if (f.contains("config") && f["config"].is_string()) {
      std::string err;
      cfg = parse_torch_config(f["config"].get<std::string>(), &err);
      if (cfg)
        pass(Check::config, "torch.__config__.show() read: " + std::to_string(cfg->settings.size()) +
                           " build settings");
      else
        fail(Check::config, err);
    } else {
      fail(Check::config, "torch.__config__.show() failed: " + str_of(errors, "config"));
    }
    return cfg;
  }

  void check_cuda(const std::optional<TorchConfig>& cfg) {
    const plan::Plan* p = o_.plan;
    const std::string cuda = str_of(torch_, "cuda");
    std::string cfg_cuda = cfg ? cfg->cuda_runtime : "";
    if (cfg && cfg_cuda.empty() && cfg->settings.count("CUDA_VERSION"))
      cfg_cuda = cfg->settings.at("CUDA_VERSION");
    std::string got = cuda.empty() ? "none" : cuda;
    if (!p) {
      note(Check::cuda, "torch reports CUDA " + got + " (no plan to compare with)");
    } else if (!p->cuda.is_chosen()) {
      if (cuda.empty())
        pass(Check::cuda, "CPU build, as planned");
      else if (is_ext())  // a CUDA torch runs an extension's CPU ops as any torch does
        pass(Check::cuda, "extension built for the CPU; torch has CUDA " + cuda);
      else
        fail(Check::cuda, "plan is for a CPU build, torch reports CUDA " + cuda);
    } else {
      std::string want = p->cuda.major_minor();
      if (cuda.empty())
        fail(Check::cuda, "plan says CUDA " + want + ", torch reports none");
      else if (major_minor(cuda) == want)
        pass(Check::cuda, "CUDA " + cuda);
      else if (is_ext() && release_numbers(cuda).size() && release_numbers(want).size() &&
               release_numbers(cuda)[0] == release_numbers(want)[0])
        note(Check::cuda, "extension built with CUDA " + want + ", torch has CUDA " + cuda +
                         " (same major: compatible)");
      else
        fail(Check::cuda, "plan says CUDA " + want + ", torch reports " + cuda);
    }
    if (!cuda.empty() && cfg && !cfg_cuda.empty() && major_minor(cfg_cuda) != major_minor(cuda))
      note(Check::cuda,
           "torch.__config__ says CUDA runtime " + cfg_cuda + ", torch.version.cuda " + cuda);
  }

  void check_cudnn(const json& f) {
    const plan::Plan* p = o_.plan;
    std::string cudnn;
    if (f.contains("cudnn") && f["cudnn"].is_number_integer())
      cudnn = cudnn_version_text(f["cudnn"].get<long>());
    bool want_cudnn = p && !is_ext() && p->features.count("cudnn") && p->features.at("cudnn");
    bool plan_says_cudnn = p && !is_ext() && p->features.count("cudnn");
    if (plan_says_cudnn && want_cudnn) {
      if (cudnn.empty())
        fail(Check::cudnn, "plan builds with cuDNN, torch.backends.cudnn.version() is None");
      else
        pass(Check::cudnn, "cuDNN " + cudnn);
    } else if (plan_says_cudnn) {
      if (cudnn.empty())
        pass(Check::cudnn, "none, as planned");
      else
        fail(Check::cudnn, "plan builds without cuDNN, torch has cuDNN " + cudnn);
    } else {
      note(Check::cudnn, cudnn.empty() ? "none" : "cuDNN " + cudnn);
    }
  }

  // The compiled-in list (_cuda_getArchFlags), else the config's NVCC flags.
  void check_arch_list(const json& f, const std::optional<TorchConfig>& cfg) {
    const plan::Plan* p = o_.plan;
    arch_sass_.clear(), arch_ptx_.clear();
    std::string flags = str_of(f, "arch_flags");
    if (!flags.empty())
      arch_tokens(flags, arch_sass_, arch_ptx_);
    else if (cfg)
      arch_sass_ = cfg->sass, arch_ptx_ = cfg->ptx;
    std::string have;
    for (const auto& a : arch_sass_) have += (have.empty() ? "" : " ") + a.sm();
    for (const auto& a : arch_ptx_) have += (have.empty() ? "" : " ") + a.compute();
    if (p && !is_ext() && !p->arch_list.empty()) {
      CudaCode code;
      code.present = true, code.sass = arch_sass_, code.ptx = arch_ptx_;
      for (auto v : check_arches(code, p->arch_list, "")) {
        v.check = CheckName(Check::arch_list).id();
        out_.push_back(std::move(v));
      }
    } else if (!is_ext()) {
      note(Check::arch_list, have.empty() ? "none compiled in" : have);
    }
  }

  // A plan pins it through _GLIBCXX_USE_CXX11_ABI in its env or CMake options.
  void check_cxx11_abi(const json& f) {
    const plan::Plan* p = o_.plan;
    const json errors = f.contains("errors") ? f["errors"] : json::object();
    if (f.contains("cxx11_abi") && f["cxx11_abi"].is_boolean()) {
      bool abi = f["cxx11_abi"].get<bool>();
      std::string want;
      if (p && p->env.count("_GLIBCXX_USE_CXX11_ABI"))
        want = p->env.at("_GLIBCXX_USE_CXX11_ABI");
      else if (p && p->cmake_options.count("GLIBCXX_USE_CXX11_ABI"))
        want = p->cmake_options.at("GLIBCXX_USE_CXX11_ABI");
      auto w = setting_truth(want);
      std::string d = std::string("_GLIBCXX_USE_CXX11_ABI=") + (abi ? "1" : "0");
      if (!want.empty() && w && *w != abi)
        fail(Check::cxx11_abi,
             "plan says _GLIBCXX_USE_CXX11_ABI=" + want + ", torch has " + (abi ? "1" : "0"));
      else if (!want.empty() && w)
        pass(Check::cxx11_abi, d);
      else
        note(Check::cxx11_abi, d);
    } else {
      fail(Check::cxx11_abi,
           "torch._C._GLIBCXX_USE_CXX11_ABI unreadable: " + str_of(errors, "cxx11_abi"));
    }
  }

  // The plan's CMake options that torch records (USE_*), value for value.
  void check_build_settings(const std::optional<TorchConfig>& cfg) {
    const plan::Plan* p = o_.plan;
    if (p && !is_ext() && cfg) {
      int same = 0;
      std::vector<std::string> diffs;
      for (const auto& [k, v] : p->cmake_options) {
        auto it = cfg->settings.find(k);
        if (it == cfg->settings.end()) continue;
        auto a = setting_truth(v), b = setting_truth(it->second);
        bool eq = a && b ? *a == *b : v == it->second;
        if (eq)
          ++same;
        else
          diffs.push_back("plan sets " + k + "=" + v + ", torch was built with " + k + "=" +
                          it->second);
      }
      for (auto& d : diffs) fail(Check::build_settings, d);
      if (diffs.empty())
        pass(Check::build_settings,
             std::to_string(same) + " of the plan's options recorded by torch, all as planned");
    } else if (cfg) {
      std::string s;
      for (const char* k : {"USE_CUDA", "USE_CUDNN", "USE_NCCL", "USE_MKLDNN", "USE_OPENMP"})
        if (cfg->settings.count(k))
          s += (s.empty() ? "" : ", ") + std::string(k) + "=" + cfg->settings.at(k);
      note(Check::build_settings, s.empty() ? "none recorded" : s);
    }
  }

  void extension() {
    imported(ext_name());
    for (const auto& m : o_.modules) imported(m);
    for (const auto& s : run_.steps)
      if (s.step.rfind("load ", 0) == 0) loaded(s.step.substr(5));
    if (!o_.gpu) smoke_ran("smoke", Check::smoke, "cpu");
  }

  // A compiled module loaded from its file alone (check.py), after its import did not succeed: the
  // code the build made loads against this torch, whatever stopped the package's Python.
  void loaded(const std::string& name) {
    const CheckName c(Check::load_module, name);
    if (const StepResult* s = value_of(c.id(), c)) {
      std::string by = str_of(s->value, "by");
      pass(c, "from " + str_of(s->value, "file") + (by.empty() ? ", by its file alone (its package's __init__ not run)"
                                                               : ", by " + by));
      loads_ += (loads_.empty() ? "" : ", ") + name;
    }
  }

  // The smoke step: ran, failed, or stopped at another distribution's module. That last is said as
  // itself (needs NAME: the package's own code was not exercised, so no pass) with the smoke skipped.
  void smoke_ran(const std::string& step, Check check, const std::string& device) {
    if (!has_smoke()) return;
    const StepResult* s = value_of(step, check);
    if (!s) return;
    std::string dep = s->value.is_object() ? str_of(s->value, "missing_dependency") : "";
    if (dep.empty()) {
      pass(check, "the plan's smoke code ran on " + device);
      return;
    }
    out_.push_back(skipped(check, "it stopped at an import: needs " + dep + ", not installed"));
    std::string all = smoke_code().substr(0, smoke_code().find_last_not_of("\n") + 1);
    std::string smoke = all.substr(0, all.find('\n'));
    std::string warned = sibling(dep.substr(0, dep.find('.')));
    fail({Check::needs_module, dep},
         "the smoke code (" + smoke + (smoke.size() < all.size() ? " ..." : "") + ") needs " + dep +
             ", which is not installed here (" + str_of(s->value, "error") + "): " +
             (warned.empty() ? "a runtime dependency, not something the build made; the package's own code was not "
                               "exercised: install what provides " + dep + " to verify it"
                             : "the plan warned: " + warned) +
             (loads_.empty() ? "" : "; its compiled code loads by itself (load " + loads_ + ")"));
  }

  // One "import NAME" step: from the installed wheel, or why not.
  void imported(const std::string& name) {
    if (const StepResult* s = value_of("import " + name, {Check::import_module, name})) {
      const json& v = s->value;
      std::string file = v.is_object() ? str_of(v, "file") : v.is_string() ? v.get<std::string>() : "";
      std::string dep = v.is_object() ? str_of(v, "missing_dependency") : "";
      if (v.is_object() && v.contains("not_a_module"))
        note({Check::import_module, name}, "a shared library, not a Python module: " + str_of(v, "not_a_module"));
      else if (!dep.empty() && !sibling(dep).empty())
        add(Outcome::warn, {Check::import_module, name},
            "needs " + dep + ", which is not installed here (" + str_of(v, "error") + "), and which no index gives "
            "for this build: the plan warned: " + sibling(dep));
      else if (!dep.empty())
        add(Outcome::warn, {Check::import_module, name},
            "needs " + dep + ", which is not installed here (" + str_of(v, "error") +
                "): a runtime dependency the wheel does not declare (Requires-Dist), not something the build "
                "made; install it (pip install " + dep + ") to use the package, or name it in the recipe's "
                "runtime_requires so verify installs it; the smoke code runs without the package's import");
      else if (v.is_object() && v.contains("as_subpackage"))
        add(Outcome::warn, {Check::import_module, name},
            "from " + file + " as part of a package only: by its own name it fails (" + str_of(v, "as_subpackage") +
                "), since a `from ..` import in it reaches a sibling the wheel installs as another top-level "
                "package; it was written as a subpackage (of its repository's directory), and imports as one");
      else if (v.is_object() && v.contains("op_library") && (o_.ext_dir.empty() || under(file, o_.ext_dir)))
        pass({Check::import_module, name},
             "loaded by torch.ops.load_library from " + file + ": an op library (no PyInit_" + name +
                 "), which no import can load; the package loads it the same way");
      else if (!o_.ext_dir.empty() && !under(file, o_.ext_dir))
        fail({Check::import_module, name},
             "imported from " + file + ", not from the installed wheel under " + o_.ext_dir);
      else
        pass({Check::import_module, name}, file.empty() ? "imported" : "from " + file);
    }
  }

  void gpu() {
    if (!o_.gpu) {
      add(Outcome::note, Check::gpu, "skipped: not asked for (--gpu runs the GPU checks)");
      return;
    }
    const StepResult* d = value_of("gpu devices", Check::gpu_devices);
    if (!d) return;
    const json& v = d->value;
    int n = v.contains("count") && v["count"].is_number_integer() ? v["count"].get<int>() : 0;
    std::vector<CheckName> later = {Check::gpu_randn, Check::gpu_matmul, {Check::gpu_device, "0"}};
    if (has_smoke()) later.push_back(Check::gpu_smoke);
    if (n <= 0) {
      std::string why = "no GPU visible (torch.cuda.is_available() is False";
      if (v.contains("warnings") && v["warnings"].is_array() && !v["warnings"].empty() &&
          v["warnings"][0].is_string())
        why += ": " + v["warnings"][0].get<std::string>();
      why += ")";
      bool cuda_expected = o_.plan ? o_.plan->cuda.is_chosen() : !str_of(torch_, "cuda").empty();
      if (cuda_expected)
        fail(Check::gpu_devices, why + "; --gpu was asked for a CUDA build");
      else
        out_.push_back(skipped(
            Check::gpu_devices,
            "no GPU (" + std::string(o_.plan ? "the plan is CPU-only" : "CPU-only torch") + ")"));
      for (const auto& c : later) out_.push_back(skipped(c, "no GPU"));
      return;
    }
    std::string names;
    for (int i = 0; i < n && i < static_cast<int>(v["names"].size()); ++i) {
      std::string cap = i < static_cast<int>(v["capabilities"].size())
                            ? v["capabilities"][i].get<std::string>()
                            : "?";
      names += (names.empty() ? "" : ", ") + std::string("cuda:") + std::to_string(i) + " " +
               v["names"][i].get<std::string>() + " (" + cap + ")";
      // A GPU that no compiled-in code runs on: the first kernel would fail with "no kernel image".
      auto a = CudaArch::parse(cap);
      std::vector<CudaArch> code = arch_sass_;
      code.insert(code.end(), arch_ptx_.begin(), arch_ptx_.end());
      bool runs = a && compat::coverage(code, *a) != compat::Coverage::none;
      if (a && !runs && !is_ext() && (!arch_sass_.empty() || !arch_ptx_.empty()))
        fail(Check::gpu_arch, "cuda:" + std::to_string(i) + " is " + a->sm() +
                             ", which no compiled-in arch runs on");
    }
    pass(Check::gpu_devices, std::to_string(n) + " GPU" + (n == 1 ? "" : "s") + ": " + names);
    if (const StepResult* r = value_of("gpu randn", Check::gpu_randn)) {
      const json& x = r->value;
      bool good = x.value("shape", json::array()) == json::array({2, 64, 512}) &&
                  str_of(x, "dtype") == "torch.float16" && x.value("finite", false);
      if (good)
        pass(Check::gpu_randn, "randn(2, 64, 512, float16) on " + str_of(x, "device"));
      else
        fail(Check::gpu_randn, "unexpected result: " + x.dump());
    }
    if (const StepResult* r = value_of("gpu matmul", Check::gpu_matmul)) {
      double diff = r->value.value("max_abs_diff", -1.0);
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.3g", diff);
      if (r->value.value("close", false))
        pass(Check::gpu_matmul,
             std::string("128x256 @ 256x64 matches the CPU (max |diff| ") + buf + ")");
      else
        fail(Check::gpu_matmul, std::string("differs from the CPU result: max |diff| ") + buf);
    }
    for (int i = 0; i < n; ++i) {
      const CheckName c(Check::gpu_device, std::to_string(i));
      if (const StepResult* r = value_of(c.id(), c)) {
        if (r->value.value("equal", false))
          pass(c, "tensor moved to " + str_of(r->value, "device") +
                      " (directly and via cuda:0) and back intact");
        else
          fail(c, "tensor came back different from " + str_of(r->value, "device"));
      }
    }
    smoke_ran("gpu smoke", Check::gpu_smoke, "cuda");
  }

  // What became of the process beyond the steps: killed before a first step, stopped midway, or a
  // crash after the last one.
  void process() {
    if (blamed_) return;
    std::string p = run_.process_problem();
    if (run_.steps.empty()) {
      std::string out = last_line(run_.proc.out);
      if (p.empty())
        p = out.empty() ? "printed no result" : "printed no result (it printed '" + out + "')";
      fail(Check::python, p);
    } else if (!run_.done) {
      fail(Check::python, (p.empty() ? "stopped" : p) + " after step '" + run_.steps.back().step +
                         "'; later checks did not run");
    } else if (!p.empty()) {
      fail(Check::python, p + " after the checks");
    }
  }

  const ScriptRun& run_;
  const JudgeOptions& o_;
  std::string loads_;  // the compiled modules that loaded by their files ("a._C, b._C")
  json torch_;
  std::vector<CudaArch> arch_sass_, arch_ptx_;
  bool blamed_ = false;
  std::vector<Verdict> out_;
};

}  // namespace

Verdict skipped(const CheckName& check, std::string why) {
  return verdict("", check, Outcome::note, "skipped: " + why);
}

bool is_skip(const Verdict& v) {
  return v.outcome == Outcome::note && v.detail.rfind("skipped: ", 0) == 0;
}

std::string major_minor(const std::string& version) {
  std::size_t a = version.find('.');
  if (a == std::string::npos) return version;
  std::size_t b = version.find('.', a + 1);
  return b == std::string::npos ? version : version.substr(0, b);
}

std::vector<Verdict> judge_python_run(const ScriptRun& run, const JudgeOptions& o) {
  // Well-formed JSON of the wrong shape (a fake or broken Python) is a verdict, not a crash.
  try {
    return Judge(run, o)();
  } catch (const nlohmann::json::exception& e) {
    return {verdict("", Check::python, Outcome::fail,
                    std::string("the check script's output has an unexpected shape: ") + e.what())};
  }
}

}  // namespace ts::verify
