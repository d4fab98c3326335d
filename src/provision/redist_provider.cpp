// NVIDIA's redistributable archives and conda channels as providers: a manifest (or repodata.json)
// read from the mirror, every archive staged privately and checked against it before anything
// unpacks it.
#include <deque>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "core/version.h"
#include "provision/provision.h"
#include "provision/redist_manifest.h"
#include "util/fs.h"
#include "util/held_file.h"
#include "util/safe_path.h"
#include "util/sha256.h"

namespace ts::provision {

namespace fs = std::filesystem;

namespace {

// The staged file `path` is the one the index describes: size first (cheap, and a truncated download
// shows there), then sha256. "" or why not, naming the file.
std::string check_staged(const std::string& path, const std::string& what, std::uint64_t size, const std::string& sha256,
                         const std::string& index) {
  std::error_code ec;
  auto have = fs::file_size(path, ec);
  if (ec) return what + ": cannot be read (" + ec.message() + ")";
  if (size && have != size)
    return what + ": " + std::to_string(have) + " bytes, " + index + " says " + std::to_string(size) +
           " (a truncated or different file; nothing was unpacked)";
  auto sum = util::sha256_file(path).value_or("");
  if (sum != sha256)
    return what + ": sha256 " + sum + " is not " + index + "'s " + sha256 + " (a damaged or altered file; nothing was unpacked)";
  return "";
}

// The last path component of `rel`, checked as a file name for the staging directory.
std::optional<std::string> staged_name(const std::string& scratch, const std::string& rel, std::string* error) {
  auto slash = rel.rfind('/');
  return util::join_components(scratch, {slash == std::string::npos ? rel : rel.substr(slash + 1)}, error);
}

// `rel` of the mirror staged privately under `scratch` and checked against the index: a directory
// mirror's file copied once while hashed (util/held_file.h), a URL's downloaded then hashed. The
// staged file and its sha256 go to assemble as held, so it is not copied a second time.
std::string stage_checked(const Mirror& mirror, const std::string& rel, const std::string& scratch, std::uint64_t size,
                          const std::string& sha256, const std::string& index, WheelFile& out) {
  std::string err;
  auto dest = staged_name(scratch, rel, &err);
  if (!dest) return mirror.where(rel) + ": " + err;
  std::string url = mirror.where(rel);
  if (!mirror.is_url()) {
    if (!util::join_inside("/x", rel, &err)) return "'" + rel + "' is not a path inside the mirror: " + err;
    std::error_code ec;
    if (!fs::is_regular_file(url, ec)) return url + ": no such file in the mirror directory " + mirror.base;
    auto held = util::hold_file(url, scratch, &err);
    if (!held) return err;
    if (size && held->size != size)
      return url + ": " + std::to_string(held->size) + " bytes, " + index + " says " + std::to_string(size) +
             " (a truncated or different file; nothing was unpacked)";
    if (held->sha256 != sha256)
      return url + ": sha256 " + held->sha256 + " is not " + index + "'s " + sha256 + " (a damaged or altered file; nothing was unpacked)";
    out.path = held->path;
    out.held_sha256 = held->sha256;
    return "";
  }
  if (auto e = mirror.fetch(rel, *dest); !e.empty()) return e;
  if (auto e = check_staged(*dest, url, size, sha256, index); !e.empty()) return e;
  out.path = *dest;
  out.held_sha256 = sha256;
  return "";
}

}  // namespace

RedistProvider::RedistProvider(const std::string& manifest_url, const std::string& mirror, std::chrono::seconds stall) {
  auto slash = manifest_url.rfind('/');
  manifest_name_ = slash == std::string::npos ? manifest_url : manifest_url.substr(slash + 1);
  mirrored_ = !mirror.empty();
  mirror_.base = !mirror.empty() ? mirror : slash == std::string::npos ? "" : manifest_url.substr(0, slash);
  mirror_.stall = stall;
}

bool RedistProvider::get(const std::vector<plan::WheelPin>& pins, const std::string& platform, const std::string& scratch,
                         std::vector<WheelFile>& out, std::string* error) const {
  auto fail = [&](const std::string& e) {
    if (error) *error = e;
    return false;
  };
  std::string plat = redist_platform(platform);
  if (plat.empty()) return fail("NVIDIA's redistributable archives have no build for " + platform);
  // A manifest read from `mirror`: CUDA's own, or another product's (cuDNN's) that a pin names by URL.
  struct Read {
    Mirror mirror;
    std::string name, where;
    RedistManifest m;
  };
  std::deque<Read> manifests;  // a deque: the pointers read() returns stay valid as it grows
  auto read = [&](const Mirror& mirror, const std::string& name, std::string* err) -> const Read* {
    for (const auto& r : manifests)
      if (r.mirror.base == mirror.base && r.name == name) return &r;
    std::string path = scratch + "/" + name;
    if (auto e = mirror.fetch(name, path); !e.empty()) return *err = e, nullptr;
    std::string where = mirror.where(name);
    auto text = util::read_file(path);
    if (!text) return *err = where + ": cannot be read", nullptr;
    auto m = parse_redist_manifest(*text, where, err);
    if (!m) return nullptr;
    manifests.push_back({mirror, name, where, std::move(*m)});
    return &manifests.back();
  };
  std::string err;
  const Read* cuda = read(mirror_, manifest_name_, &err);
  if (!cuda) return fail(err);
  auto release = Version::parse(cuda->m.release_label);
  int major = release ? release->major() : 0;
  for (const auto& pin : pins) {
    // A pin whose file is a manifest's URL comes from that manifest (cuDNN's); a mirror holds it at
    // its root beside CUDA's, its archives under their own relative paths (cudnn/linux-x86_64/...).
    Mirror mirror = mirror_;
    std::string name = manifest_name_;
    if (auto slash = pin.file.rfind('/'); !pin.file.empty() && pin.file.size() > 5 &&
                                          pin.file.compare(pin.file.size() - 5, 5, ".json") == 0) {
      name = slash == std::string::npos ? pin.file : pin.file.substr(slash + 1);
      if (!mirrored_ && slash != std::string::npos) mirror.base = pin.file.substr(0, slash);
    }
    const Read* r = read(mirror, name, &err);
    if (!r) return fail(err);
    const std::string where = r->where;
    const RedistArchive* a = redist_archive(r->m, where, pin.name, plat, major, &err);
    if (!a) return fail(err);
    const RedistArchive archive = *a;
    const std::string version = r->m.components.at(pin.name).version;
    if (!pin.version.empty() && pin.version != version)
      return fail(where + ": " + pin.name + " is " + version + ", the plan pins " + pin.version +
                  " (a manifest of another release under that name?)");
    WheelFile f;
    if (auto e = stage_checked(mirror, archive.relative_path, scratch, archive.size, archive.sha256, "the manifest " + name, f);
        !e.empty())
      return fail(e);
    f.pin = {pin.name, version, archive.sha256, mirror.where(archive.relative_path)};
    out.push_back(f);
  }
  return true;
}

CondaProvider::CondaProvider(const std::string& channel, std::chrono::seconds stall) {
  channel_.base = channel;
  channel_.stall = stall;
}

bool CondaProvider::get(const std::vector<plan::WheelPin>& pins, const std::string& platform, const std::string& scratch,
                        std::vector<WheelFile>& out, std::string* error) const {
  auto fail = [&](const std::string& e) {
    if (error) *error = e;
    return false;
  };
  std::string arch = redist_platform(platform);
  std::string subdir = arch == "linux-x86_64" ? "linux-64" : arch == "linux-sbsa" ? "linux-aarch64" : "";
  if (subdir.empty()) return fail("no conda subdir for " + platform);
  // Packages of a pin are looked up in the platform's subdir, then noarch (headers-only packages).
  std::vector<std::pair<std::string, nlohmann::json>> indexes;
  for (const std::string& sd : {subdir, std::string("noarch")}) {
    std::string path = scratch + "/repodata-" + sd + ".json";
    std::string rel = sd + "/repodata.json";
    if (auto e = channel_.fetch(rel, path); !e.empty()) {
      if (sd == "noarch") continue;  // a channel may have no noarch packages
      return fail(e);
    }
    auto text = util::read_file(path);
    auto j = nlohmann::json::parse(text ? *text : std::string(), nullptr, false);
    if (j.is_discarded() || !j.is_object()) return fail(channel_.where(rel) + ": not JSON (is it a conda channel's repodata.json?)");
    indexes.emplace_back(sd, std::move(j));
  }
  for (const auto& pin : pins) {
    std::string file, sd, sha;
    std::uint64_t size = 0;
    for (const auto& [d, j] : indexes) {
      for (const char* key : {"packages.conda", "packages"}) {  // .conda preferred: smaller, same files
        if (!file.empty() || !j.contains(key) || !j[key].is_object()) continue;
        for (const auto& [fn, rec] : j[key].items()) {
          if (!rec.is_object() || rec.value("name", "") != pin.name || rec.value("version", "") != pin.version) continue;
          if (!file.empty() && fn < file) continue;
          file = fn, sd = d, sha = rec.value("sha256", "");
          size = rec.contains("size") && rec["size"].is_number_unsigned() ? rec["size"].get<std::uint64_t>() : 0;
        }
      }
    }
    if (file.empty())
      return fail(channel_.where(subdir + "/repodata.json") + " has no package " + pin.name + "==" + pin.version);
    if (sha.size() != 64) return fail(channel_.where(sd + "/" + file) + ": the repodata gives no sha256 to check it by");
    WheelFile f;
    if (auto e = stage_checked(channel_, sd + "/" + file, scratch, size, sha, "the repodata", f); !e.empty()) return fail(e);
    f.pin = {pin.name, pin.version, sha, channel_.where(sd + "/" + file)};
    out.push_back(f);
  }
  return true;
}

}  // namespace ts::provision
