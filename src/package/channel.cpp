#include "package/channel.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "formats/bzip_stream.h"
#include "package/conda_digest.h"
#include "package/index.h"
#include "formats/tar_reader.h"
#include "formats/tar_stream.h"
#include "formats/zstd_stream.h"
#include "util/fs.h"
#include "formats/mapped_file.h"
#include "formats/zip.h"

namespace fs = std::filesystem;

namespace ts::package {
namespace {

constexpr std::uint64_t kMaxIndexJson = 1 << 20;

// Walks a tar stream; returns info/index.json parsed. Reads to the end when `whole` is set.
std::optional<nlohmann::json> index_from_tar(formats::ByteSource& src, bool whole, std::string* error) {
  formats::TarReader tar(src);
  formats::TarMember m;
  std::optional<nlohmann::json> found;
  while (tar.next(m)) {
    if (m.name != "info/index.json" || found) continue;
    std::string text;
    if (!tar.read_data(text, kMaxIndexJson)) break;
    try {
      found = nlohmann::json::parse(text);
    } catch (const std::exception& e) {
      *error = "info/index.json is not JSON (" + std::string(e.what()) + ")";
      return std::nullopt;
    }
    if (!whole) return found;
  }
  if (!tar.error().empty()) {
    *error = tar.error();
    return std::nullopt;
  }
  if (!found) *error = "it has no info/index.json";
  return found;
}

bool ends_with(const std::string& s, const std::string& e) {
  return s.size() >= e.size() && s.compare(s.size() - e.size(), e.size(), e) == 0;
}

// The compressed info-*.tar.zst is read into memory: it holds metadata (index.json, paths.json), a
// few megabytes even for torch.
constexpr std::uint64_t kMaxInfoMember = 256ull << 20;

std::optional<nlohmann::json> index_from_conda(formats::Bytes data, std::string* error) {
  auto zip = formats::ZipArchive::open(data, error);
  if (!zip) return std::nullopt;
  const formats::ZipMember* info = nullptr;
  bool has_meta = false, has_pkg = false;
  for (const auto& m : zip->members()) {
    if (m.name == "metadata.json") has_meta = true;
    if (m.name.rfind("info-", 0) == 0 && ends_with(m.name, ".tar.zst")) info = &m;
    if (m.name.rfind("pkg-", 0) == 0 && ends_with(m.name, ".tar.zst")) has_pkg = true;
  }
  if (!has_meta || !info || !has_pkg) {
    *error = "not a .conda package (it needs metadata.json, info-*.tar.zst and pkg-*.tar.zst)";
    return std::nullopt;
  }
  std::string member;
  *error = zip->read(*info, member, kMaxInfoMember);
  if (!error->empty()) return std::nullopt;
  formats::BytesSource raw({reinterpret_cast<const unsigned char*>(member.data()), member.size()});
  formats::ZstdSource z(raw);
  return index_from_tar(z, true, error);
}

// index.json must be an object with the string fields repodata.json needs.
std::optional<nlohmann::json> checked(std::optional<nlohmann::json> j, std::string* error) {
  if (j && !j->is_object()) {
    *error = "info/index.json is not a JSON object";
    return std::nullopt;
  }
  for (const char* key : {"name", "version", "build"})
    if (j && !(j->contains(key) && (*j)[key].is_string())) {
      *error = std::string("info/index.json has no \"") + key + "\"";
      return std::nullopt;
    }
  return j;
}

}  // namespace

std::optional<nlohmann::json> read_conda_index_json(const std::string& path, std::string* error) {
  if (ends_with(path, ".tar.bz2")) {
    formats::FileSource f(path);
    if (!f.ok()) {
      *error = f.error();
      return std::nullopt;
    }
    formats::Bzip2Source bz(f);
    return checked(index_from_tar(bz, true, error), error);
  }
  formats::MappedFile mf(path);
  if (!mf.ok()) {
    *error = mf.error();
    return std::nullopt;
  }
  return checked(index_from_conda(mf.bytes(), error), error);
}

std::optional<nlohmann::json> read_conda_index_bytes(formats::Bytes data, bool conda, std::string* error) {
  if (conda) return checked(index_from_conda(data, error), error);
  formats::BytesSource raw(data);
  formats::Bzip2Source bz(raw);
  return checked(index_from_tar(bz, true, error), error);
}

void index_conda_channel(const std::string& dir, IndexResult& r) {
  std::set<std::string> subdirs{"linux-64", "noarch"};
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    std::string n = e.path().filename().string();
    if (e.is_directory(ec) && n != "simple" && n[0] != '.') {
      for (const auto& f : fs::directory_iterator(e.path(), ec)) {
        std::string fn = f.path().filename().string();
        if (ends_with(fn, ".tar.bz2") || ends_with(fn, ".conda")) subdirs.insert(n);
      }
    } else if (e.is_regular_file(ec) && (ends_with(n, ".tar.bz2") || ends_with(n, ".conda"))) {
      r.notes.push_back(
          n + " is not in a subdir: conda looks for packages in DIR/<subdir>/ (move it to " + dir +
          "/linux-64/ or where its info/index.json says)");
    }
  }
  for (const auto& sub : subdirs) {
    std::string sdir = dir + "/" + sub;
    fs::create_directories(sdir, ec);
    if (ec) {
      r.problems.push_back({sdir, "cannot create: " + ec.message()});
      continue;
    }
    std::vector<std::string> names;
    for (const auto& f : fs::directory_iterator(sdir, ec)) {
      std::string fn = f.path().filename().string();
      if (f.is_regular_file(ec) && fn[0] != '.' &&
          (ends_with(fn, ".tar.bz2") || ends_with(fn, ".conda")))
        names.push_back(fn);
    }
    std::sort(names.begin(), names.end());
    nlohmann::json packages = nlohmann::json::object(), conda = nlohmann::json::object();
    for (const auto& fn : names) {
      std::string path = sdir + "/" + fn, err;
      std::string shown = sub + "/" + fn;
      auto j = read_conda_index_json(path, &err);
      if (!j) {
        r.problems.push_back(
            {shown, "corrupt conda package: " + err + "; rebuild it or remove it"});
        continue;
      }
      if (j->contains("subdir") && (*j)["subdir"].is_string() && (*j)["subdir"] != sub) {
        r.problems.push_back({shown, "built for " + (*j)["subdir"].get<std::string>() +
                                         ", found in " + sub + "/: move it to " + dir + "/" +
                                         (*j)["subdir"].get<std::string>() + "/"});
        continue;
      }
      auto d = digest_file(path, &err);
      if (!d) {
        r.problems.push_back({shown, err});
        continue;
      }
      nlohmann::json rec = *j;
      rec["sha256"] = d->sha256;
      rec["md5"] = d->md5;
      rec["size"] = d->size;
      rec["subdir"] = sub;
      if (!rec.contains("depends")) rec["depends"] = nlohmann::json::array();
      if (!rec.contains("build_number")) rec["build_number"] = 0;
      (ends_with(fn, ".conda") ? conda : packages)[fn] = rec;
      ++r.conda_packages;
    }
    nlohmann::json repodata = {{"info", {{"subdir", sub}}},
                               {"packages", packages},
                               {"packages.conda", conda},
                               {"removed", nlohmann::json::array()},
                               {"repodata_version", 1}};
    std::string out = sdir + "/repodata.json";
    std::string err = util::write_file_atomic(out, repodata.dump(1) + "\n");
    if (!err.empty())
      r.problems.push_back({out, err});
    else
      r.written.push_back(out);
  }
}

}  // namespace ts::package
