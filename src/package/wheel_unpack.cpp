#include "package/wheel_unpack.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>

#include "formats/mapped_file.h"
#include "formats/zip.h"

namespace ts::package {

std::optional<UnpackedWheel> unpack_wheel(const std::string& wheel, const std::string& into,
                                          std::string* error) {
  auto fail = [&](const std::string& why) -> std::optional<UnpackedWheel> {
    if (error) *error = why;
    return std::nullopt;
  };
  UnpackedWheel w;
  std::string err;
  auto name = WheelName::parse(wheel, &err);
  if (!name) return fail(err);
  w.name = *name;
  w.root = into;
  formats::MappedFile f(wheel);
  if (!f.ok()) return fail(f.error());
  auto zip = formats::ZipArchive::open(f.bytes(), &err);
  if (!zip) return fail(wheel + ": " + err);
  std::vector<std::string> dist_infos;
  for (const auto& m : zip->members()) {
    const auto slash = m.name.find('/');
    if (slash != std::string::npos &&
        slash > 10 && m.name.compare(slash - 10, 10, ".dist-info") == 0) {
      std::string d = m.name.substr(0, slash);
      if (std::find(dist_infos.begin(), dist_infos.end(), d) == dist_infos.end()) dist_infos.push_back(d);
    }
  }
  if (dist_infos.size() != 1)
    return fail(wheel + ": " + (dist_infos.empty() ? "no .dist-info directory (not a wheel?)"
                                                   : "more than one .dist-info directory"));
  w.dist_info = dist_infos[0];
  std::error_code ec;
  for (const auto& m : zip->members()) {
    if (m.name.back() == '/') continue;  // directory entries: created as needed
    const std::filesystem::path dest = std::filesystem::path(into) / m.name;
    std::filesystem::create_directories(dest.parent_path(), ec);
    if (ec) return fail("cannot create " + dest.parent_path().string() + ": " + ec.message());
    if (std::filesystem::exists(dest)) return fail(wheel + ": member '" + m.name + "' appears twice");
    std::string e = zip->extract(m, dest.string());
    if (!e.empty()) return fail(wheel + ": " + e);
    w.files.push_back(m.name);
  }
  for (const char* need : {"/WHEEL", "/METADATA"})
    if (std::find(w.files.begin(), w.files.end(), w.dist_info + need) == w.files.end())
      return fail(wheel + ": " + w.dist_info + need + " is missing");
  return w;
}

}  // namespace ts::package
