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
  out.elf_class = e->elf_class();
  out.machine = e->machine();
  return out;
}

}  // namespace

RepairResult repair_wheel(const RepairOptions& o) {
  RepairResult res;
  auto verdict = [&](std::string file, std::string check, Outcome out, std::string detail) {
    res.verdicts.push_back({std::move(file), std::move(check), out, std::move(detail)});
  };
  auto bad_input = [&](std::string why) {
    res.exit_code = 2;
    res.error = std::move(why);
    verdict("", "input", Outcome::fail, res.error);
    return res;
  };

  // Knowledge: policies, exclusions, the torch RPATH layout.
  std::vector<std::string> kb_errors;
  const WheelPolicies policies = o.policies ? *o.policies : load_wheel_policies({}, kb_errors);
  const plan::BuildKb build_kb = o.build_kb ? *o.build_kb : plan::load_build_kb({}, kb_errors);
  if (!kb_errors.empty()) return bad_input("knowledge base: " + kb_errors.front());

  struct stat st{};
  if (::stat(o.wheel.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
    return bad_input(o.wheel + ": no such file");
  const std::string out_dir = o.out_dir.empty() ? fs::path(o.wheel).parent_path().string() : o.out_dir;
  std::error_code ec;
  fs::create_directories(out_dir.empty() ? "." : out_dir, ec);
  // The work tree lives beside the output, so the final rename stays on one filesystem. It carries
  // the pid: one a killed repair left is removed now, and ours on return or a signal.
  const std::string out_parent = out_dir.empty() ? "." : out_dir;
  util::remove_stale(out_parent, ".ts-repair-");
  util::remove_stale(out_parent, ".whl.tmp-");
  util::ScratchDir scratch(".ts-repair-" + std::to_string(::getpid()), out_parent);
  if (scratch.path().empty()) return bad_input("cannot create a work directory in " + out_parent + ": " + scratch.error());
  const std::string work = scratch.path();
  const std::string root = work + "/tree";

  std::string err;
  auto w = unpack_wheel(o.wheel, root, &err);
  if (!w) return bad_input(err);
  verdict("", "wheel", Outcome::pass, w->name.filename() + ": " + std::to_string(w->files.size()) +
                                          " files, " + w->dist_info);
  const std::string dist = w->name.dist;
  const bool is_torch = normalize_name(dist) == "torch";
  const std::string libs_dir = dist + ".libs";

  // The ELF files, and what the wheel itself provides (by file name and by SONAME).
  std::vector<Elf> elfs;
  std::map<std::string, std::string> provided;  // name -> rel path
  for (const auto& rel : w->files) {
    std::string e;
    auto elf = read_elf(root, rel, &e);
    if (!e.empty()) return bad_input(e);
    if (!elf) continue;  // a non-ELF named like a library was refused by formats::check_wheel
    provided.emplace(base_of(rel), rel);
    if (!elf->soname.empty()) provided.emplace(elf->soname, rel);
    elfs.push_back(std::move(*elf));
  }
  if (elfs.empty()) return bad_input(w->name.filename() + " holds no ELF files: a pure-Python wheel needs no repair");
  const std::string arch = wheel_arch(elfs.front().machine);
  for (const auto& e : elfs)
    if (e.machine != elfs.front().machine)
      return bad_input(e.rel + " is for another machine than " + elfs.front().rel);
  if (arch.empty()) return bad_input(elfs.front().rel + ": no wheel platform tag exists for its machine");

  std::vector<std::string> search = o.lib_dirs;
  for (const auto& d : o.system_dirs.empty() ? verify::system_library_dirs() : o.system_dirs)
    search.push_back(d);
  std::set<std::string> all_system_libs;  // allowed by some policy; the chosen one is checked later
  for (const auto& p : policies.policies) all_system_libs.insert(p.libs.begin(), p.libs.end());
  std::set<std::string> system_used;
  std::map<std::string, std::string> vendored_as;  // original name -> rel path in the wheel
  bool failed = false;

  // Walk every ELF, vendored ones included (they are appended as they are copied in).
  for (std::size_t i = 0; i < elfs.size(); ++i) {
    std::vector<Elf> pending;
    Elf& e = elfs[i];
    for (const auto& n : e.needed) {
      if (auto p = provided.find(n); p != provided.end()) {
        e.want_rpath.push_back(origin_path(dir_of(e.rel), dir_of(p->second)));
        continue;
      }
      if (auto v = vendored_as.find(n); v != vendored_as.end()) {
        e.renames[n] = base_of(v->second);
        e.want_rpath.push_back(origin_path(dir_of(e.rel), dir_of(v->second)));
        continue;
      }
      if (const External* x = policies.external(n)) {
        if (!is_torch || x->provider.rfind("torch", 0) != 0)
          verdict(e.rel, "needed", Outcome::pass, n + ": provided by " + x->provider + ", not vendored");
        else
          verdict(e.rel, "needed", Outcome::pass, n + ": from the nvidia-* wheels torch depends on");
        continue;
      }
      if (all_system_libs.count(n)) {
        system_used.insert(n);
        continue;
      }
      if (!o.vendor) {
        verdict(e.rel, "needed", Outcome::fail,
                n + " is not in the wheel, not torch's, and not a manylinux system library; "
                    "rerun with --vendor to bundle it");
        failed = true;
        continue;
      }
      const std::string src = find_library(n, search, e.elf_class, e.machine);
      if (src.empty()) {
        verdict(e.rel, "needed", Outcome::fail,
                n + " is needed but found neither in the wheel nor in " + std::to_string(search.size()) +
                    " library directories; install it or pass --lib-dir DIR");
        failed = true;
        continue;
      }
      const std::string hashed = vendored_name(n, src);
      const std::string rel = libs_dir + "/" + hashed;
      fs::create_directories(root + "/" + libs_dir, ec);
      fs::copy_file(src, root + "/" + rel, fs::copy_options::overwrite_existing, ec);
      if (ec) return bad_input("cannot copy " + src + ": " + ec.message());
      ::chmod((root + "/" + rel).c_str(), 0755);
      std::string re;
      auto copied = read_elf(root, rel, &re);
      if (!copied) return bad_input(src + ": " + (re.empty() ? "not an ELF file" : re));
      copied->vendored = true;
      copied->soname = hashed;
      vendored_as[n] = rel;
      w->files.push_back(rel);
      res.vendored.push_back(n + " -> " + rel + " (from " + src + ")");
      verdict(e.rel, "needed", Outcome::note, n + ": vendored as " + rel + " (from " + src + ")");
      e.renames[n] = hashed;
      e.want_rpath.push_back(origin_path(dir_of(e.rel), libs_dir));
      pending.push_back(std::move(*copied));
    }
    // Appended after the walk over `e`'s NEEDED: push_back would move `e`.
    for (auto& p : pending) elfs.push_back(std::move(p));
  }

  // RPATHs: the official layout for torch, else what the dependencies need; absolute entries
  // (build directories) never ship.
  const Patchelf pe = find_patchelf(o.patchelf);
  std::vector<std::string> needs_patchelf;
  for (auto& e : elfs) {
    std::vector<std::string> entries;
    const plan::Rpath* rule = is_torch ? rpath_rule(build_kb, "wheel", e.rel) : nullptr;
    if (rule) {
      entries = split_rpath(rule->rpath);
    } else {
      for (const auto& r : split_rpath(e.rpath.empty() ? e.runpath : e.rpath)) {
        if (r.rfind("$ORIGIN", 0) == 0 || r.rfind("${ORIGIN}", 0) == 0) entries.push_back(r);
        else verdict(e.rel, "rpath", Outcome::note, "dropped '" + r + "': points outside the wheel");
      }
    }
    for (const auto& r : e.want_rpath)
      if (std::find(entries.begin(), entries.end(), r) == entries.end()) entries.push_back(r);
    const std::string want = join_rpath(entries);
    const std::string have = e.rpath.empty() ? e.runpath : e.rpath;
    std::vector<std::string> edits;
    if (want != have || (!e.runpath.empty() && !want.empty())) edits.push_back("RPATH " + (want.empty() ? "''" : want));
    for (const auto& [from, to] : e.renames) edits.push_back("NEEDED " + from + " -> " + to);
    if (e.vendored) edits.push_back("SONAME " + e.soname);
    if (edits.empty()) {
      verdict(e.rel, "rpath", Outcome::pass, have.empty() ? "none needed" : have + " (kept)");
      continue;
    }
    if (!pe.available()) {
      std::string all;
      for (const auto& x : edits) all += (all.empty() ? "" : "; ") + x;
      needs_patchelf.push_back(e.rel);
      verdict(e.rel, "rpath", Outcome::fail, "patchelf is not installed; this file needs: " + all);
      continue;
    }
    const std::string path = root + "/" + e.rel;
    std::string pe_err;
    for (const auto& [from, to] : e.renames)
      if (pe_err.empty()) pe_err = replace_needed(pe, path, from, to);
    if (pe_err.empty() && e.vendored) pe_err = set_soname(pe, path, e.soname);
    if (pe_err.empty() && (want != have || !e.runpath.empty())) pe_err = set_rpath(pe, path, want);
    if (!pe_err.empty()) {
      verdict(e.rel, "rpath", Outcome::fail, pe_err);
      failed = true;
      continue;
    }
    std::string via = rule ? " (" + rule->source + ")" : "";
    verdict(e.rel, "rpath", Outcome::pass, (want.empty() ? "none" : want) + via);
  }
  if (!needs_patchelf.empty()) {
    failed = true;
    verdict("", "patchelf", Outcome::fail,
            "patchelf is not installed; " + std::to_string(needs_patchelf.size()) +
                " file(s) need edits (apt install patchelf, or pass its path)");
  }

  // Re-read what was written: every NEEDED must now resolve inside the tree or the system, except
  // what torch or the driver provides at run time.
  std::vector<ElfNeeds> needs;
  for (const auto& e : elfs) {
    std::string re;
    auto now = read_elf(root, e.rel, &re);
    if (!now) {
      verdict(e.rel, "elf", Outcome::fail, re.empty() ? "no longer an ELF file" : re);
      failed = true;
      continue;
    }
    needs.push_back({e.rel, now->versions});
    if (!pe.available() && !needs_patchelf.empty()) continue;  // not edited: resolving says nothing new
    verify::ResolveOptions ro;
    ro.system_dirs = o.system_dirs.empty() ? verify::system_library_dirs() : o.system_dirs;
    auto r = verify::resolve_needed(root + "/" + e.rel, ro);
    std::string missing;
    for (const auto& m : r.missing) {
      if (policies.external(m.name) || all_system_libs.count(m.name)) continue;
      missing += (missing.empty() ? "" : ", ") + m.name;
    }
    if (!missing.empty()) {
      verdict(e.rel, "resolve", Outcome::fail, "still unresolved in the repaired layout: " + missing);
      failed = true;
    } else {
      verdict(e.rel, "resolve", Outcome::pass, "every NEEDED resolves (torch and driver libraries aside)");
    }
  }

  // Platform tag: the oldest policy the symbol versions fit and whose library list has every
  // system library used.
  PlatformChoice choice = choose_platform(policies, arch, needs);
  while (choice.policy) {
    std::string outside;
    for (const auto& l : system_used)
      if (std::find(choice.policy->libs.begin(), choice.policy->libs.end(), l) == choice.policy->libs.end())
        outside = l;
    if (outside.empty()) break;
    WheelPolicies newer;
    for (const auto& p : policies.policies)
      if (dotted_less(choice.policy->glibc, p.glibc)) newer.policies.push_back(p);
    choice = choose_platform(newer, arch, needs);
    if (!choice.policy) choice.why = outside + " is not a system library of any manylinux policy";
  }
  res.platform = choice.tag;
  verdict("", "platform", choice.policy ? Outcome::pass : Outcome::note, choice.tag + ": " + choice.why);

  // Version and names.
  const std::string mode = o.local_version.empty() ? (o.plan ? "auto" : "none") : o.local_version;
  auto version = apply_local_version(w->name.version, dist, mode, o.plan, &err);
  if (!version) return bad_input(err);
  if (auto why = check_wheel_version(*version); !why.empty()) return bad_input(why);
  // The torch pin: by default for an extension whose plan names its torch (torch_pin.h says why).
  const bool extension_plan = o.plan && !o.plan->torch_version.empty() && normalize_name(dist) != "torch";
  const std::string pin_mode = !o.pin_torch.empty() ? o.pin_torch : extension_plan ? "minor" : "none";
  std::string pin;
  if (pin_mode != "none") {
    if (!extension_plan && pin_mode != "minor" && pin_mode != "exact")
      return bad_input("--pin-torch '" + pin_mode + "': give minor, exact or none");
    if (!extension_plan)
      return bad_input("--pin-torch " + pin_mode + " needs --plan with an extension's lock (it names the torch "
                       "the wheel was built against); or --pin-torch none");
    auto req = torch_requirement(pin_mode, o.plan->torch_version, &err);
    if (!req && !o.pin_torch.empty()) return bad_input(err);
    if (!req) verdict("", "requires", Outcome::note, "torch not pinned: " + err);
    else pin = *req;
  }
  res.version = *version;
  verdict("", "version", Outcome::pass, *version == w->name.version ? *version + " (unchanged)"
                                                                    : w->name.version + " -> " + *version);
  if (failed) {
    res.exit_code = 1;
    verdict("", "output", Outcome::fail, "not written: a check failed");
    return res;
  }

  WheelName out_name = w->name;
  out_name.version = *version;
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
      if (ec) return bad_input("cannot move " + rel + ": " + ec.message());
    }
    pack.files.push_back(to);
  }
  for (const auto& e : elfs) {
    ::chmod((root + "/" + e.rel).c_str(), 0755);
  }
  auto text = [&](const std::string& rel) { return util::read_file(root + "/" + rel).value_or(""); };
  auto meta = rewrite_metadata_version(text(pack.dist_info + "/METADATA"), *version);
  if (!meta) return bad_input(w->dist_info + "/METADATA has no Version: line");
  if (!pin.empty()) {
    std::string took;
    *meta = metadata_with_torch_requirement(*meta, pin, &took);
    verdict("", "requires", Outcome::pass,
            "Requires-Dist: " + pin + " (the torch it was built against" +
                (took.empty() ? std::string() : "; replaces " + util::trim(took)) + "; --pin-torch none leaves it out)");
  }
  pack.replaced[pack.dist_info + "/METADATA"] = *meta;
  std::vector<std::string> tags;
  pack.replaced[pack.dist_info + "/WHEEL"] = rewrite_wheel_file(text(pack.dist_info + "/WHEEL"), choice.tag, &tags);
  if (tags.empty()) return bad_input(w->dist_info + "/WHEEL has no Tag: line");
  // The tags become the output's file name: a Tag with '/' or '..' must not choose where it goes.
  for (const auto& t : tags)
    if (auto why = check_wheel_tag(t); !why.empty()) return bad_input(w->dist_info + "/WHEEL: " + why);
  tags_to_name(tags, out_name);
  verdict("", "tags", Outcome::pass, out_name.python + "-" + out_name.abi + "-" + out_name.platform +
                                         " (file name and WHEEL agree)");

  std::string join_err;
  auto out_path = util::join_inside(out_dir.empty() ? "." : out_dir, out_name.filename(), &join_err);
  if (!out_path) return bad_input(join_err);
  const std::string out = *out_path;
  if (fs::exists(out) && fs::equivalent(out, o.wheel, ec))
    return bad_input(out + " would replace the input wheel; pass -o DIR to write it elsewhere");
  std::string pe2 = pack_wheel(pack, out);
  if (!pe2.empty()) {
    res.exit_code = 1;
    verdict("", "output", Outcome::fail, pe2);
    return res;
  }
  res.output = out;
  verdict("", "output", Outcome::pass, out + " (RECORD rewritten with sha256)");
  return res;
}

}  // namespace ts::package
