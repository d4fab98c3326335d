#include "verify/wheel_meta.h"

#include <algorithm>
#include <cctype>

#include "formats/elf.h"
#include "formats/mapped_file.h"
#include "formats/zip.h"
#include "util/split.h"

namespace ts::verify {
namespace {

bool identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

bool ends_with(const std::string& s, const std::string& e) {
  return s.size() >= e.size() && s.compare(s.size() - e.size(), e.size(), e) == 0;
}

std::string trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  std::size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return s.substr(i);
}

void add_once(std::vector<std::string>& v, const std::string& s) {
  if (std::find(v.begin(), v.end(), s) == v.end()) v.push_back(s);
}

// The member's path as installed: "pkg-1.0.data/platlib/x/y.so" -> "x/y.so"; "" for metadata,
// scripts, headers and data, which are not importable.
std::string installed_path(const std::string& name) {
  auto parts = util::split(name, '/');
  if (parts.size() < 2) return name;
  if (ends_with(parts[0], ".dist-info")) return "";
  if (ends_with(parts[0], ".data")) {
    if (parts.size() < 3 || (parts[1] != "purelib" && parts[1] != "platlib")) return "";
    return name.substr(parts[0].size() + parts[1].size() + 2);
  }
  return name;
}

// A Python extension module's dotted name for a wheel member: NAME.so or
// NAME.cpython-311-x86_64-linux-gnu.so under packages whose names import; "" for anything else
// (vendored libfoo.so.1 with a version after .so, pkg.libs/, data files).
std::string compiled_name(const std::string& member) {
  if (member.empty() || member.back() == '/') return "";
  std::string path = installed_path(member);
  if (path.empty()) return "";
  auto parts = util::split(path, '/');
  const std::string& file = parts.back();
  if (!(file.size() >= 3 && file.compare(file.size() - 3, 3, ".so") == 0)) return "";
  std::string dotted;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    if (!identifier(parts[i])) return "";
    dotted += parts[i] + ".";
  }
  std::string stem = file.substr(0, file.find('.'));
  return identifier(stem) ? dotted + stem : "";
}

}  // namespace

WheelMeta wheel_meta_from(const std::vector<std::string>& members, const std::string& metadata,
                          const std::string& top_level_txt) {
  WheelMeta w;
  // METADATA is RFC 822 headers; the body (the long description) starts after the first blank line.
  for (const auto& raw : util::split(metadata, '\n')) {
    std::string line = raw;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) break;
    auto colon = line.find(':');
    if (colon == std::string::npos || std::isspace(static_cast<unsigned char>(line[0]))) continue;
    std::string key = line.substr(0, colon), value = trim(line.substr(colon + 1));
    std::transform(key.begin(), key.end(), key.begin(), [](unsigned char c) { return std::tolower(c); });
    if (key == "name") w.name = value;
    else if (key == "version") w.version = value;
    else if (key == "requires-dist" && !value.empty()) w.requires_dist.push_back(value);
  }
  for (const auto& t : util::split(top_level_txt, '\n')) {
    std::string n = trim(t);
    // "pkg/sub" lines name a namespace package's part: its first component is what imports.
    n = n.substr(0, n.find('/'));
    if (identifier(n)) add_once(w.top_level, n);
  }
  const bool from_files = w.top_level.empty();
  for (const auto& m : members) {
    if (m.empty() || m.back() == '/') continue;
    std::string path = installed_path(m);
    if (path.empty()) continue;
    auto parts = util::split(path, '/');
    const std::string& file = parts.back();
    if (from_files) {
      if (parts.size() > 1 && identifier(parts[0])) add_once(w.top_level, parts[0]);
      if (parts.size() == 1 && (ends_with(file, ".py") || ends_with(file, ".so"))) {
        std::string stem = file.substr(0, file.find('.'));
        if (identifier(stem)) add_once(w.top_level, stem);
      }
    }
    if (std::string dotted = compiled_name(m); !dotted.empty()) {
      add_once(w.compiled, dotted);
      w.compiled_files.emplace(dotted, path);
    }
  }
  // A listed name with no installed file: a directory (a package, or a PEP 420 namespace package with
  // no __init__.py) or a module (NAME.py, NAME.cpython-...so) of that name is what an import finds.
  if (!from_files && !members.empty()) {
    std::vector<std::string> have;
    for (const auto& m : members) {
      if (m.empty() || m.back() == '/') continue;
      std::string path = installed_path(m);
      if (path.empty()) continue;
      if (auto slash = path.find('/'); slash != std::string::npos) add_once(have, path.substr(0, slash));
      else if (ends_with(path, ".py") || ends_with(path, ".so")) add_once(have, path.substr(0, path.find('.')));
    }
    std::vector<std::string> kept;
    for (const auto& t : w.top_level)
      (std::find(have.begin(), have.end(), t) != have.end() ? kept : w.top_level_empty).push_back(t);
    if (kept.empty())  // none it lists is there: the wheel's own files say what imports
      for (const auto& h : have)
        if (identifier(h)) kept.push_back(h);
    // The package an extension installs under and top_level.txt leaves out: setuptools lists the
    // extension's name without setup()'s ext_package (PyTorch-EMDLoss: '_emd', installed as
    // _emd_ext/_emd.so), so the file's own top-level package is importable all the same.
    for (const auto& c : w.compiled)
      if (std::string top = c.substr(0, c.find('.')); identifier(top)) add_once(kept, top);
    w.top_level = kept;
  }
  return w;
}

std::optional<WheelMeta> read_wheel_meta(const std::string& wheel, std::string* error) {
  formats::MappedFile f(wheel);
  if (!f.ok()) {
    *error = f.error();
    return std::nullopt;
  }
  std::string err;
  auto zip = formats::ZipArchive::open(f.bytes(), &err);
  if (!zip) {
    *error = wheel + ": " + err;
    return std::nullopt;
  }
  std::vector<std::string> names;
  const formats::ZipMember *meta = nullptr, *top = nullptr;
  for (const auto& m : zip->members()) {
    names.push_back(m.name);
    auto slash = m.name.find('/');
    if (slash == std::string::npos || m.name.find('/', slash + 1) != std::string::npos) continue;
    if (!ends_with(m.name.substr(0, slash), ".dist-info")) continue;
    std::string file = m.name.substr(slash + 1);
    if (file == "METADATA") meta = &m;
    if (file == "top_level.txt") top = &m;
  }
  if (!meta) {
    *error = wheel + ": no *.dist-info/METADATA (not a wheel?)";
    return std::nullopt;
  }
  constexpr std::uint64_t kMax = 16u << 20;
  std::string metadata, top_level;
  if (auto e = zip->read(*meta, metadata, kMax); !e.empty()) {
    *error = wheel + ": " + e;
    return std::nullopt;
  }
  if (top)
    if (auto e = zip->read(*top, top_level, kMax); !e.empty()) {
      *error = wheel + ": " + e;
      return std::nullopt;
    }
  return wheel_meta_from(names, metadata, top_level);
}

void split_op_libraries(WheelMeta& w, const std::string& site) {
  std::vector<std::string> modules;
  for (const auto& dotted : w.compiled) {
    auto file = w.compiled_files.find(dotted);
    formats::MappedFile f(file == w.compiled_files.end() ? std::string() : site + "/" + file->second);
    std::string stem = dotted.substr(dotted.rfind('.') + 1);
    if (f.ok() && elf_is_plain_library(f.bytes().data(), f.bytes().size(), stem)) add_once(w.libraries, dotted);
    else modules.push_back(dotted);
  }
  w.compiled = std::move(modules);
}

bool elf_is_plain_library(const unsigned char* data, std::size_t size, const std::string& stem) {
  std::string err;
  auto elf = formats::ElfFile::parse(formats::Bytes(data, size), &err);
  if (!elf) return false;
  const formats::ElfSection* dynstr = elf->section(".dynstr");
  if (!dynstr) return false;
  auto b = elf->section_bytes(*dynstr);
  std::string_view names(reinterpret_cast<const char*>(b.data()), b.size());
  std::string want = "PyInit_" + stem;
  want.push_back('\0');
  // Names in .dynstr are NUL-terminated; a match must start a name too.
  for (std::size_t at = names.find(want); at != std::string_view::npos; at = names.find(want, at + 1))
    if (at == 0 || names[at - 1] == '\0') return false;
  return true;
}

}  // namespace ts::verify
