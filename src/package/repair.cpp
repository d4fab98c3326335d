#include "package/repair.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "core/package_name.h"
#include "package/rpath.h"
#include "package/tags.h"
#include "package/torch_libs.h"
#include "package/torch_pin.h"
#include "package/vendor.h"
#include "package/wheel_pack.h"
#include "package/wheel_policy.h"
#include "package/wheel_unpack.h"
#include "package/wheel_version.h"
#include "util/fs.h"
#include "formats/elf.h"
#include "util/safe_path.h"
#include "util/scratch_dir.h"
#include "util/partial_files.h"
#include "verify/ld_conf.h"
#include "formats/mapped_file.h"
#include "verify/resolve.h"

namespace ts::package {
namespace fs = std::filesystem;
using verify::Outcome;

namespace {

struct Elf {
  std::string rel;  // path inside the wheel
  std::string soname, rpath, runpath;
  std::vector<std::string> needed;
  std::vector<std::string> versions;  // every version required (DT_VERNEED), flattened
  std::map<std::string, std::vector<std::string>> version_needs;  // the same, by library
  int elf_class = 0;
  unsigned machine = 0;
  bool vendored = false;
  std::map<std::string, std::string> renames;  // NEEDED old -> new
  std::vector<std::string> want_rpath;         // entries the file needs
};

std::string dir_of(const std::string& rel) {
  auto s = rel.rfind('/');
  return s == std::string::npos ? "" : rel.substr(0, s);
}
std::string base_of(const std::string& rel) { return rel.substr(rel.rfind('/') + 1); }

// nullopt: not an ELF; error set: an ELF that cannot be read.
std::optional<Elf> read_elf(const std::string& root, const std::string& rel, std::string* error) {
  formats::MappedFile f(root + "/" + rel);
  if (!f.ok()) {
    *error = f.error();
    return std::nullopt;
  }
  auto b = f.bytes();
  if (b.size() < 4 || b[0] != 0x7f || b[1] != 'E' || b[2] != 'L' || b[3] != 'F') return std::nullopt;
  std::string err;
  auto e = formats::ElfFile::parse(b, &err);
  if (!e) {
    *error = rel + ": " + err;
    return std::nullopt;
  }
  Elf out;
  out.rel = rel;
  out.soname = e->dynamic().soname;
  out.rpath = e->dynamic().rpath;
  out.runpath = e->dynamic().runpath;
  out.needed = e->dynamic().needed;
  for (const auto& [lib, vs] : e->dynamic().version_needs)
    for (const auto& v : vs) out.versions.push_back(v);
  out.version_needs = e->dynamic().version_needs;
  out.elf_class = e->elf_class();
  out.machine = e->machine();
  return out;
}

// One repair's state, handed from phase to phase. Each phase adds its verdicts to the result and
// returns false when the input is bad (exit 2, the reason in `res.error`): the repair stops there.
struct Repair {
  const RepairOptions& o;
  RepairResult& res;
  WheelPolicies policies;
  plan::BuildKb build_kb;
  std::string out_dir, root;
  std::optional<util::ScratchDir> scratch;  // the work tree: removed on return or a signal
  std::optional<UnpackedWheel> w;
  std::string dist, libs_dir, arch;
  bool is_torch = false;
  std::vector<Elf> elfs;
  std::map<std::string, std::string> provided;  // name -> rel path
  std::set<std::string> all_system_libs;        // allowed by some policy; the chosen one is checked later
  std::set<std::string> system_used;
  TorchLibs torch_libs;                         // what import torch maps (RepairOptions::torch_dir)
  std::set<std::string> torch_provided;         // NEEDED names torch's mapped libraries answer
  bool failed = false;                          // a check failed: nothing is written
  Patchelf pe;
  std::vector<std::string> needs_patchelf;
  std::vector<ElfNeeds> needs;
  PlatformChoice choice;
  std::string version, pin;

  void verdict(std::string file, std::string check, Outcome out, std::string detail) {
    res.verdicts.push_back({std::move(file), std::move(check), out, std::move(detail)});
  }
  bool bad_input(std::string why) {
    res.exit_code = 2;
    res.error = std::move(why);
    verdict("", "input", Outcome::fail, res.error);
    return false;
  }
};

// Knowledge (policies, exclusions, the torch RPATH layout), the work tree beside the output, and
// the wheel unpacked into it.
bool open_input(Repair& r) {
  const RepairOptions& o = r.o;
  std::vector<std::string> kb_errors;
  r.policies = o.policies ? *o.policies : load_wheel_policies({}, kb_errors);
  r.build_kb = o.build_kb ? *o.build_kb : plan::load_build_kb({}, kb_errors);
  if (!kb_errors.empty()) return r.bad_input("knowledge base: " + kb_errors.front());

  struct stat st{};
  if (::stat(o.wheel.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
    return r.bad_input(o.wheel + ": no such file");
  r.out_dir = o.out_dir.empty() ? fs::path(o.wheel).parent_path().string() : o.out_dir;
  std::error_code ec;
  fs::create_directories(r.out_dir.empty() ? "." : r.out_dir, ec);
  // The work tree lives beside the output, so the final rename stays on one filesystem. It carries
  // the pid: one a killed repair left is removed now, and ours on return or a signal.
  const std::string out_parent = r.out_dir.empty() ? "." : r.out_dir;
  util::remove_stale(out_parent, ".ts-repair-");
  util::remove_stale(out_parent, ".whl.tmp-");
  r.scratch.emplace(".ts-repair-" + std::to_string(::getpid()), out_parent);
  if (r.scratch->path().empty())
    return r.bad_input("cannot create a work directory in " + out_parent + ": " + r.scratch->error());
  r.root = r.scratch->path() + "/tree";

  std::string err;
  r.w = unpack_wheel(o.wheel, r.root, &err);
  if (!r.w) return r.bad_input(err);
  r.verdict("", "wheel", Outcome::pass, r.w->name.filename() + ": " + std::to_string(r.w->files.size()) +
                                            " files, " + r.w->dist_info);
  r.dist = r.w->name.dist;
  r.is_torch = normalize_name(r.dist) == "torch";
  r.libs_dir = r.dist + ".libs";
  return true;
}

// A wheel with no compiled extension has nothing to repair: copied unchanged (a note), unless the
// plan compiles CUDA code, which the build then did not make (a failure). Ends the repair.
bool no_extension(Repair& r) {
  const std::string name = r.w->name.filename();
  if (const plan::Plan* p = r.o.plan; p && (!p->arch_list.empty() || p->cuda.is_chosen())) {
    r.res.exit_code = 1;
    r.verdict("", "extension", Outcome::fail,
              name + " holds no compiled extension, but the plan builds CUDA code (CUDA " + p->cuda.text() +
                  (p->arch_list.empty() ? "" : ", arches " + p->arch_list.torch_cuda_arch_list()) +
                  "): the build compiled none of it");
    r.verdict("", "output", Outcome::fail, "not written: a check failed");
    return false;
  }
  r.verdict("", "extension", Outcome::note, "no compiled extension (a pure-Python wheel): nothing to repair");
  std::string err;
  auto out = util::join_inside(r.out_dir.empty() ? "." : r.out_dir, fs::path(r.o.wheel).filename().string(), &err);
  if (!out) return r.bad_input(err);
  std::error_code ec;
  if (!(fs::exists(*out) && fs::equivalent(*out, r.o.wheel, ec))) {
    auto bytes = util::read_file(r.o.wheel);
    if (!bytes) return r.bad_input(r.o.wheel + ": cannot read it");
    if (auto e = util::write_file_atomic(*out, *bytes); !e.empty()) {
      r.res.exit_code = 1;
      r.verdict("", "output", Outcome::fail, e);
      return false;
    }
  }
  r.res.output = *out;
  r.res.unchanged = true;
  r.verdict("", "output", Outcome::pass, *out + " (copied unchanged)");
  return false;
}

// The ELF files, what the wheel itself provides (by file name and by SONAME), and their machine.
bool read_elfs(Repair& r) {
  for (const auto& rel : r.w->files) {
    std::string e;
    auto elf = read_elf(r.root, rel, &e);
    if (!e.empty()) return r.bad_input(e);
    if (!elf) continue;  // a non-ELF named like a library was refused by formats::check_wheel
    r.provided.emplace(base_of(rel), rel);
    if (!elf->soname.empty()) r.provided.emplace(elf->soname, rel);
    r.elfs.push_back(std::move(*elf));
  }
  if (r.elfs.empty()) return no_extension(r);
  r.arch = wheel_arch(r.elfs.front().machine);
  for (const auto& e : r.elfs)
    if (e.machine != r.elfs.front().machine)
      return r.bad_input(e.rel + " is for another machine than " + r.elfs.front().rel);
  if (r.arch.empty()) return r.bad_input(r.elfs.front().rel + ": no wheel platform tag exists for its machine");
  return true;
}

// Every NEEDED accounted for: the wheel's own, torch's or the driver's, a manylinux system library,
// else vendored under a hashed name (or a failure naming it). Vendored files are walked too.
bool account_needed(Repair& r) {
  const RepairOptions& o = r.o;
  std::vector<std::string> search = o.lib_dirs;
  for (const auto& d : o.system_dirs.empty() ? verify::system_library_dirs() : o.system_dirs)
    search.push_back(d);
  for (const auto& p : r.policies.policies) r.all_system_libs.insert(p.libs.begin(), p.libs.end());
  r.torch_libs = read_torch_libs(o.torch_dir, r.elfs.front().elf_class, r.elfs.front().machine);
  std::map<std::string, std::string> vendored_as;  // original name -> rel path in the wheel
  std::error_code ec;
  auto& elfs = r.elfs;
  const std::string& root = r.root;
  const std::string& libs_dir = r.libs_dir;

  // Walk every ELF, vendored ones included (they are appended as they are copied in).
  for (std::size_t i = 0; i < elfs.size(); ++i) {
    std::vector<Elf> pending;
    Elf& e = elfs[i];
    for (const auto& n : e.needed) {
      if (auto p = r.provided.find(n); p != r.provided.end()) {
        e.want_rpath.push_back(origin_path(dir_of(e.rel), dir_of(p->second)));
        continue;
      }
      if (auto v = vendored_as.find(n); v != vendored_as.end()) {
        e.renames[n] = base_of(v->second);
        e.want_rpath.push_back(origin_path(dir_of(e.rel), dir_of(v->second)));
        continue;
      }
      if (const External* x = r.policies.external(n)) {
        if (!r.is_torch || x->provider.rfind("torch", 0) != 0)
          r.verdict(e.rel, "needed", Outcome::pass, n + ": provided by " + x->provider + ", not vendored");
        else
          r.verdict(e.rel, "needed", Outcome::pass, n + ": from the nvidia-* wheels torch depends on");
        continue;
      }
      if (r.all_system_libs.count(n)) {
        r.system_used.insert(n);
        continue;
      }
      const auto vs = e.version_needs.find(n);
      const TorchProvides tp = torch_provides(r.torch_libs, n, vs == e.version_needs.end() ? std::vector<std::string>{} : vs->second);
      if (tp.provided) {
        r.torch_provided.insert(n);
        r.verdict(e.rel, "needed", Outcome::pass,
                  n + ": provided by torch (" + tp.path + ", mapped by import torch before the extension loads; "
                      "the loader binds this NEEDED to it by SONAME), not vendored");
        continue;
      }
      const std::string not_torch = tp.why.empty() ? "" : " (not torch's: " + tp.why + ")";
      if (!o.vendor) {
        r.verdict(e.rel, "needed", Outcome::fail,
                  n + " is not in the wheel, not torch's, and not a manylinux system library" + not_torch +
                      "; rerun with --vendor to bundle it");
        r.failed = true;
        continue;
      }
      const std::string src = find_library(n, search, e.elf_class, e.machine);
      if (src.empty()) {
        r.verdict(e.rel, "needed", Outcome::fail,
                  n + " is needed but found neither in the wheel nor in " + std::to_string(search.size()) +
                      " library directories; install it or pass --lib-dir DIR");
        r.failed = true;
        continue;
      }
      const std::string hashed = vendored_name(n, src);
      const std::string rel = libs_dir + "/" + hashed;
      fs::create_directories(root + "/" + libs_dir, ec);
      fs::copy_file(src, root + "/" + rel, fs::copy_options::overwrite_existing, ec);
      if (ec) return r.bad_input("cannot copy " + src + ": " + ec.message());
      ::chmod((root + "/" + rel).c_str(), 0755);
      std::string re;
      auto copied = read_elf(root, rel, &re);
      if (!copied) return r.bad_input(src + ": " + (re.empty() ? "not an ELF file" : re));
      copied->vendored = true;
      copied->soname = hashed;
      vendored_as[n] = rel;
      r.w->files.push_back(rel);
      r.res.vendored.push_back(n + " -> " + rel + " (from " + src + ")");
      r.verdict(e.rel, "needed", Outcome::note, n + ": vendored as " + rel + " (from " + src + ")" + not_torch);
      e.renames[n] = hashed;
      e.want_rpath.push_back(origin_path(dir_of(e.rel), libs_dir));
      pending.push_back(std::move(*copied));
    }
    // Appended after the walk over `e`'s NEEDED: push_back would move `e`.
    for (auto& p : pending) elfs.push_back(std::move(p));
  }
  return true;
}

// RPATHs: the official layout for torch, else what the dependencies need; absolute entries
// (build directories) never ship. Written in place when the new path fits in the old one's bytes;
// NEEDED renames, vendored SONAMEs and longer paths with patchelf.
bool set_rpaths(Repair& r) {
  r.pe = find_patchelf(r.o.patchelf);
  const Patchelf& pe = r.pe;
  for (auto& e : r.elfs) {
    std::vector<std::string> entries;
    const plan::Rpath* rule = r.is_torch ? rpath_rule(r.build_kb, "wheel", e.rel) : nullptr;
    if (rule) {
      entries = split_rpath(rule->rpath);
    } else {
      for (const auto& x : split_rpath(e.rpath.empty() ? e.runpath : e.rpath)) {
        if (x.rfind("$ORIGIN", 0) == 0 || x.rfind("${ORIGIN}", 0) == 0) entries.push_back(x);
        else r.verdict(e.rel, "rpath", Outcome::note, "dropped '" + x + "': points outside the wheel");
      }
    }
    for (const auto& x : e.want_rpath)
      if (std::find(entries.begin(), entries.end(), x) == entries.end()) entries.push_back(x);
    const std::string want = join_rpath(entries);
    const std::string have = e.rpath.empty() ? e.runpath : e.rpath;
    const bool rpath_changes = want != have || (!e.runpath.empty() && !want.empty());
    std::vector<std::string> edits;
    if (rpath_changes) edits.push_back("RPATH " + (want.empty() ? "''" : want));
    for (const auto& [from, to] : e.renames) edits.push_back("NEEDED " + from + " -> " + to);
    if (e.vendored) edits.push_back("SONAME " + e.soname);
    if (edits.empty()) {
      r.verdict(e.rel, "rpath", Outcome::pass, have.empty() ? "none needed" : have + " (kept)");
      continue;
    }
    // The edit planner: in place when it fits, else patchelf (rpath.h says why one rule for all).
    const std::string path = r.root + "/" + e.rel;
    const ElfEditChoice how = choose_elf_editor(pe, path, want, rpath_changes, !e.renames.empty() || e.vendored);
    if (how.editor == ElfEditor::none) {
      std::string all;
      for (const auto& x : edits) all += (all.empty() ? "" : "; ") + x;
      r.needs_patchelf.push_back(e.rel);
      r.verdict(e.rel, "rpath", Outcome::fail,
                "patchelf is not installed; this file needs: " + all + " (not editable in place: " + how.why + ")");
      continue;
    }
    std::string pe_err;
    if (how.editor == ElfEditor::patchelf) {
      for (const auto& [from, to] : e.renames)
        if (pe_err.empty()) pe_err = replace_needed(pe, path, from, to);
      if (pe_err.empty() && e.vendored) pe_err = set_soname(pe, path, e.soname);
    }
    if (pe_err.empty() && rpath_changes) pe_err = write_rpath(how, pe, path, want);
    if (!pe_err.empty()) {
      r.verdict(e.rel, "rpath", Outcome::fail, pe_err);
      r.failed = true;
      continue;
    }
    std::string via = rule ? " (" + rule->source + ")" : "";
    r.verdict(e.rel, "rpath", Outcome::pass, (want.empty() ? "none" : want) + via + " [" + how.label() + "]");
  }
  if (!r.needs_patchelf.empty()) {
    r.failed = true;
    r.verdict("", "patchelf", Outcome::fail,
              "patchelf is not installed; " + std::to_string(r.needs_patchelf.size()) +
                  " file(s) need edits (apt install patchelf, or pass its path)");
  }
  return true;
}

// Re-read what was written: every NEEDED must now resolve inside the tree or the system, except
// what torch or the driver provides at run time.
bool check_resolved(Repair& r) {
  for (const auto& e : r.elfs) {
    std::string re;
    auto now = read_elf(r.root, e.rel, &re);
    if (!now) {
      r.verdict(e.rel, "elf", Outcome::fail, re.empty() ? "no longer an ELF file" : re);
      r.failed = true;
      continue;
    }
    r.needs.push_back({e.rel, now->versions});
    if (!r.pe.available() && !r.needs_patchelf.empty()) continue;  // not edited: resolving says nothing new
    verify::ResolveOptions ro;
    ro.system_dirs = r.o.system_dirs.empty() ? verify::system_library_dirs() : r.o.system_dirs;
    auto res = verify::resolve_needed(r.root + "/" + e.rel, ro);
    std::string missing;
    for (const auto& m : res.missing) {
      if (r.policies.external(m.name) || r.all_system_libs.count(m.name) || r.torch_provided.count(m.name)) continue;
      missing += (missing.empty() ? "" : ", ") + m.name;
    }
    if (!missing.empty()) {
      r.verdict(e.rel, "resolve", Outcome::fail, "still unresolved in the repaired layout: " + missing);
      r.failed = true;
    } else {
      r.verdict(e.rel, "resolve", Outcome::pass, "every NEEDED resolves (torch and driver libraries aside)");
    }
  }
  return true;
}

// Platform tag: the oldest policy the symbol versions fit and whose library list has every
// system library used.
bool choose_platform_tag(Repair& r) {
  PlatformChoice& choice = r.choice;
  choice = choose_platform(r.policies, r.arch, r.needs);
  while (choice.policy) {
    std::string outside;
    for (const auto& l : r.system_used)
      if (std::find(choice.policy->libs.begin(), choice.policy->libs.end(), l) == choice.policy->libs.end())
        outside = l;
    if (outside.empty()) break;
    WheelPolicies newer;
    for (const auto& p : r.policies.policies)
      if (dotted_less(choice.policy->glibc, p.glibc)) newer.policies.push_back(p);
    choice = choose_platform(newer, r.arch, r.needs);
    if (!choice.policy) choice.why = outside + " is not a system library of any manylinux policy";
  }
  r.res.platform = choice.tag;
  r.verdict("", "platform", choice.policy ? Outcome::pass : Outcome::note, choice.tag + ": " + choice.why);
  return true;
}

// The local version, and the torch pin: by default for an extension whose plan names its torch
// (torch_pin.h says why).
bool choose_version(Repair& r) {
  const RepairOptions& o = r.o;
  std::string err;
  // A plan whose package reads its own version as a number keeps it unlabelled (package.plain-version).
  const std::string mode = !o.local_version.empty()          ? o.local_version
                           : o.plan && !o.plan->plain_version ? "auto"
                                                              : "none";
  auto version = apply_local_version(r.w->name.version, r.dist, mode, o.plan, &err);
  if (!version) return r.bad_input(err);
  if (auto why = check_wheel_version(*version); !why.empty()) return r.bad_input(why);
  const bool extension_plan = o.plan && !o.plan->torch_version.empty() && normalize_name(r.dist) != "torch";
  const std::string pin_mode = !o.pin_torch.empty() ? o.pin_torch : extension_plan ? "minor" : "none";
  if (pin_mode != "none") {
    if (!extension_plan && pin_mode != "minor" && pin_mode != "exact")
      return r.bad_input("--pin-torch '" + pin_mode + "': give minor, exact or none");
    if (!extension_plan)
      return r.bad_input("--pin-torch " + pin_mode + " needs --plan with an extension's lock (it names the torch "
                         "the wheel was built against); or --pin-torch none");
    auto req = torch_requirement(pin_mode, o.plan->torch_version, &err);
    if (!req && !o.pin_torch.empty()) return r.bad_input(err);
    if (!req) r.verdict("", "requires", Outcome::note, "torch not pinned: " + err);
    else r.pin = *req;
  }
  r.version = *version;
  r.res.version = *version;
  r.verdict("", "version", Outcome::pass, *version == r.w->name.version ? *version + " (unchanged)"
                                                                        : r.w->name.version + " -> " + *version);
  return true;
}

// The output: .dist-info and .data renamed for the version, METADATA and WHEEL rewritten, the
// tags checked into the file name, RECORD rewritten by the packer, written atomically.
bool write_output(Repair& r) {
  const RepairOptions& o = r.o;
  const auto& w = r.w;
  const std::string& root = r.root;
  std::error_code ec;
  WheelName out_name = w->name;
  out_name.version = r.version;
  PackInput pack;
  pack.root = root;
  pack.dist_info = out_name.dist_info();
  const std::string old_data = w->name.dist + "-" + w->name.version + ".data/";
  const std::string new_data = out_name.dist + "-" + out_name.version + ".data/";
  for (const auto& rel : w->files) {
    std::string to = rel;
    if (rel.rfind(w->dist_info + "/", 0) == 0) {
      const std::string leaf = rel.substr(w->dist_info.size() + 1);
      if (leaf == "RECORD" || leaf == "RECORD.jws" || leaf == "RECORD.p7s") continue;  // stale now
      to = pack.dist_info + "/" + leaf;
    } else if (rel.rfind(old_data, 0) == 0) {
      to = new_data + rel.substr(old_data.size());
    }
    if (to != rel) {
      fs::create_directories(fs::path(root + "/" + to).parent_path(), ec);
      fs::rename(root + "/" + rel, root + "/" + to, ec);
      if (ec) return r.bad_input("cannot move " + rel + ": " + ec.message());
    }
    pack.files.push_back(to);
  }
  for (const auto& e : r.elfs) {
    ::chmod((root + "/" + e.rel).c_str(), 0755);
  }
  auto text = [&](const std::string& rel) { return util::read_file(root + "/" + rel).value_or(""); };
  auto meta = rewrite_metadata_version(text(pack.dist_info + "/METADATA"), r.version);
  if (!meta) return r.bad_input(w->dist_info + "/METADATA has no Version: line");
  if (!r.pin.empty()) {
    std::string took;
    *meta = metadata_with_torch_requirement(*meta, r.pin, &took);
    r.verdict("", "requires", Outcome::pass,
              "Requires-Dist: " + r.pin + " (the torch it was built against" +
                  (took.empty() ? std::string() : "; replaces " + util::trim(took)) + "; --pin-torch none leaves it out)");
  }
  pack.replaced[pack.dist_info + "/METADATA"] = *meta;
  std::vector<std::string> tags;
  pack.replaced[pack.dist_info + "/WHEEL"] = rewrite_wheel_file(text(pack.dist_info + "/WHEEL"), r.choice.tag, &tags);
  if (tags.empty()) return r.bad_input(w->dist_info + "/WHEEL has no Tag: line");
  // The tags become the output's file name: a Tag with '/' or '..' must not choose where it goes.
  for (const auto& t : tags)
    if (auto why = check_wheel_tag(t); !why.empty()) return r.bad_input(w->dist_info + "/WHEEL: " + why);
  tags_to_name(tags, out_name);
  r.verdict("", "tags", Outcome::pass, out_name.python + "-" + out_name.abi + "-" + out_name.platform +
                                           " (file name and WHEEL agree)");

  std::string join_err;
  auto out_path = util::join_inside(r.out_dir.empty() ? "." : r.out_dir, out_name.filename(), &join_err);
  if (!out_path) return r.bad_input(join_err);
  const std::string out = *out_path;
  if (fs::exists(out) && fs::equivalent(out, o.wheel, ec))
    return r.bad_input(out + " would replace the input wheel; pass -o DIR to write it elsewhere");
  std::string pe2 = pack_wheel(pack, out);
  if (!pe2.empty()) {
    r.res.exit_code = 1;
    r.verdict("", "output", Outcome::fail, pe2);
    return true;
  }
  r.res.output = out;
  r.verdict("", "output", Outcome::pass, out + " (RECORD rewritten with sha256)");
  return true;
}

}  // namespace

RepairResult repair_wheel(const RepairOptions& o) {
  RepairResult res;
  Repair r{o, res};
  // The phases in order; the first that finds bad input ends the repair (its verdict says why).
  for (bool (*phase)(Repair&) : {open_input, read_elfs, account_needed, set_rpaths, check_resolved,
                                 choose_platform_tag, choose_version})
    if (!phase(r)) return res;
  if (r.failed) {
    res.exit_code = 1;
    r.verdict("", "output", Outcome::fail, "not written: a check failed");
    return res;
  }
  write_output(r);
  return res;
}

}  // namespace ts::package
