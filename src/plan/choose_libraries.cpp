// Where the build finds its libraries: CUDA, cuDNN (incl. pip's nvidia-cudnn), NCCL, MAGMA,
// MKL and the conda env's prefix; a library asked for but absent turns its feature off, said so.
#include "plan/resolve_ctx.h"
#include "plan/toolkit_env.h"

namespace ts::plan::detail {

namespace {

const LibraryFacts* find_lib(const Ctx& c, const std::string& name) {
  const LibraryFacts* best = nullptr;
  for (const auto& l : c.facts().libraries) {
    if (l.name != name) continue;
    // The build Python's own copy (pip nvidia-* wheels, conda packages) first: it is what runs.
    bool mine = c.python && !c.python->prefix.empty() && l.library_dir.rfind(c.python->prefix, 0) == 0;
    if (!best || mine) best = &l;
  }
  return best;
}

void feature_off(Ctx& c, const std::string& name, const std::string& reason, const std::string& source) {
  if (!c.p.features.count(name) || !c.p.features[name]) return;
  c.p.features[name] = false;
  const Feature* f = c.in->build.feature(name);
  if (f) c.p.cmake_options[f->option] = "OFF";
  c.warn("feature", (f ? f->option : name) + "=0", reason, source);
}

// A library the build will not have: the advice for this CPU (build.toml [[library_advice]]); a
// feature it backs is turned off. Where no package exists for the CPU, that is a decision, not a warning.
void missing(Ctx& c, const std::string& library, const std::string& value, const std::string& cuda_tag) {
  const LibraryAdvice* a = c.in->build.advice(library, c.facts().cpu.arch);
  std::string text = a ? a->advice : library + " was not found";
  for (std::size_t at; (at = text.find("{cuda_tag}")) != std::string::npos;) text.replace(at, 10, cuda_tag);
  std::string src = a ? cite(a->source, a->origin) : "facts";
  if (c.p.features.count(library)) {
    if (!c.p.features[library]) return;
    c.p.features[library] = false;
    const Feature* f = c.in->build.feature(library);
    if (f) c.p.cmake_options[f->option] = "OFF";
    std::string v = (f ? f->option : library) + "=0";
    if (a && a->absent_is_normal) c.decide("feature", v, text, src);
    else c.warn("feature", v, text, src);
    return;
  }
  if (a && a->absent_is_normal) c.decide("library", value, text, src);
  else c.warn("library", value, text, src);
}

// The install prefix of a library directory: ".../mkl/2023.0.0/lib/intel64" -> ".../mkl/2023.0.0".
std::string prefix_of(std::string dir) {
  for (const char* tail : {"/lib/intel64", "/lib64", "/lib"}) {
    std::string t(tail);
    if (dir.size() > t.size() && dir.compare(dir.size() - t.size(), t.size(), t) == 0) return dir.substr(0, dir.size() - t.size());
  }
  return dir_of(dir);
}

std::string major_of(const FactVersion& v) { return v.parsed() ? std::to_string(v.parsed()->major()) : ""; }

void cudnn(Ctx& c) {
  if (!c.p.features["cudnn"]) return;
  const LibraryFacts* l = find_lib(c, "cudnn");
  if (!c.provisioned_cudnn.empty()) {  // NVIDIA's cuDNN archive merged into the provisioned toolkit (none installed fits)
    c.set_env("CUDNN_INCLUDE_DIR", c.p.cuda_home + "/include", "cuDNN " + c.provisioned_cudnn + " headers, provisioned with CUDA");
    c.set_env("CUDNN_LIBRARY", c.p.cuda_home + "/lib/libcudnn.so", "cuDNN " + c.provisioned_cudnn + ", provisioned with CUDA");
    return;
  }
  if (!l) {
    feature_off(c, "cudnn", "cuDNN was not found: torch builds without it ('-- Not using cuDNN'), slow convolutions; "
                "install it (pip install nvidia-cudnn-cu" + std::to_string(c.p.cuda.version()->major()) + " or libcudnn-dev) and plan again",
                "facts");
    feature_off(c, "static-cudnn", "no cuDNN", "facts");
    return;
  }
  bool pip = l->source.rfind("pip:", 0) == 0;
  std::string lib = l->library_dir + "/libcudnn.so" + (pip ? "." + major_of(l->version) : "");
  c.set_env("CUDNN_INCLUDE_DIR", l->include_dir, "cuDNN " + l->version + " headers (" + l->source + ")");
  c.set_env("CUDNN_LIBRARY", lib, "cuDNN " + l->version + std::string(pip ? " from pip's nvidia-cudnn: its library has only a "
            "versioned name, so FindCUDNN is given the file" : ""));
  if (pip)
    c.set_env("CUDNN_LIBRARY_PATH", lib, "the same file under the name FindCUDNN sets");
  if (pip && c.p.features["static-cudnn"])
    feature_off(c, "static-cudnn", "pip's nvidia-cudnn has no static libraries: cuDNN is linked dynamically", l->source);
}

}  // namespace

void choose_libraries(Ctx& c) {
  // A CMake list (';'): setup.py forwards it as -DCMAKE_PREFIX_PATH after prepending site-packages.
  std::string prefixes, why;
  if (c.python && c.python->env_kind == "conda" && !c.python->prefix.empty()) {
    c.set_env("CONDA_PREFIX", c.python->prefix, "the build Python's conda env, as when it is activated");
    prefixes = c.python->prefix;
    why = "the conda env's prefix, where its MKL, magma and headers are found (${CONDA_PREFIX})";
  }
  const LibraryFacts* mkl = find_lib(c, "mkl");
  if (mkl && (prefixes.empty() || mkl->library_dir.rfind(prefixes, 0) != 0)) {
    prefixes += (prefixes.empty() ? "" : ";") + prefix_of(mkl->library_dir);
    why += std::string(why.empty() ? "" : "; ") + "MKL " + mkl->version + " installed outside the Python env (" + mkl->source +
           ", oneAPI MKL)";
  }
  if (!prefixes.empty()) c.set_env("CMAKE_PREFIX_PATH", prefixes, why);
  if (mkl)
    c.decide("library", "MKL " + mkl->version + " (" + mkl->library_dir + ")", "found by CMake through the prefix path", "facts");
  else
    missing(c, "mkl", "no MKL", "");
  if (c.skipped_for_cuda("library", "where CUDA, cuDNN, NCCL and MAGMA are found, and what to install")) return;
  if (!c.cuda_on || !c.toolkit) return;
  // build.toml's entry (torch's own use of the variable) is the better source where it has one.
  for (const auto& e : toolkit_env(c.p.cuda_home))
    c.set_env(e.name, e.value, e.reason, c.in->build.env_var(e.name, c.torch_version()) ? "" : e.source);
  cudnn(c);
  if (c.p.features["nccl"]) {
    if (const LibraryFacts* n = find_lib(c, "nccl")) {
      c.set_env("NCCL_ROOT_DIR", dir_of(n->library_dir), "NCCL " + n->version + " (" + n->source + ")");
    } else {
      c.decide("library", "NCCL from third_party/nccl (NCCL_ROOT_DIR unset)",
               "no system NCCL: torch builds its bundled copy" +
                   std::string(c.p.features["static-nccl"] ? ", linked statically" : "") +
                   "; NCCL_ROOT_DIR (official builds: /usr/local/cuda) is read only with USE_SYSTEM_NCCL",
               "pytorch/pytorch@v2.6.0:tools/setup_helpers/cmake.py; pytorch/builder@release/2.4:manywheel/build_cuda.sh");
    }
  }
  if (c.p.features["magma"]) {
    if (const LibraryFacts* m = find_lib(c, "magma")) {
      std::string tag = "magma-cuda" + c.p.cuda.cu_tag().substr(2);  // "cu128" -> "magma-cuda128"
      c.set_env("MAGMA_HOME", prefix_of(m->library_dir), "MAGMA " + m->version + " (" + m->source + "); it must be the " +
                tag + " build, matching CUDA " + c.cuda_mm());
    } else {
      std::string tag = "cuda" + c.p.cuda.cu_tag().substr(2);  // builder's "cuda128"
      missing(c, "magma", "", tag);
    }
  }
}

}  // namespace ts::plan::detail
