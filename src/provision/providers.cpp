// Where wheel files come from: PyPI through pip, or a local wheelhouse directory.
#include <algorithm>
#include <cctype>
#include <filesystem>

#include "provision/provision.h"
#include "util/fs.h"
#include "util/process.h"

namespace ts::provision {

namespace fs = std::filesystem;

namespace {

// PEP 427: the distribution part of a wheel's file name, normalised for comparison.
std::string normal_name(std::string s) {
  for (auto& ch : s) {
    if (ch == '-' || ch == '.') ch = '_';
    ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  }
  return s;
}

std::string arch_of(const std::string& platform) {
  auto u = platform.find('_');
  return u == std::string::npos ? platform : platform.substr(u + 1);
}

}  // namespace

bool wheel_file_fits(const std::string& file_name, const plan::WheelPin& pin, const std::string& platform) {
  if (file_name.size() < 5 || file_name.substr(file_name.size() - 4) != ".whl") return false;
  std::string stem = file_name.substr(0, file_name.size() - 4);
  std::vector<std::string> parts;
  for (std::size_t a = 0, b; a <= stem.size(); a = b + 1) {
    b = stem.find('-', a);
    if (b == std::string::npos) b = stem.size();
    parts.push_back(stem.substr(a, b - a));
  }
  if (parts.size() < 5) return false;
  if (normal_name(parts[0]) != normal_name(pin.name) || parts[1] != pin.version) return false;
  const std::string& plat = parts.back();  // may be a '.'-joined set of tags
  if (plat == "any") return true;
  std::string arch = arch_of(platform);
  for (std::size_t a = 0, b; a <= plat.size(); a = b + 1) {
    b = plat.find('.', a);
    if (b == std::string::npos) b = plat.size();
    std::string tag = plat.substr(a, b - a);
    if (tag.rfind("manylinux", 0) == 0 && tag.size() > arch.size() &&
        tag.compare(tag.size() - arch.size(), arch.size(), arch) == 0 && tag[tag.size() - arch.size() - 1] == '_')
      return true;
  }
  return false;
}

namespace {

bool find_in(const std::string& dir, const std::vector<plan::WheelPin>& pins, const std::string& platform,
             std::vector<WheelFile>& out, std::string* error, const std::string& where) {
  std::error_code ec;
  std::vector<std::string> names;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_regular_file(ec)) names.push_back(it->path().filename().string());
  if (ec) {
    if (error) *error = where + " " + dir + ": cannot be read (" + ec.message() + ")";
    return false;
  }
  std::sort(names.begin(), names.end());
  for (const auto& pin : pins) {
    const std::string* hit = nullptr;
    for (const auto& n : names)
      if (wheel_file_fits(n, pin, platform)) { hit = &n; break; }
    if (!hit) {
      if (error)
        *error = where + " " + dir + " has no wheel for " + pin.name + "==" + pin.version + " on " + platform +
                 " (fill it on a machine with PyPI: python3 -m pip download --no-deps --only-binary=:all: --platform " +
                 platform + " -d DIR " + pin.name + "==" + pin.version + ")";
      return false;
    }
    out.push_back({pin, dir + "/" + *hit});
  }
  return true;
}

}  // namespace

bool PipProvider::get(const std::vector<plan::WheelPin>& pins, const std::string& platform, const std::string& scratch,
                      std::vector<WheelFile>& out, std::string* error) const {
  std::vector<std::string> argv{python_, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                                "--platform", platform, "--disable-pip-version-check", "--no-input",
                                "-d", scratch, "--"};
  for (const auto& p : pins) argv.push_back(p.name + "==" + p.version);
  util::RunOptions o;
  o.timeout = std::chrono::minutes(30);
  o.max_output = 8 << 20;
  auto r = util::run(argv, o);
  if (!r.ok()) {
    std::string tail = r.err.size() > 600 ? r.err.substr(r.err.size() - 600) : r.err;
    if (error)
      *error = "pip download failed (" + r.describe(o.timeout) + "): " + util::trim(tail) +
               " (offline? fill a wheelhouse on a machine with PyPI and use --toolkit wheelhouse:DIR)";
    return false;
  }
  return find_in(scratch, pins, platform, out, error, "pip's download directory");
}

bool WheelhouseProvider::get(const std::vector<plan::WheelPin>& pins, const std::string& platform,
                             const std::string& /*scratch*/, std::vector<WheelFile>& out, std::string* error) const {
  return find_in(dir_, pins, platform, out, error, "the wheelhouse");
}

}  // namespace ts::provision
