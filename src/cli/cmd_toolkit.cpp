// torchsmith toolkit: the CUDA toolkits, CMake and ninja torchsmith provisions into its cache
// (list, add, remove, path). The run's provision step is `toolkit add`.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/knowledge.h"
#include "kb/kb.h"
#include "plan/lock.h"
#include "plan/provision_request.h"
#include "provision/provision.h"
#include "util/cache_dir.h"

namespace ts::cli {

namespace {

namespace fs = std::filesystem;

struct ToolkitOptions {
  std::string spec, from = "pip", cache_dir, lock, purpose = "extension", cudnn;
  bool json = false;
};

// "redist", "redist:MIRROR", "conda", "conda:CHANNEL" -> {"redist", MIRROR}; {"pip", ""} otherwise.
std::pair<std::string, std::string> split_from(const std::string& from) {
  for (const char* via : {"redist", "conda"}) {
    std::string v = via;
    if (from == v) return {v, ""};
    if (from.rfind(v + ":", 0) == 0 && from.size() > v.size() + 1) return {v, from.substr(v.size() + 1)};
  }
  return {"pip", ""};
}

std::string env(const char* n) {
  const char* v = std::getenv(n);
  return v ? v : "";
}

std::string root_of(const ToolkitOptions& o) {
  return util::cache_dir(o.cache_dir);
}

// "cuda==13.2", "cuda==13.2.86", "cmake==3.31.6" -> the catalog entry; nullptr and *error otherwise.
const plan::ToolRelease* lookup(const plan::ProvisionCatalog& cat, const std::string& spec, std::string* error,
                                const std::string& via = "pip") {
  auto eq = spec.find("==");
  std::string kind = eq == std::string::npos ? "" : spec.substr(0, eq);
  std::string version = eq == std::string::npos ? "" : spec.substr(eq + 2);
  if (kind != "cuda" && kind != "cmake" && kind != "ninja") {
    *error = "'" + spec + "': write KIND==VERSION with KIND cuda, cmake or ninja (cuda==13.0, cmake==3.31.6)";
    return nullptr;
  }
  auto parsed = Version::parse(version);  // the user's flag: the CLI is its parse edge
  const plan::ToolRelease* t = parsed ? cat.find(kind, *parsed, via) : nullptr;
  if (!t) {
    std::string known;
    for (const auto& r : cat.tools)
      if (r.kind == kind && r.via == via) known += (known.empty() ? "" : ", ") + r.version.original();
    *error = "'" + spec + "': provision.toml has no " + kind + " " + version + (via == "pip" ? "" : " from " + via) +
             " (known: " + known + "; add one in a --kb overlay)";
  }
  return t;
}

bool load(const GlobalOptions& g, plan::ProvisionCatalog& cat) {
  const auto& [catalog, errors] = g.knowledge().provision();
  cat = catalog;
  if (!errors.empty()) {
    std::fprintf(stderr, "torchsmith toolkit: the knowledge base has errors: %s\n", errors.front().c_str());
    return false;
  }
  return true;
}

int run_list(const ToolkitOptions& o) {
  std::string root = root_of(o);
  auto all = provision::list_cached(root);
  if (o.json) {
    nlohmann::json j = {{"cache", root}, {"toolkits", nlohmann::json::array()}};
    for (const auto& m : all) {
      nlohmann::json w = nlohmann::json::array();
      for (const auto& p : m.wheels)
        w.push_back({{"name", p.name}, {"version", p.version}, {"sha256", p.sha256}, {"file", p.file}});
      j["toolkits"].push_back({{"kind", m.kind}, {"version", m.version}, {"provider", m.provider}, {"from", m.from},
                               {"platform", m.platform}, {"dir", m.dir}, {"wheels", w},
                               {"missing", provision::missing_files(m.kind, m.dir)}});
    }
    std::cout << j.dump(2) << "\n";
    return 0;
  }
  if (all.empty()) {
    std::printf("no provisioned toolkits in %s (torchsmith toolkit add cuda==13.0 makes one)\n", root.c_str());
    return 0;
  }
  std::printf("%s\n", root.c_str());
  for (const auto& m : all) {
    auto missing = provision::missing_files(m.kind, m.dir);
    std::printf("  %-6s %-10s %-10s %s%s\n", m.kind.c_str(), m.version.c_str(), m.provider.c_str(), m.dir.c_str(),
                missing.empty() ? "" : ("  (damaged: no " + missing.front() + ")").c_str());
  }
  return 0;
}

int run_add(const GlobalOptions& g, const ToolkitOptions& o) {
  plan::ProvisionCatalog cat;
  if (!load(g, cat)) return 2;
  std::string err;
  auto [via, mirror] = split_from(o.from);
  const plan::ToolRelease* t = lookup(cat, o.spec, &err, via);
  if (!t) {
    std::fprintf(stderr, "torchsmith toolkit add: %s\n", err.c_str());
    return 2;
  }
  if (o.purpose != "extension" && o.purpose != "torch") {
    std::fprintf(stderr, "torchsmith toolkit add: --for %s: write extension or torch\n", o.purpose.c_str());
    return 2;
  }
  plan::ToolRelease rel = *t;
  if (o.purpose == "torch") rel.wheels.insert(rel.wheels.end(), t->torch_parts.begin(), t->torch_parts.end());
  if (!o.cudnn.empty()) {
    // cuDNN's archive from its own manifest, merged into the same CUDA_HOME (a torch build's).
    const plan::ToolRelease* d = nullptr;
    for (const auto& x : cat.tools)
      if (x.kind == "cudnn" && (x.version.original() == o.cudnn || x.release == o.cudnn)) d = &x;
    if (via != "redist" || o.purpose != "torch" || !d) {
      std::string known;
      for (const auto& x : cat.tools)
        if (x.kind == "cudnn") known += (known.empty() ? "" : ", ") + x.version.original();
      std::fprintf(stderr, "torchsmith toolkit add: --cudnn %s: %s\n", o.cudnn.c_str(),
                   !d ? ("provision.toml has no cuDNN " + o.cudnn + " (known: " + known + ")").c_str()
                      : "cuDNN comes with --from redist[:MIRROR] --for torch only");
      return 2;
    }
    rel.wheels.insert(rel.wheels.end(), d->wheels.begin(), d->wheels.end());
  }
  std::string root = root_of(o);
  if (root.empty()) {
    std::fprintf(stderr, "torchsmith toolkit add: no cache directory (no $HOME): give --cache-dir DIR\n");
    return 2;
  }
  std::unique_ptr<provision::WheelProvider> p;
  if (via != "pip") {
    std::string given = mirror;
    mirror = provision::mirror_setting(mirror, cat.mirror(via));  // --from's, $TORCHSMITH_TOOLKIT_MIRROR, provision.toml [mirror]
    if (!mirror.empty() && !provision::Mirror{mirror}.is_url()) {
      if (!fs::is_directory(mirror)) {
        std::string whence = !given.empty() ? "--from " + o.from
                             : mirror != cat.mirror(via) ? "$TORCHSMITH_TOOLKIT_MIRROR " + mirror
                                                         : "provision.toml [mirror] " + via + " = " + mirror + " (" + cat.mirror_origin + ")";
        std::fprintf(stderr, "torchsmith toolkit add: %s: no such directory\n", whence.c_str());
        return 2;
      }
      mirror = fs::absolute(mirror).lexically_normal().string();
    }
    auto stall = std::chrono::seconds(60);
    if (auto s = env("TORCHSMITH_TOOLKIT_STALL_S"); !s.empty() && s.find_first_not_of("0123456789") == std::string::npos && s.size() < 6)
      stall = std::chrono::seconds(std::max(1, std::stoi(s)));
    if (via == "redist") p = std::make_unique<provision::RedistProvider>(t->manifest, mirror, stall);
    else p = std::make_unique<provision::CondaProvider>(mirror.empty() ? t->channel : mirror, stall);
  } else if (o.from == "pip") {
    p = std::make_unique<provision::PipProvider>(env("TORCHSMITH_PIP_PYTHON").empty() ? "python3" : env("TORCHSMITH_PIP_PYTHON"));
  } else if (o.from.rfind("wheelhouse:", 0) == 0 && o.from.size() > 11) {
    std::string dir = fs::absolute(o.from.substr(11)).lexically_normal().string();
    if (!fs::is_directory(dir)) {
      std::fprintf(stderr, "torchsmith toolkit add: --from %s: no such directory\n", o.from.c_str());
      return 2;
    }
    p = std::make_unique<provision::WheelhouseProvider>(dir);
  } else {
    std::fprintf(stderr, "torchsmith toolkit add: --from %s: write pip, wheelhouse:DIR, redist[:MIRROR] or conda[:CHANNEL]\n",
                 o.from.c_str());
    return 2;
  }
  // A lock a run has filled pins each wheel's sha256: the files (or the cached directory) must match.
  std::vector<plan::WheelPin> expect;
  if (!o.lock.empty()) {
    auto lock = plan::read_lock(o.lock, &err);
    if (!lock) {
      std::fprintf(stderr, "torchsmith toolkit add: --lock %s\n", err.c_str());
      return 2;
    }
    std::string want = plan::provisioned_dir(root, rel.kind, rel.version.original(), rel.wheels, provision::host_platform());
    for (const auto& x : lock->provisioned)
      if (x.kind == t->kind && x.version == t->version.original() && (x.dir == want || x.provider == p->name()))
        for (const auto& w : x.wheels) expect.push_back({w.name, w.version, w.sha256, w.file});
  }
  std::string platform = provision::host_platform();
  auto r = provision::ensure(rel, *p, root, platform, &err, expect);
  if (!r) {
    std::fprintf(stderr, "torchsmith toolkit add: %s %s: %s\n", t->kind.c_str(), t->version.original().c_str(), err.c_str());
    return t->complete ? 1 : 2;
  }
  std::printf("%s %s %s %s (%.2f s)\n", t->kind.c_str(), t->version.original().c_str(), r->cached ? "cached" : "provisioned",
              r->dir.c_str(), r->seconds);
  for (const auto& w : r->manifest.wheels)
    std::printf("  %s==%s sha256:%s %s\n", w.name.c_str(), w.version.c_str(), w.sha256.c_str(), w.file.c_str());
  int pinned = static_cast<int>(std::count_if(expect.begin(), expect.end(), [](const auto& w) { return !w.sha256.empty(); }));
  if (pinned) std::printf("  %d sha256 checked against the lock %s\n", pinned, o.lock.c_str());
  return 0;
}

int run_path_or_remove(const GlobalOptions& g, const ToolkitOptions& o, bool remove) {
  plan::ProvisionCatalog cat;
  if (!load(g, cat)) return 2;
  std::string err;
  const plan::ToolRelease* t = lookup(cat, o.spec, &err);
  const char* cmd = remove ? "remove" : "path";
  if (!t) {
    std::fprintf(stderr, "torchsmith toolkit %s: %s\n", cmd, err.c_str());
    return 2;
  }
  std::string root = root_of(o);
  std::string dir = plan::provisioned_dir(root, t->kind, t->version.original(), t->wheels, provision::host_platform());
  // Not from PyPI: the same version from NVIDIA's archives or conda, for an extension or a torch build.
  for (const char* via : {"redist", "conda"}) {
    const plan::ToolRelease* other = provision::read_manifest(dir) ? nullptr : cat.find(t->kind, t->version, via);
    if (!other) continue;
    auto all = other->wheels;
    all.insert(all.end(), other->torch_parts.begin(), other->torch_parts.end());
    std::vector<std::vector<plan::WheelPin>> sets{other->wheels, all};
    for (const auto& d : cat.tools)  // a torch build's with cuDNN's archive merged in
      if (d.kind == "cudnn" && std::string(via) == "redist") {
        sets.push_back(all);
        sets.back().insert(sets.back().end(), d.wheels.begin(), d.wheels.end());
      }
    for (const auto& parts : sets) {
      std::string d = plan::provisioned_dir(root, other->kind, other->version.original(), parts, provision::host_platform());
      if (provision::read_manifest(d)) dir = d;
    }
  }
  if (!provision::read_manifest(dir)) {
    // The cache is per --cache-dir: one provisioned elsewhere is only found with the same option.
    std::fprintf(stderr,
                 "torchsmith toolkit %s: %s %s is not provisioned in %s (%s); `torchsmith toolkit add %s%s` "
                 "provisions it there, and one provisioned by a plan or build with --cache-dir DIR is found "
                 "with the same --cache-dir DIR\n",
                 cmd, t->kind.c_str(), t->version.original().c_str(), root.c_str(),
                 o.cache_dir.empty() ? "the default cache" : "--cache-dir", o.spec.c_str(),
                 o.cache_dir.empty() ? "" : (" --cache-dir " + o.cache_dir).c_str());
    return 1;
  }
  if (!remove) {
    std::printf("%s\n", dir.c_str());
    return 0;
  }
  // The manifest goes first: a removal cut short leaves a directory that is no longer taken for a toolkit.
  std::error_code ec;
  fs::remove(dir + "/" + provision::kManifest, ec);
  fs::remove_all(dir, ec);
  if (ec) {
    std::fprintf(stderr, "torchsmith toolkit remove: %s: %s\n", dir.c_str(), ec.message().c_str());
    return 1;
  }
  std::printf("removed %s\n", dir.c_str());
  return 0;
}

}  // namespace

void register_toolkit(CLI::App& app, GlobalOptions& g, int& exit_code) {
  auto o = std::make_shared<ToolkitOptions>();
  CLI::App* c = app.add_subcommand(
      "toolkit",
      "The CUDA toolkits, CMake and ninja torchsmith provisions without root: PyPI wheels (or the same\n"
      "files from a wheelhouse directory) hashed and unpacked into a cache, one directory per tool\n"
      "version and wheel set (~/.cache/torchsmith/toolkits/cuda-13.0.88-<hash>/, a CUDA_HOME nvcc,\n"
      "CMake and torch's cpp_extension accept). A plan provisions what it needs by itself; these\n"
      "commands look, fill a cache ahead of time, or clean it. Examples:\n"
      "  torchsmith toolkit add cuda==13.0                  # from PyPI\n"
      "  torchsmith toolkit add cuda==13.0 --from wheelhouse:/media/wheels   # offline\n"
      "  torchsmith toolkit path cmake==3.31.6\n"
      "  torchsmith toolkit list --json\n"
      "Which versions exist is data: provision.toml in the knowledge base (docs/provision.md).");
  c->require_subcommand(1);
  exit_codes(c, "2 bad usage; each subcommand's --help lists its own");
  auto cache = [&](CLI::App* s) {
    s->add_option("--cache-dir", o->cache_dir, "The cache (default $XDG_CACHE_HOME/torchsmith or ~/.cache/torchsmith).")
        ->type_name("DIR");
  };
  CLI::App* list = c->add_subcommand("list", "The provisioned tools in the cache, with their provider and wheels.");
  list->add_flag("--json", o->json, "As JSON: kind, version, provider, dir, wheels with sha256, missing files.");
  cache(list);
  list->callback([&exit_code, o] { exit_code = run_list(*o); });
  exit_codes(list, "0 listed (an empty cache too), 2 bad usage");
  CLI::App* add = c->add_subcommand(
      "add", "Provision KIND==VERSION (cuda==13.0, cmake==3.31.6) into the cache; reused when it is there.");
  add->add_option("spec", o->spec, "cuda==X.Y[.Z], cmake==X.Y.Z or ninja==X.Y.Z")->required()->type_name("KIND==VERSION");
  add->add_option("--from", o->from,
                  "pip (PyPI, default), wheelhouse:DIR (local .whl files, no network), redist[:MIRROR] (NVIDIA's "
                  "redistributable archives, from upstream or a mirror URL or directory; default mirror "
                  "$TORCHSMITH_TOOLKIT_MIRROR, then provision.toml [mirror]) or conda[:CHANNEL] (a conda channel's packages).")
      ->type_name("pip|wheelhouse:DIR|redist[:MIRROR]|conda[:CHANNEL]");
  add->add_option("--for", o->purpose,
                  "extension (default: the compiler, runtime and headers) or torch (redist/conda: also cuBLAS, "
                  "cuFFT, cuRAND, cuSOLVER, cuSPARSE, CUPTI as provision.toml lists).")
      ->type_name("extension|torch");
  add->add_option("--cudnn", o->cudnn,
                  "With --from redist --for torch: also cuDNN VERSION's archive for this CUDA's major, from cuDNN's "
                  "own manifest (provision.toml [[cudnn]]), merged into the toolkit.")
      ->type_name("VERSION");
  add->add_option("--lock", o->lock,
                  "A plan's lock: the wheels' sha256 it pins (a run records them) are checked; a mismatch fails.")
      ->type_name("FILE");
  cache(add);
  add->callback([&exit_code, &g, o] { exit_code = run_add(g, *o); });
  exit_codes(add, "0 provisioned or already there, 1 the download or a sha256 check failed, 2 bad input or a "
                  "toolkit the knowledge base does not list completely");
  CLI::App* path = c->add_subcommand("path", "Print the directory of a provisioned KIND==VERSION (exit 1 when it is not there).");
  path->add_option("spec", o->spec, "cuda==X.Y[.Z], cmake==X.Y.Z or ninja==X.Y.Z")->required()->type_name("KIND==VERSION");
  cache(path);
  path->callback([&exit_code, &g, o] { exit_code = run_path_or_remove(g, *o, false); });
  exit_codes(path, "0 printed, 1 not provisioned in this cache, 2 bad input");
  CLI::App* rm = c->add_subcommand("remove", "Remove a provisioned KIND==VERSION from the cache.");
  rm->add_option("spec", o->spec, "cuda==X.Y[.Z], cmake==X.Y.Z or ninja==X.Y.Z")->required()->type_name("KIND==VERSION");
  cache(rm);
  rm->callback([&exit_code, &g, o] { exit_code = run_path_or_remove(g, *o, true); });
  exit_codes(rm, "0 removed, 1 not provisioned in this cache or not removable, 2 bad input");
}

}  // namespace ts::cli
