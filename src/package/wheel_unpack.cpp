#include "package/wheel_unpack.h"

#include <sys/stat.h>

#include <filesystem>

#include "formats/mapped_file.h"
#include "formats/wheel.h"
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
  auto layout = formats::check_wheel(*zip, &err, wheel);
  if (!layout) return fail(wheel + ": " + err);
  w.dist_info = layout->dist_info;
  // error_code overloads only: a name the file system refuses is bad input, never an exception.
  std::error_code ec;
  for (const auto& m : zip->members()) {
    if (m.name.back() == '/') continue;  // directory entries: created as needed
    const std::filesystem::path dest = std::filesystem::path(into) / m.name;
    std::filesystem::create_directories(dest.parent_path(), ec);
    if (ec) return fail(wheel + ": cannot create " + dest.parent_path().string() + ": " + ec.message());
    if (std::string e = zip->extract(m, dest.string()); !e.empty()) return fail(wheel + ": " + e);
    w.files.push_back(m.name);
  }
  return w;
}

}  // namespace ts::package
