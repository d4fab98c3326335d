#include "plan/request.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>

#include "core/package_name.h"
#include "plan/machine_toolkits.h"
#include "probe/probe.h"
#include "source/git.h"
#include "source/hash.h"
#include "source/pypi.h"
#include "spec/spec_file.h"
#include "util/cache_dir.h"

namespace ts::plan {

namespace {

// A relative interpreter path names a file from here, and the build runs in its own directory
// (the copy of the source, the build tree): it is made absolute, never resolved (a venv's
// bin/python is a link to the base interpreter, whose site-packages are not the venv's).
std::string absolute_here(const std::string& p) {
  if (p.empty() || p.front() == '/' || p.find('/') == std::string::npos) return p;
  std::error_code ec;
  auto a = std::filesystem::absolute(p, ec);
  return ec ? p : a.lexically_normal().string();
}

// The exact commit of a local source tree for the lock ("" when it is not its own git checkout).
std::string git_head(const std::string& dir) {
  source::GitOptions g;
  g.timeout = std::chrono::milliseconds(5000);
  return source::own_head(dir, g);
}

std::string canonical(const std::string& p) {
  std::error_code ec;
  auto c = std::filesystem::canonical(p, ec);
  return ec ? p : c.string();
}

// --wheelhouse DIR: absolute, and the distribution and version of each wheel in it (PEP 427's file
// name, NAME-VERSION-...whl), so the plan knows what it can take from there and refuses another torch.
std::string read_wheelhouse(const RequestInput& o, ExtensionRequest& req) {
  if (o.wheelhouse.empty()) return "";
  std::error_code ec;
  if (!std::filesystem::is_directory(o.wheelhouse, ec))
    return "--wheelhouse " + o.wheelhouse + ": not a directory (a wheelhouse is a directory of .whl files)";
  req.wheelhouse = std::filesystem::absolute(o.wheelhouse, ec).lexically_normal().string();
  for (const auto& e : std::filesystem::directory_iterator(o.wheelhouse, ec)) {
    const std::string f = e.path().filename().string();
    if (f.size() < 5 || f.compare(f.size() - 4, 4, ".whl") != 0) continue;
    auto dash = f.find('-');
    auto dash2 = dash == std::string::npos ? dash : f.find('-', dash + 1);
    if (dash2 == std::string::npos) continue;
    req.wheelhouse_wheels.push_back({normalize_name(f.substr(0, dash)), FactVersion(f.substr(dash + 1, dash2 - dash - 1)), f});
  }
  std::sort(req.wheelhouse_wheels.begin(), req.wheelhouse_wheels.end(),
            [](const auto& a, const auto& b) { return a.file < b.file; });
  return "";
}

std::string kb_errors(const std::vector<std::string>& errors) {
  return "the knowledge base has errors: " + errors.front() + " (torchsmith kb check lists them)";
}

// The provisioning half of a request: --toolkit, the cache, the catalog; a --toolkit PATH the
// probe did not find is read by the probe here (its nvcc's version) and added to the facts.
bool provision_context(const RequestInput& o, const RequestTables& t, Planned& out) {
  std::string err;
  auto choice = parse_toolkit_choice(o.toolkit, &err);
  if (!choice) { out.error = err; return false; }
  if (!t.catalog_errors.empty()) { out.error = kb_errors(t.catalog_errors); return false; }
  if (t.catalog) out.catalog = *t.catalog;
  auto& pc = out.provision;
  pc.catalog = &out.catalog;
  pc.cache_root = util::cache_dir(o.cache_dir);
  pc.platform = wheel_platform(out.facts.cpu.arch.empty() ? "x86_64" : out.facts.cpu.arch);
  pc.choice = *choice;
  if (!o.toolkit.empty()) pc.cli_source = "--toolkit " + o.toolkit;
  pc.mirror = o.toolkit_mirror;
  if (choice->kind == ToolkitChoice::Kind::wheelhouse && !std::filesystem::is_directory(choice->dir)) {
    out.error = "--toolkit " + o.toolkit + ": no such directory (a wheelhouse is a directory of .whl files)";
    return false;
  }
  if (choice->kind == ToolkitChoice::Kind::path) {
    bool known = false;
    for (const auto& tk : out.facts.cuda_toolkits) known |= tk.path == choice->dir;
    if (!known) {
      // Read by the probe as it reads the toolkits it finds (on this machine, as the build runs here).
      std::string herr;
      auto here = probe::Host::at("/", &herr);
      auto tk = here ? probe::probe_toolkit(*here, choice->dir) : std::nullopt;
      if (!tk || tk->nvcc.empty() || tk->version.empty()) {
        out.error = "--toolkit " + o.toolkit + ": no bin/nvcc that reports its version there (give a CUDA_HOME)";
        return false;
      }
      tk->found_via = {"--toolkit"};
      out.facts.cuda_toolkits.push_back(*tk);
    }
  }
  return true;
}

// NAME==VERSION's sdist on the index (the JSON API, then the PEP 691 simple page); not asked for
// --source git. The planner decides from what is found, offline.
SdistLookup lookup_sdist(const ExtensionSource& src, const RequestInput& o) {
  SdistLookup l;
  source::IndexOptions io;
  std::string base = o.index.empty() ? "https://pypi.org" : o.index;
  while (base.size() > 1 && base.back() == '/') base.pop_back();
  io.json_api = base + "/pypi";
  io.simple = base + "/simple";
  io.timeout = std::chrono::seconds(20);
  l.asked = true;
  l.index = base;
  std::string err;
  auto sd = source::find_sdist(src.name, src.version, io, &err);
  if (!sd) { l.error = err; return l; }
  l.url = sd->url, l.filename = sd->filename, l.sha256 = sd->sha256, l.size = sd->size;
  return l;
}

// URL@REF's tree or NAME==VERSION's sdist, read before planning as a directory is (build backend,
// use_ninja=False, GPU checks, -std, arch lists, switches): fetched into the cache at plan time (the
// sdist's sha256 checked against the index, the clone shallow at the ref), unpacked once per
// archive or ref, and scanned. The build fetches its own copy; a failure leaves the plan to the recipe.
void scan_before_planning(ExtensionRequest& req, const RequestInput& o) {
  namespace fs = std::filesystem;
  const auto& src = req.source;
  std::string cache = util::cache_dir(o.cache_dir), err, dir;
  std::error_code ec;
  if (src.kind == ExtensionSource::Kind::name) {
    if (!req.sdist.found()) return;
    source::Sdist sd{src.name, src.version, req.sdist.filename, req.sdist.url, req.sdist.sha256, req.sdist.size};
    std::string archive = source::fetch_sdist(sd, cache, std::chrono::minutes(10), &err);
    if (archive.empty()) { req.scan_error = "the sdist could not be fetched: " + err; return; }
    dir = cache + "/source-trees/sdist-" + req.sdist.sha256.substr(0, 32);
    if (!fs::exists(dir + "/.torchsmith-scanned", ec)) {
      fs::remove_all(dir, ec);
      if (!source::unpack_sdist(archive, dir, &err)) { req.scan_error = "the sdist could not be unpacked: " + err; return; }
    }
    req.scanned_from = "the sdist " + req.sdist.filename + " (sha256 checked), unpacked in " + dir;
  } else if (src.kind == ExtensionSource::Kind::git) {
    dir = cache + "/source-trees/git-" + source::sha256_hex(src.url + "@" + src.ref).substr(0, 32);
    if (!fs::exists(dir + "/.torchsmith-scanned", ec)) {
      fs::remove_all(dir, ec);
      fs::create_directories(fs::path(dir).parent_path(), ec);
      source::GitOptions g;
      g.timeout = std::chrono::minutes(10);
      std::vector<std::string> args{"clone", "--depth", "1", "--branch", src.ref, "--", src.url, dir};
      auto r = source::run_git(g, args);
      if (!r.ok()) {
        fs::remove_all(dir, ec);
        req.scan_error = "the clone failed: " + source::describe_failure(args, r, g);
        return;
      }
    }
    req.scanned_from = "a shallow clone of " + src.url + " at " + src.ref + " in " + dir;
  } else {
    return;
  }
  req.scan = scan_source_dir(dir, &err);
  if (!req.scan.scanned) { req.scanned_from.clear(); req.scan_error = err; return; }
  std::ofstream(dir + "/.torchsmith-scanned") << "read by torchsmith plan\n";  // complete: reused next time
}

// --no-fetch and a source that is not here: what planning and the build would have fetched, and
// how to give it as a directory instead.
std::string no_fetch_error(const ExtensionSource& src, const RequestInput& o, const std::string& source_kind) {
  std::string cache = util::cache_dir(o.cache_dir);
  if (src.kind == ExtensionSource::Kind::git)
    return "--no-fetch: " + src.url + "@" + src.ref + " is not here: planning would clone it (git clone --depth 1 "
           "--branch " + src.ref + ") into " + cache + "/source-trees/ to read it, and the build would clone it "
           "again; clone it yourself and give the directory: git clone --branch " + src.ref + " -- " + src.url +
           " DIR, then torchsmith plan DIR";
  std::string index = o.index.empty() ? "https://pypi.org" : o.index;
  std::string req = src.name + "==" + src.version;
  std::string what = source_kind == "git"
                         ? "the build would clone the recipe's git repository at its tag for " + src.version
                         : "planning would look " + req + " up on " + index + " and download its sdist into " + cache +
                               "/sdists/ to read it, and the build would fetch it again";
  return "--no-fetch: " + req + " is not here: " + what + "; get the source yourself and give the directory: "
         "python3 -m pip download --no-deps --no-binary :all: " + req + " -d DIR (then unpack the archive), or a git "
         "clone at its tag, then torchsmith plan DIR";
}

// `PATH | URL@REF | NAME==VERSION`: an extension package against an installed torch.
Planned plan_extension(const RequestInput& o, RequestTables& t, const ScaleProbe& scale) {
  Planned out;
  out.extension = true;
  std::string err;
  auto src = parse_extension_source(o.requirement, &err);
  if (!src) { out.error = err; return out; }
  ExtensionRequest req;
  req.source = *src;
  if (o.raw.source.set) req.source_kind = o.raw.source.value;  // git|sdist, checked by the options table
  if (o.no_fetch && src->kind != ExtensionSource::Kind::dir) {
    out.error = no_fetch_error(*src, o, req.source_kind);
    return out;
  }
  if (src->kind == ExtensionSource::Kind::name && req.source_kind != "git") req.sdist = lookup_sdist(*src, o);
  if (src->kind == ExtensionSource::Kind::dir) {
    req.scan = scan_source_dir(src->dir, &err);
    if (!req.scan.scanned) { out.error = err; return out; }
    req.source_dir = canonical(src->dir);
  } else {
    scan_before_planning(req, o);
  }
  if (o.raw.arch.set) req.arch = o.raw.arch.value, req.arch_origin = o.raw.arch.where;
  if (o.raw.cuda.set && !(req.cuda = spec::parse_cuda(o.raw.cuda, err))) { out.error = err; return out; }
  if (o.raw.without.set) {
    std::string w = "," + o.raw.without.value + ",";
    if (w.find(",cuda,") == std::string::npos) { out.error = "--without: an extension plan knows only 'cuda'"; return out; }
    req.cpu = true;
  }
  // The table (request_options.cpp) checked the numbers as the command line gave them.
  if (o.raw.jobs.set) req.jobs = spec::parse_jobs(o.raw.jobs.value).value_or(0);
  req.split_compile = o.split_compile;
  req.env = o.env;
  if (err = read_wheelhouse(o, req); !err.empty()) { out.error = err; return out; }
  if (o.raw.mem_budget.set) req.mem_budget_bytes = spec::parse_size(o.raw.mem_budget.value).value_or(0);
  Knowledge& k = t.planner;
  k.errors.insert(k.errors.end(), t.recipe_errors.begin(), t.recipe_errors.end());
  if (!k.errors.empty()) { out.error = kb_errors(k.errors); return out; }
  out.build_kb = k.build;
  std::optional<probe::Host> host;  // the planned machine; none with --facts (only its report is here)
  std::string torch_py = o.torch;
  if (o.raw.facts.set) {
    auto f = read_facts_file(o.raw.facts.value, err);
    if (!f) { out.error = err; return out; }
    out.facts = *f;
  } else {
    std::string root = o.raw.root.set ? o.raw.root.value : "/";
    err = probe::check_root(root);
    if (!err.empty()) { out.error = err; return out; }
    host = probe::Host::at(root, &err);
    if (!host) { out.error = err; return out; }
    if (host->is_real()) torch_py = absolute_here(torch_py);
    // --torch names a path on the planned machine: under --root it is looked up there, not here.
    if (!torch_py.empty() && !host->exists(torch_py)) {
      out.error = "--torch " + o.torch + ": no such interpreter" + (host->is_real() ? "" : " under --root " + root) +
                  " (give the Python whose torch the extension is for)";
      return out;
    }
    probe::ProbeOptions po;
    if (!torch_py.empty()) po.pythons.push_back(torch_py);
    po.import_torch = false;  // torch's facts come from its files (version.py, CMake config, libraries)
    out.facts = probe::probe(*host, po);
  }
  // The probe may name the interpreter another way (a symlink): match --torch by its path, and
  // by its real path only when nothing matches exactly: a venv's bin/python is a link to the base
  // interpreter, whose site-packages (and torch) are not the venv's.
  auto host_canonical = [&](const std::string& p) {
    std::string c = host ? host->canonical(p) : "";
    return c.empty() ? p : c;
  };
  if (!torch_py.empty()) {
    req.torch_python = torch_py;
    bool exact = false;
    for (const auto& py : out.facts.pythons) exact |= py.path == torch_py;
    if (!exact)
      for (const auto& py : out.facts.pythons)
        if (host_canonical(py.path) == host_canonical(torch_py)) {
          req.torch_python = py.path;
          break;
        }
  }
  if (!provision_context(o, t, out)) return out;
  req.provision = &out.provision;
  req.build_kb = &out.build_kb;
  req.scale = scale;
  static const RecipeSet kNone;
  const Recipe* found = find_recipe(t.recipes ? *t.recipes : kNone, req);
  Recipe generic = recipe_generic(!req.scan.name.empty() ? req.scan.name : src->name);
  out.result = make_extension_plan(req, out.facts, k.kb, found ? *found : generic, &k.fixes);
  if (!out.result.bad_spec.empty()) { out.error = out.result.bad_spec; return out; }
  if (!out.result.plan.source_dir.empty()) out.result.plan.source_revision = git_head(out.result.plan.source_dir);
  return out;
}

// torch==X (or torchsmith.toml): torch itself.
Planned plan_torch(const RequestInput& r, RequestTables& t, const ScaleProbe& scale) {
  Planned out;
  spec::RawSpec file;
  std::string err;
  std::string path = r.spec_file;
  if (path.empty() && std::filesystem::exists("torchsmith.toml") && r.requirement.empty()) path = "torchsmith.toml";
  if (!path.empty() && !spec::read_spec_file(path, file, err)) { out.error = err; return out; }
  spec::RawSpec cli = r.raw;
  if (!r.requirement.empty()) cli.requirement = {r.requirement, "the requirement", true};
  if (r.debug && r.relwithdebinfo) { out.error = "--debug and --relwithdebinfo: give one"; return out; }
  if (r.debug) cli.build_type = {"debug", "--debug", true};
  if (r.relwithdebinfo) cli.build_type = {"relwithdebinfo", "--relwithdebinfo", true};
  auto spec = spec::check(spec::merge(file, cli), err);
  if (!spec) { out.error = err; return out; }

  Knowledge& k = t.planner;
  if (!k.errors.empty()) { out.error = kb_errors(k.errors); return out; }
  out.build_kb = k.build;
  if (!spec->facts_file.empty()) {
    auto f = read_facts_file(spec->facts_file, err);
    if (!f) { out.error = err; return out; }
    out.facts = *f;
  } else {
    std::string root_error = probe::check_root(spec->root);
    if (!root_error.empty()) { out.error = root_error; return out; }
    auto host = probe::Host::at(spec->root, &err);
    if (!host) { out.error = err; return out; }
    probe::ProbeOptions po;
    if (spec->root == "/") spec->python.path = absolute_here(spec->python.path);
    if (!spec->python.path.empty()) po.pythons.push_back(spec->python.path);
    po.import_torch = false;  // the plan needs the build packages, not an installed torch
    out.facts = probe::probe(*host, po);
    // The real machine's toolkits say what they accept; that replaces what the KB only recalls.
    if (spec->root == "/") out.toolkit_facts = kb::adopt_read_toolkits(k.kb, plan::toolkits_read(out.facts));
  }
  if (!provision_context(r, t, out)) return out;
  out.result = make_plan(*spec, out.facts, k, &out.provision, scale);
  if (!out.result.bad_spec.empty()) { out.error = out.result.bad_spec; return out; }
  if (!out.result.plan.source_dir.empty()) out.result.plan.source_revision = git_head(out.result.plan.source_dir);
  return out;
}

}  // namespace

Planned request(const RequestInput& in, RequestTables tables, const ScaleProbe& scale) {
  return is_extension_requirement(in.requirement) ? plan_extension(in, tables, scale) : plan_torch(in, tables, scale);
}

}  // namespace ts::plan
