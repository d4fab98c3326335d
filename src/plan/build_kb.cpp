// build.toml reader: the KB's EntryReader gives every problem as "file:line: ...".
#include "plan/build_kb.h"
#include "kb/toml_parse.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "kb/tomlpp.h"

#include "core/arch_list.h"
#include "core/version.h"
#include "core/version_range.h"
#include "kb/check.h"
#include "kb/embedded.h"
#include "kb/layers.h"
#include "kb/toml_reader.h"
#include "plan/recipe.h"

namespace ts::plan {

using kb::detail::EntryReader;

bool in_range(const VersionRange& range, const Version& version) { return range.contains(version.public_version()); }

namespace {

std::string common_source(EntryReader& r) {
  kb::Entry e;  // build.toml keeps only the source of each entry
  r.common(e);
  return e.source;
}

// An entry replaces the one with its key (a later layer wins), in its place; the index keeps a file
// of n entries linear (a find per entry made overlays quadratic).
template <class T, class Key>
class Put {
 public:
  Put(std::vector<T>& into, Key key) : into_(into), key_(key) {
    for (std::size_t i = 0; i < into_.size(); ++i) at_.emplace(key_(into_[i]), i);
  }
  void operator()(T e) {
    auto [it, fresh] = at_.try_emplace(key_(e), into_.size());
    if (fresh) into_.push_back(std::move(e));
    else into_[it->second] = std::move(e);
  }

 private:
  std::vector<T>& into_;
  Key key_;
  std::unordered_map<std::string, std::size_t> at_;
};

// One [[header_source]] entry, its digests, commit and paths checked.
HeaderSource read_header_source(EntryReader& r) {
  HeaderSource e{r.texts("headers", true, "[\"helper_math.h\"]"), r.texts("sha256", true, "[\"<64 hex digits>\"]"),
                 r.text("repository", true, "\"NVIDIA/cuda-samples\""), r.text("tag", true, "\"v13.0\""),
                 r.text("commit", true, "\"<40 hex digits>\""), r.text("path", true, "\"Common\""), "", r.origin()};
  auto hex = [](const std::string& v, std::size_t n) {
    return v.size() == n && v.find_first_not_of("0123456789abcdef") == std::string::npos;
  };
  if (e.headers.size() != e.sha256.size())
    r.error(r.line(), "sha256: " + std::to_string(e.sha256.size()) + " digests for " + std::to_string(e.headers.size()) +
                          " headers (one each, in the same order)");
  for (const auto& d : e.sha256)
    if (!hex(d, 64)) r.error(r.line(), "sha256: \"" + d + "\" is not 64 lowercase hex digits");
  for (const auto& h : e.headers)
    if (h.empty() || h.find('/') != std::string::npos || h.find("..") != std::string::npos)
      r.error(r.line(), "headers: \"" + h + "\" is not a file name inside the folder");
  if (!hex(e.commit, 40)) r.error(r.line(), "commit: \"" + e.commit + "\" is not 40 lowercase hex digits");
  if (e.repository.find('/') == std::string::npos || e.repository.find("..") != std::string::npos)
    r.error(r.line(), "repository: \"" + e.repository + "\" is not OWNER/NAME");
  if (e.path.empty() || e.path.front() == '/' || e.path.find("..") != std::string::npos)
    r.error(r.line(), "path: \"" + e.path + "\" is not a folder inside the repository");
  e.source = common_source(r);
  return e;
}

void read_entries(const toml::table& root, const std::string& file, BuildKb& kb,
                  std::vector<kb::KbError>& errs) {
  // Each [[key]] table through the KB's one reader (unknown keys reported as in every KB file).
  Put put_invocations(kb.invocations, [](const Invocation& x) { return x.package + "|" + x.torch.original(); });
  Put put_features(kb.features, [](const Feature& x) { return x.name; });
  Put put_portable(kb.portable, [](const PortableList& x) { return x.cuda.original() + "|" + x.torch.original(); });
  Put put_env(kb.env, [](const EnvVar& x) { return x.name; });
  Put put_images(kb.images, [](const Image& x) { return x.cuda.original(); });
  Put put_library_advice(kb.library_advice, [](const LibraryAdvice& x) { return x.library + "|" + x.cpu; });
  Put put_backends(kb.backends, [](const BuildBackend& x) { return x.name; });
  Put put_package_env(kb.package_env, [](const PackageEnv& x) { return x.name; });
  Put put_header_wheels(kb.header_wheels, [](const HeaderWheel& x) { return x.header; });
  Put put_removed_modules(kb.removed_modules, [](const RemovedModule& x) { return x.module; });
  Put put_header_sources(kb.header_sources, [](const HeaderSource& x) { return x.repository + "|" + x.path; });
  auto each = [&](const char* key, auto read) { kb::detail::read_tables(root[key].as_array(), file, key, errs, read); };
  each("invocation", [&](EntryReader& r) {
    Invocation e{r.parsed_range("torch", true, "\"<2.9\""), r.text("package", true, "\"wheel\""),
                 r.texts("command", true, "[\"{python}\", \"setup.py\", \"bdist_wheel\"]"), "", r.origin()};
    e.source = common_source(r);
    put_invocations(std::move(e));
  });
  each("feature", [&](EntryReader& r) {
    Feature e{r.text("name", true, "\"cudnn\""), r.text("option", true, "\"USE_CUDNN\""),
              r.flag("default", true), r.texts("needs", false, "[\"cuda\"]"),
              r.parsed_range("torch", false, "\">=2.0\""), "", r.origin()};
    e.source = common_source(r);
    put_features(std::move(e));
  });
  each("portable", [&](EntryReader& r) {
    PortableList e{r.parsed_version("cuda", true, "\"11.8\"").value_or(Version{}), r.parsed_range("torch", false, "\"<2.0\""),
                   r.text("arches", true, "\"7.0;8.0;9.0\""), "", r.origin()};
    std::string err;
    if (!e.arches.empty() && !ArchList::parse(e.arches, nullptr, &err))
      r.error(r.line(), "arches: " + err);
    e.source = common_source(r);
    put_portable(std::move(e));
  });
  each("env", [&](EntryReader& r) {
    EnvVar e{r.text("name", true, "\"MAX_JOBS\""), r.parsed_range("torch", false, "\">=1.0\""), "", r.origin()};
    e.source = common_source(r);
    put_env(std::move(e));
  });
  each("rpath", [&](EntryReader& r) {
    Rpath e{r.text("package", true, "\"conda\""), r.texts("files", true, "[\"torch/lib/*.so\"]"),
            r.text("rpath", true, "\"$ORIGIN\""), ""};
    e.source = common_source(r);
    kb.rpaths.push_back(e);
  });
  each("image", [&](EntryReader& r) {
    Image e{r.parsed_version("cuda", true, "\"11.7\"").value_or(Version{}), r.parsed_versions("versions", true, "[\"11.7.1\"]"),
            r.text("cudnn", false, "\"8\""), r.texts("os", true, "[\"ubuntu22.04\"]"), "", r.origin()};
    e.source = common_source(r);
    put_images(std::move(e));
  });
  each("library_advice", [&](EntryReader& r) {
    LibraryAdvice e{r.text("library", true, "\"mkl\""), r.text("cpu", true, "\"aarch64\""),
                    r.text("advice", true, "\"<how to get it>\""), r.flag("absent_is_normal", false), "", r.origin()};
    e.source = common_source(r);
    put_library_advice(std::move(e));
  });
  each("backend", [&](EntryReader& r) {
    BuildBackend e{r.text("name", true, "\"scikit-build-core\""), r.texts("requires", true, "[\"pathspec>=0.10.1\"]"),
                   "", r.origin()};
    e.source = common_source(r);
    put_backends(std::move(e));
  });
  each("package_env", [&](EntryReader& r) {
    PackageEnv e{r.text("name", true, "\"NCCL_HOME\""), r.text("library", true, "\"nccl\""),
                 r.text("points", true, "\"prefix\""), r.text("meaning", true, "\"<what it names>\""), "", r.origin()};
    if (e.points != "prefix" && e.points != "include" && e.points != "lib")
      r.error(r.line(), "points: \"" + e.points + "\" is none of prefix, include, lib");
    e.source = common_source(r);
    put_package_env(std::move(e));
  });
  each("header_wheel", [&](EntryReader& r) {
    HeaderWheel e{r.text("header", true, "\"cutlass/\""), r.text("distribution", true, "\"nvidia-cutlass\""),
                  r.texts("include", true, "[\"cutlass_library/source/include\"]"), "", r.origin()};
    if (!e.header.empty() && e.header.back() != '/') r.error(r.line(), "header: \"" + e.header + "\" is not a folder ending in '/'");
    for (const auto& d : e.include)
      if (d.empty() || d.front() == '/' || d.find("..") != std::string::npos)
        r.error(r.line(), "include: \"" + d + "\" is not a folder inside the distribution");
    e.source = common_source(r);
    put_header_wheels(std::move(e));
  });
  each("removed_module", [&](EntryReader& r) {
    RemovedModule e{r.text("module", true, "\"pkg_resources\""), r.text("distribution", true, "\"setuptools\""),
                    r.parsed_version("removed_in", true, "\"82.0.0\"").value_or(Version{}),
                    r.text("requirement", true, "\"setuptools<82\""), "", r.origin()};
    e.source = common_source(r);
    put_removed_modules(std::move(e));
  });
  each("header_source", [&](EntryReader& r) { put_header_sources(read_header_source(r)); });
  if (auto t = root["limits"].as_table()) {
    EntryReader r(*t, file, "limits", errs);
    double n = r.number("max_arches", true, "8");
    if (n >= 1) kb.max_arches = static_cast<int>(n);
    kb.max_arches_source = r.text("max_arches_source", true, "\"<why this many>\"");
    kb.limits_origin = r.origin();
    r.finish();
  }
  if (auto t = root["legacy_backend"].as_table()) {
    EntryReader r(*t, file, "legacy_backend", errs);
    LegacyBackend e{r.text("module", true, "\"setuptools.build_meta:__legacy__\""),
                    r.parsed_version("setuptools_min", true, "\"40.8.0\""), "", r.origin()};
    e.source = common_source(r);
    r.finish();
    if (r.ok()) kb.legacy_backend = std::move(e);
  }
  for (const auto& [k, v] : root) {
    std::string key(k.str());
    static const char* known[] = {"invocation", "feature", "portable", "env", "rpath", "image", "library_advice",
                                  "backend", "package_env", "header_wheel", "removed_module", "header_source", "limits", "legacy_backend"};
    if (std::find(std::begin(known), std::end(known), key) == std::end(known))
      errs.push_back({{file, static_cast<int>(k.source().begin.line)},
                      "unknown top-level key '" + key + "' (build.toml holds [[invocation]], [[feature]], "
                      "[[portable]], [[env]], [[rpath]], [[image]], [[library_advice]], [[backend]], [[package_env]], [[header_wheel]], [[removed_module]], [[header_source]], [limits] and "
                      "[legacy_backend])"});
  }
}

}  // namespace

namespace {

std::vector<kb::KbError> parse_into(BuildKb& staged, const std::string& file, std::string_view text) {
  std::vector<kb::KbError> errs;
  try {
    toml::table root = kb::parse_toml(text, file);
    read_entries(root, file, staged, errs);
  } catch (const toml::parse_error& e) {
    errs.push_back({{file, static_cast<int>(e.source().begin.line)},
                    "TOML syntax error: " + std::string(e.description())});
  }
  return errs;
}

}  // namespace

void validate_build_file(std::string_view file, std::string_view text, std::vector<kb::KbError>& errors) {
  BuildKb scratch;
  for (auto& e : parse_into(scratch, std::string(file), text)) errors.push_back(std::move(e));
}

bool read_build_text(BuildKb& kb, std::string_view file_name, std::string_view text,
                     std::vector<std::string>& errors) {
  std::string file(file_name);
  BuildKb staged = kb;
  std::vector<kb::KbError> errs = parse_into(staged, file, text);
  for (const auto& e : errs) errors.push_back(e.str());
  if (!errs.empty()) return false;  // a file with errors contributes nothing
  kb = std::move(staged);
  return true;
}

BuildKb load_build_kb(const std::vector<std::string>& overlay_dirs, std::vector<std::string>& errors) {
  return kb::read_layers<BuildKb>("build.toml", overlay_dirs, errors, read_build_text);
}

namespace {

// The first entry of a table that matches: every lookup below is one.
template <class T, class Match>
const T* first_of(const std::vector<T>& table, Match match) {
  auto it = std::find_if(table.begin(), table.end(), match);
  return it == table.end() ? nullptr : &*it;
}

// Does an entry's CUDA ("11.8") name the same major.minor as c?
bool same_cuda(const Version& entry, const Version& c) { return entry.major_minor() == c.major_minor(); }

}  // namespace

const Invocation* BuildKb::invocation(const Version& v, std::string_view package) const {
  return first_of(invocations, [&](const Invocation& i) { return i.package == package && in_range(i.torch, v); });
}

const Feature* BuildKb::feature(std::string_view name) const {
  return first_of(features, [&](const Feature& f) { return f.name == name; });
}

std::vector<const Feature*> BuildKb::features_for(const Version& v) const {
  std::vector<const Feature*> out;
  for (const auto& f : features)
    if (in_range(f.torch, v)) out.push_back(&f);
  return out;
}

const PortableList* BuildKb::portable_for(const Version& c, const Version& v) const {
  return first_of(portable, [&](const PortableList& p) { return same_cuda(p.cuda, c) && in_range(p.torch, v); });
}

const EnvVar* BuildKb::env_var(std::string_view name, const Version& v) const {
  return first_of(env, [&](const EnvVar& e) { return e.name == name && in_range(e.torch, v); });
}

const Image* BuildKb::image(const Version& c) const {
  return first_of(images, [&](const Image& i) { return same_cuda(i.cuda, c); });
}

const BuildBackend* BuildKb::backend(std::string_view name) const {
  for (const auto& b : backends)
    if (b.name == name) return &b;
  return nullptr;
}

const PackageEnv* BuildKb::library_env(std::string_view name) const {
  for (const auto& e : package_env)
    if (e.name == name) return &e;
  return nullptr;
}

const HeaderWheel* BuildKb::header_wheel(std::string_view include) const {
  for (const auto& h : header_wheels)
    if (include.starts_with(h.header)) return &h;
  return nullptr;
}

const RemovedModule* BuildKb::removed_module(std::string_view module) const {
  for (const auto& m : removed_modules)
    if (m.module == module) return &m;
  return nullptr;
}

const BuildModule* BuildKb::build_module(std::string_view module) const {
  for (const auto& m : build_modules)
    if (m.module == module) return &m;
  return nullptr;
}

const HeaderSource* BuildKb::header_source(std::string_view header) const {
  for (const auto& h : header_sources)
    for (const auto& n : h.headers)
      if (n == header) return &h;
  return nullptr;
}

const LibraryAdvice* BuildKb::advice(std::string_view library, std::string_view cpu) const {
  const LibraryAdvice* fallback = nullptr;
  for (const auto& a : library_advice) {
    if (a.library != library) continue;
    if (a.cpu == cpu) return &a;
    if (a.cpu == "x86_64") fallback = &a;
  }
  return fallback;
}

}  // namespace ts::plan
