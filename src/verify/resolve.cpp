#include "verify/resolve.h"

#include <sys/stat.h>

#include <deque>
#include <filesystem>
#include <map>
#include <memory>

#include "formats/elf.h"
#include "verify/ld_conf.h"
#include "formats/mapped_file.h"
#include "util/split.h"

namespace ts::verify {
namespace {

namespace fs = std::filesystem;

// An object on the loader's list: what later NEEDED entries can match, and its search paths.
struct Loaded {
  std::string path, origin, soname;
  std::vector<std::string> rpath, runpath;
  bool has_runpath = false, nodeflib = false;
  int loader = -1;  // index of the object that loaded it (the RPATH chain), -1 for roots
  std::vector<std::string> needed;
};

std::string absolute(const std::string& p) {
  std::error_code ec;
  fs::path a = fs::absolute(p, ec);
  return ec ? p : a.lexically_normal().string();
}

std::string dir_of(const std::string& p) { return fs::path(p).parent_path().string(); }

bool is_file(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (std::size_t i = s.find(from); i != std::string::npos; i = s.find(from, i + to.size())) s.replace(i, from.size(), to);
}

}  // namespace

std::vector<std::string> expand_search_path(const std::string& value, const std::string& origin) {
  std::vector<std::string> out;
  for (std::string d : util::split_nonempty(value, ':')) {  // "" means cwd to ld.so: never wanted
    replace_all(d, "${ORIGIN}", origin);
    replace_all(d, "$ORIGIN", origin);
    if (d.find('$') != std::string::npos) continue;
    out.push_back(d);
  }
  return out;
}

Resolution resolve_needed(const std::string& root_path, const ResolveOptions& o) {
  Resolution res;
  const std::vector<std::string> system = o.system_dirs.empty() ? system_library_dirs() : o.system_dirs;
  std::vector<Loaded> loaded;
  std::map<std::string, int> by_name;  // SONAME, file name and path of each loaded object -> index
  int want_class = 0, want_machine = 0;

  // Reads an object into the list; -1 and an error when it is not a usable ELF. *wrong_kind is set
  // for an ELF of another class or machine, which the loader passes over (anything else stops it).
  bool wrong_kind = false;
  auto load = [&](const std::string& path, int loader, std::string* why) -> int {
    wrong_kind = false;
    formats::MappedFile m(path);
    if (!m.ok()) { *why = m.error(); return -1; }
    std::string err;
    auto elf = formats::ElfFile::parse(m.bytes(), &err);
    if (!elf) { *why = path + ": " + err; return -1; }
    if (want_class == 0) { want_class = elf->elf_class(); want_machine = elf->machine(); }
    if (elf->elf_class() != want_class || elf->machine() != want_machine) {
      *why = path + ": " + elf->describe() + ", not the root's kind";
      wrong_kind = true;
      return -1;
    }
    Loaded l;
    l.path = path;
    l.origin = dir_of(path);
    l.soname = elf->dynamic().soname;
    l.rpath = expand_search_path(elf->dynamic().rpath, l.origin);
    l.has_runpath = !elf->dynamic().runpath.empty();
    l.runpath = expand_search_path(elf->dynamic().runpath, l.origin);
    l.nodeflib = elf->dynamic().nodeflib;
    l.loader = loader;
    l.needed = elf->dynamic().needed;
    const int idx = int(loaded.size());
    loaded.push_back(std::move(l));
    const Loaded& n = loaded.back();
    if (!n.soname.empty()) by_name.emplace(n.soname, idx);
    by_name.emplace(path, idx);
    return idx;
  };

  // A candidate in a directory. An ELF of another class or machine is passed over, as ld.so does;
  // a file that is no loadable ELF at all ends the search with an error, as it does for ld.so
  // ("invalid ELF header", "file too short"): `stop` then holds the reason.
  std::string stop;
  auto try_dir = [&](const std::string& dir, const std::string& name, int loader, int& idx) {
    if (!stop.empty()) return true;
    const std::string p = absolute((fs::path(dir) / name).string());
    if (!is_file(p)) return false;
    if (auto it = by_name.find(p); it != by_name.end()) { idx = it->second; return true; }
    std::string why;
    idx = load(p, loader, &why);
    if (idx < 0 && !wrong_kind) stop = why;
    return idx >= 0 || !stop.empty();
  };

  std::string why;
  for (const auto& p : o.preload) {
    if (load(absolute(p), -1, &why) < 0) res.errors.push_back("preload " + why);
  }
  const std::size_t first_root = loaded.size();
  const int root = load(absolute(root_path), -1, &why);
  if (root < 0) {
    res.errors.push_back(why);
    return res;
  }
  std::deque<int> queue{root};
  std::vector<bool> walked(loaded.size(), false);
  walked[root] = true;
  while (!queue.empty() && loaded.size() < o.max_objects) {
    const int cur = queue.front();
    queue.pop_front();
    const std::vector<std::string> needed = loaded[cur].needed;  // copy: `loaded` grows below
    for (const auto& name : needed) {
      ResolvedLib r{name, "", loaded[cur].path, ""};
      int idx = -1;
      stop.clear();
      if (auto it = by_name.find(name); it != by_name.end()) {
        idx = it->second;
        r.via = std::size_t(idx) < first_root ? "preload" : "loaded";
      } else if (name.find('/') != std::string::npos) {
        // A name with a slash is a path (relative to the process's cwd, which we take as the root's dir).
        std::string p = name.starts_with("/") ? name : (fs::path(loaded[cur].origin) / name).string();
        if (is_file(p) && (idx = load(absolute(p), cur, &why)) >= 0) r.via = "path";
      } else {
        const Loaded& l = loaded[cur];
        if (!l.has_runpath) {
          // DT_RPATH of the loader, then of the object that loaded it, and on up; an object with
          // DT_RUNPATH contributes no DT_RPATH.
          for (int c = cur; c >= 0 && idx < 0; c = loaded[c].loader)
            if (!loaded[c].has_runpath)
              for (const auto& d : loaded[c].rpath)
                if (try_dir(d, name, cur, idx)) { r.via = "RPATH"; break; }
        }
        for (std::size_t i = 0; idx < 0 && i < o.ld_library_path.size(); ++i)
          if (try_dir(o.ld_library_path[i], name, cur, idx)) r.via = "LD_LIBRARY_PATH";
        for (std::size_t i = 0; idx < 0 && i < loaded[cur].runpath.size(); ++i)
          if (try_dir(loaded[cur].runpath[i], name, cur, idx)) r.via = "RUNPATH";
        for (std::size_t i = 0; idx < 0 && !loaded[cur].nodeflib && i < system.size(); ++i)
          if (try_dir(system[i], name, cur, idx)) r.via = "system";
      }
      if (!stop.empty()) {
        r.via = "";
        r.error = stop;
        res.missing.push_back(r);
      } else if (idx >= 0) {
        r.path = loaded[idx].path;
        by_name.emplace(name, idx);
        if (walked.size() < loaded.size()) walked.resize(loaded.size(), false);
        if (!walked[idx]) { walked[idx] = true; queue.push_back(idx); }
      } else {
        res.missing.push_back(r);
      }
      res.libs.push_back(std::move(r));
    }
  }
  if (loaded.size() >= o.max_objects) res.errors.push_back("stopped after " + std::to_string(o.max_objects) + " objects");
  return res;
}

}  // namespace ts::verify
