#include "verify/verify.h"

#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "util/fs.h"
#include "util/scratch_dir.h"
#include "verify/arch_check.h"
#include "verify/check.h"
#include "formats/elf.h"
#include "formats/mapped_file.h"
#include "formats/wheel.h"
#include "formats/zip.h"
#include "util/split.h"

namespace ts::verify {
namespace {

namespace fs = std::filesystem;

bool starts_with_elf_magic(const fs::path& p) {
  auto head = util::read_file_prefix(p.string(), 4);
  return head && *head == "\x7f" "ELF";
}

// "libtorch.so needs libc10.so" reads better with file names than with full paths.
std::string base(const std::string& p) { return fs::path(p).filename().string(); }

// `shown` names the file in the report (a wheel member is "x.whl!torch/lib/libc10.so").
void check_one(const std::string& path, const std::string& shown, const VerifyOptions& o, VerifyReport& rep) {
  FileFacts f;
  f.path = shown;
  const auto add = [&](Check check, Outcome oc, std::string detail) {
    rep.verdicts.push_back(verdict(shown, check, oc, std::move(detail)));
  };
  formats::MappedFile m(path);
  std::string err;
  std::optional<formats::ElfFile> elf;
  if (m.ok()) elf = formats::ElfFile::parse(m.bytes(), &err);
  if (!elf) {
    add(Check::elf, Outcome::fail, m.ok() ? err : m.error());
    rep.files.push_back(std::move(f));
    return;
  }
  f.elf = true;
  f.kind = elf->describe();
  const auto& d = elf->dynamic();
  f.soname = d.soname;
  f.needed = d.needed;
  f.rpath = util::split_nonempty(d.rpath, ':');  // as written: $ORIGIN kept, for people and for repair
  f.runpath = util::split_nonempty(d.runpath, ':');
  add(Check::elf, Outcome::pass, f.kind + (d.soname.empty() ? "" : ", SONAME " + d.soname));

  Resolution r = resolve_needed(path, o.resolve);
  if (!r.errors.empty()) {
    for (const auto& e : r.errors) add(Check::needed, Outcome::fail, e);
  } else if (!r.missing.empty()) {
    for (const auto& mi : r.missing)
      add(Check::needed, Outcome::fail,
          mi.error.empty() ? mi.name + " not found (needed by " + base(mi.needed_by) + ")"
                           : mi.name + " (needed by " + base(mi.needed_by) + "): " + mi.error);
  } else {
    std::vector<std::string> paths;
    for (const auto& l : r.libs)
      if (std::find(paths.begin(), paths.end(), l.path) == paths.end()) paths.push_back(l.path);
    add(Check::needed, Outcome::pass,
        std::to_string(d.needed.size()) + " direct, " + std::to_string(paths.size()) + " libraries in all resolve");
  }

  std::string versions;
  for (const char* prefix : {"GLIBC_", "GLIBCXX_", "CXXABI_"}) {
    auto v = elf->required_versions(prefix);
    if (v.empty()) continue;
    f.versions.push_back(v.back());
    versions += (versions.empty() ? "" : ", ") + v.back();
  }
  if (!versions.empty()) add(Check::symbol_versions, Outcome::note, "needs up to " + versions);

  auto code = cuda_code_of(*elf, &err);
  if (!code) {
    add(Check::cuda_arches, Outcome::fail, err);
  } else if (code->present) {
    f.cuda = *code;
    std::string have = code->sass_text();
    if (!code->ptx.empty()) have += (have.empty() ? "" : " ") + code->ptx_text();
    if (o.arches) {
      auto vs = check_arches(*code, *o.arches, shown, o.only_asked_arches);
      for (auto& v : vs)
        if (v.outcome == Outcome::pass) v.detail += " (" + have + ")";
      rep.verdicts.insert(rep.verdicts.end(), vs.begin(), vs.end());
    } else {
      add(Check::cuda_arches, Outcome::note, have.empty() ? "fatbin without code" : have);
    }
  }
  rep.files.push_back(std::move(f));
}

// A wheel: its libraries are extracted under a temporary directory with their paths kept, so
// $ORIGIN and the wheel's own layout resolve as they will once installed; then checked there.
void check_wheel(const std::string& path, const VerifyOptions& o, VerifyReport& rep) {
  const auto fail = [&](std::string detail) {
    rep.verdicts.push_back(verdict(path, Check::wheel, Outcome::fail, std::move(detail)));
  };
  formats::MappedFile m(path);
  if (!m.ok()) return fail(m.error());
  std::string err;
  auto zip = formats::ZipArchive::open(m.bytes(), &err);
  if (!zip) return fail(err);
  // The same check repair and conda make: RECORD present and true, one .dist-info, Version.
  if (!formats::check_wheel(*zip, &err, path)) return fail(err);
  // Removed however this ends, Ctrl-C included: a torch wheel's libraries are gigabytes.
  util::ScratchDir scratch("torchsmith-verify");
  if (scratch.path().empty()) return fail(scratch.error());
  const fs::path dir = scratch.path();
  std::vector<std::pair<std::string, std::string>> libs;  // extracted path, member name
  for (const auto& mem : zip->members()) {
    if (mem.name.ends_with("/") || !formats::named_like_library(mem.name)) continue;
    const fs::path out = dir / mem.name;
    std::error_code ec;
    fs::create_directories(out.parent_path(), ec);
    if (std::string e = zip->extract(mem, out.string()); !e.empty()) {
      fail(e);
      continue;
    }
    if (starts_with_elf_magic(out)) libs.emplace_back(out.string(), mem.name);
  }
  std::sort(libs.begin(), libs.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  for (const auto& [file, name] : libs) check_one(file, path + "!" + name, o, rep);
  if (libs.empty()) rep.verdicts.push_back(verdict(path, Check::wheel, Outcome::note, "no ELF libraries inside"));
}

bool is_zip(const std::string& path) {
  auto head = util::read_file_prefix(path, 4);
  return head && *head == std::string("PK\x03\x04", 4);
}

}  // namespace

std::optional<std::vector<std::string>> collect_files(const std::vector<std::string>& paths, std::string* error) {
  std::vector<std::string> out;
  for (const auto& p : paths) {
    std::error_code ec;
    auto st = fs::status(p, ec);
    if (ec || !fs::exists(st)) {
      if (error) *error = p + ": no such file or directory";
      return std::nullopt;
    }
    if (!fs::is_directory(st)) {
      out.push_back(p);
      continue;
    }
    std::vector<std::string> found;
    for (auto it = fs::recursive_directory_iterator(p, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      // CMake's own files (compiler-id executables, try-compiles, objects) are no build output.
      std::error_code dec;
      if (it->path().filename() == "CMakeFiles" && it->is_directory(dec)) {
        it.disable_recursion_pending();
        continue;
      }
      // is_regular_file follows symlinks: Debian's torch/lib/*.so point out of the tree.
      std::error_code fec;
      if (!it->is_regular_file(fec) || fec) continue;
      if (starts_with_elf_magic(it->path())) found.push_back(it->path().string());
    }
    std::sort(found.begin(), found.end());
    // A file reached by several names (libfoo.so -> libfoo.so.1) is checked once, by its first name.
    std::set<std::string> real;
    for (const auto& f : found) {
      std::error_code cec;
      const std::string c = fs::canonical(f, cec).string();
      if (real.insert(cec ? f : c).second) out.push_back(f);
    }
  }
  return out;
}

VerifyReport verify_files(const std::vector<std::string>& files, const VerifyOptions& o) {
  VerifyReport rep;
  for (const auto& f : files) {
    if (is_zip(f)) {
      check_wheel(f, o, rep);
    } else {
      check_one(f, f, o, rep);
    }
  }
  // Asked for arches, but nothing here carries GPU code: the build made CPU-only libraries.
  if (o.arches && !o.arches->empty() && !files.empty() &&
      std::none_of(rep.files.begin(), rep.files.end(), [](const FileFacts& f) { return f.cuda.has_value(); }))
    rep.verdicts.push_back(
        o.no_device_code
            ? verdict("", Check::cuda_arches, Outcome::pass,
                      "no CUDA code in any of the " + std::to_string(files.size()) +
                          " files, as planned: the package builds no CUDA source (.cu)")
            : verdict("", Check::cuda_arches, Outcome::fail,
                      "no CUDA code in any of the " + std::to_string(files.size()) + " files (asked for " +
                          o.arches->torch_cuda_arch_list() + ")"));
  return rep;
}

}  // namespace ts::verify
