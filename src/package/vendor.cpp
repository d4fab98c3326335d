#include "package/vendor.h"

#include <fstream>
#include <memory>

#include "package/record.h"
#include "formats/elf.h"
#include "formats/mapped_file.h"

namespace ts::package {

std::string vendored_name(const std::string& name, const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return "";
  Sha256 sha;
  std::unique_ptr<char[]> buf(new char[1 << 20]);
  while (in) {
    in.read(buf.get(), 1 << 20);
    sha.update(buf.get(), std::size_t(in.gcount()));
  }
  const std::string short_hash = hex(sha.digest()).substr(0, 8);
  // auditwheel: the stem before the first ".so", then the hash, then the rest (".so.1").
  const auto so = name.find(".so");
  if (so == std::string::npos) return name + "-" + short_hash;
  return name.substr(0, so) + "-" + short_hash + name.substr(so);
}

std::string find_library(const std::string& name, const std::vector<std::string>& dirs,
                         int elf_class, unsigned machine) {
  if (name.find('/') != std::string::npos) return "";
  for (const auto& d : dirs) {
    const std::string path = d + "/" + name;
    formats::MappedFile f(path);
    if (!f.ok()) continue;
    auto elf = formats::ElfFile::parse(f.bytes(), nullptr);
    if (elf && elf->elf_class() == elf_class && elf->machine() == machine) return path;
  }
  return "";
}

}  // namespace ts::package
