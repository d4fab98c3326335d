#include "package/torch_libs.h"

#include <algorithm>
#include <deque>
#include <filesystem>
#include <set>

#include "formats/elf.h"
#include "formats/mapped_file.h"

namespace ts::package {
namespace fs = std::filesystem;

namespace {

struct Read {
  std::string soname;
  std::vector<std::string> needed, defs;
};

std::optional<Read> read(const std::string& path, int elf_class, unsigned machine) {
  formats::MappedFile f(path);
  if (!f.ok()) return std::nullopt;
  auto b = f.bytes();
  if (b.size() < 4 || b[0] != 0x7f || b[1] != 'E' || b[2] != 'L' || b[3] != 'F') return std::nullopt;
  auto e = formats::ElfFile::parse(b, nullptr);
  if (!e || e->elf_class() != elf_class || e->machine() != machine) return std::nullopt;
  return Read{e->dynamic().soname, e->dynamic().needed, e->dynamic().version_defs};
}

std::vector<std::string> elf_files_in(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& d : fs::directory_iterator(dir, ec))
    if (d.is_regular_file(ec) && d.path().filename().string().find(".so") != std::string::npos)
      out.push_back(d.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TorchLibs read_torch_libs(const std::string& torch_dir, int elf_class, unsigned machine) {
  TorchLibs t;
  if (torch_dir.empty()) return t;
  t.dir = torch_dir;
  std::map<std::string, std::pair<std::string, Read>> lib;  // SONAME or file name -> (path, what it says)
  for (const auto& p : elf_files_in(torch_dir + "/lib"))
    if (auto r = read(p, elf_class, machine)) {
      const std::string name = fs::path(p).filename().string();
      lib.emplace(name, std::make_pair(p, *r));
      if (!r->soname.empty()) lib.emplace(r->soname, std::make_pair(p, *r));
    }
  // The roots import torch maps: its extension modules, and the global deps __init__ loads first.
  std::deque<std::string> todo;
  for (const auto& p : elf_files_in(torch_dir))
    if (auto r = read(p, elf_class, machine)) todo.insert(todo.end(), r->needed.begin(), r->needed.end());
  todo.push_back("libtorch_global_deps.so");
  std::set<std::string> seen;
  while (!todo.empty()) {
    const std::string n = todo.front();
    todo.pop_front();
    auto it = lib.find(n);
    if (it == lib.end() || !seen.insert(it->second.first).second) continue;
    const auto& [path, r] = it->second;
    t.mapped[r.soname.empty() ? n : r.soname] = {path, r.defs};
    todo.insert(todo.end(), r.needed.begin(), r.needed.end());
  }
  for (const auto& [name, pr] : lib)
    if (!seen.count(pr.first) && name == (pr.second.soname.empty() ? name : pr.second.soname))
      t.unmapped[name] = pr.first;
  return t;
}

TorchProvides torch_provides(const TorchLibs& t, const std::string& name, const std::vector<std::string>& versions) {
  TorchProvides out;
  if (auto u = t.unmapped.find(name); u != t.unmapped.end()) {
    out.path = u->second;
    out.why = "torch ships " + u->second + " but import torch does not load it";
    return out;
  }
  auto m = t.mapped.find(name);
  if (m == t.mapped.end()) return out;
  out.path = m->second.path;
  std::string missing;
  for (const auto& v : versions)
    if (std::find(m->second.version_defs.begin(), m->second.version_defs.end(), v) == m->second.version_defs.end())
      missing += (missing.empty() ? "" : ", ") + v;
  if (!missing.empty()) {
    out.why = "torch's " + m->second.path + " lacks " + missing;
    return out;
  }
  out.provided = true;
  return out;
}

}  // namespace ts::package
