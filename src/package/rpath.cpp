#include "package/rpath.h"

#include <fnmatch.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "formats/elf_edit.h"
#include "formats/mapped_file.h"
#include "util/process.h"
#include "util/safe_path.h"
#include "util/split.h"

namespace ts::package {
namespace {

std::string run_patchelf(const Patchelf& p, std::vector<std::string> args, const std::string& file) {
  if (!p.available()) return "patchelf is not installed (needed to edit " + file + ")";
  args.insert(args.begin(), p.exe);
  args.push_back(util::as_operand(file));  // patchelf knows no `--`
  util::RunOptions o;
  o.timeout = std::chrono::seconds(300);  // libtorch_cuda.so is over a gigabyte
  auto r = util::run(args, o);
  if (r.ok()) return "";
  std::string err = r.err.empty() ? r.describe(o.timeout) : r.err;
  while (!err.empty() && (err.back() == '\n' || err.back() == '\r')) err.pop_back();
  return "patchelf failed on " + file + ": " + err;
}

}  // namespace

Patchelf find_patchelf(const std::string& hint) {
  if (hint == "none") return {};
  if (!hint.empty()) return {util::find_program(hint, {})};
  const char* path = std::getenv("PATH");
  return {util::find_program("patchelf", util::split_path(path ? path : "/usr/bin:/bin"))};
}

std::string set_rpath(const Patchelf& p, const std::string& file, const std::string& rpath) {
  // DT_RPATH as the official wheels carry (searched before LD_LIBRARY_PATH, for their deps too).
  return run_patchelf(p, {"--force-rpath", "--set-rpath", rpath}, file);
}

std::string replace_needed(const Patchelf& p, const std::string& file, const std::string& from,
                           const std::string& to) {
  return run_patchelf(p, {"--replace-needed", from, to}, file);
}

std::string set_soname(const Patchelf& p, const std::string& file, const std::string& soname) {
  return run_patchelf(p, {"--set-soname", soname}, file);
}

ElfEditChoice choose_elf_editor(const Patchelf& p, const std::string& file, const std::string& rpath,
                                bool rpath_changes, bool other_edits) {
  ElfEditChoice c;
  if (other_edits) {
    c.why = "NEEDED and SONAME edits are made by patchelf";
  } else if (rpath_changes) {
    formats::MappedFile f(file);
    std::string err;
    auto elf = f.ok() ? formats::ElfFile::parse(f.bytes(), &err) : std::nullopt;
    c.why = !f.ok() ? f.error() : !elf ? err : formats::search_path_refusal(*elf, rpath, formats::PathTag::rpath);
    if (c.why.empty()) {
      c.editor = ElfEditor::in_place;
      return c;
    }
  }
  c.editor = p.available() ? ElfEditor::patchelf : ElfEditor::none;
  return c;
}

std::string write_rpath(const ElfEditChoice& c, const Patchelf& p, const std::string& file, const std::string& rpath) {
  if (c.editor == ElfEditor::in_place) return formats::set_search_path_in_place(file, rpath, formats::PathTag::rpath);
  return set_rpath(p, file, rpath);
}

const plan::Rpath* rpath_rule(const plan::BuildKb& kb, const std::string& package,
                              const std::string& rel_path) {
  for (const auto& r : kb.rpaths) {
    if (r.package != package) continue;
    for (const auto& glob : r.files)
      if (::fnmatch(glob.c_str(), rel_path.c_str(), FNM_PATHNAME) == 0) return &r;
  }
  return nullptr;
}

std::string origin_path(const std::string& from_dir, const std::string& to_dir) {
  auto rel = std::filesystem::path(to_dir.empty() ? "." : to_dir)
                 .lexically_relative(from_dir.empty() ? "." : from_dir)
                 .string();
  return rel.empty() || rel == "." ? "$ORIGIN" : "$ORIGIN/" + rel;
}

std::vector<std::string> split_rpath(const std::string& rpath) {
  std::vector<std::string> out;
  for (auto& e : util::split_nonempty(rpath, ':'))
    if (std::find(out.begin(), out.end(), e) == out.end()) out.push_back(std::move(e));
  return out;
}

std::string join_rpath(const std::vector<std::string>& entries) { return util::join(entries, ":"); }

}  // namespace ts::package
