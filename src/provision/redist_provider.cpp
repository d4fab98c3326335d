// NVIDIA's redistributable archives and conda channels as providers: a manifest (or repodata.json)
// read from the mirror, every archive staged privately and checked against it before anything
// unpacks it.
#include <filesystem>

#include <nlohmann/json.hpp>

#include "core/version.h"
#include "provision/provision.h"
#include "provision/redist_manifest.h"
#include "util/fs.h"
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

}  // namespace

RedistProvider::RedistProvider(const std::string& manifest_url, const std::string& mirror, std::chrono::seconds stall) {
  auto slash = manifest_url.rfind('/');
  manifest_name_ = slash == std::string::npos ? manifest_url : manifest_url.substr(slash + 1);
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
  std::string manifest_path = scratch + "/" + manifest_name_;
  if (auto e = mirror_.fetch(manifest_name_, manifest_path); !e.empty()) return fail(e);
  std::string where = mirror_.where(manifest_name_);
  auto text = util::read_file(manifest_path);
  if (!text) return fail(where + ": cannot be read");
  std::string err;
  auto m = parse_redist_manifest(*text, where, &err);
  if (!m) return fail(err);
  auto major = Version::parse(m->release_label);
  for (const auto& pin : pins) {
    const RedistArchive* a = redist_archive(*m, where, pin.name, plat, major ? major->major() : 0, &err);
    if (!a) return fail(err);
    const auto& comp = m->components.at(pin.name);
    if (!pin.version.empty() && pin.version != comp.version)
      return fail(where + ": " + pin.name + " is " + comp.version + ", the plan pins " + pin.version +
                  " (a manifest of another release under that name?)");
    auto dest = staged_name(scratch, a->relative_path, &err);
    if (!dest) return fail(where + ": " + pin.name + ": " + err);
    if (auto e = mirror_.fetch(a->relative_path, *dest); !e.empty()) return fail(e);
    std::string url = mirror_.where(a->relative_path);
    if (auto e = check_staged(*dest, url, a->size, a->sha256, "the manifest " + manifest_name_); !e.empty()) return fail(e);
    out.push_back({{pin.name, comp.version, a->sha256, url}, *dest});
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
    std::string err;
    auto dest = util::join_components(scratch, {file}, &err);
    if (!dest) return fail(channel_.where(sd + "/repodata.json") + ": " + err);
    if (auto e = channel_.fetch(sd + "/" + file, *dest); !e.empty()) return fail(e);
    std::string url = channel_.where(sd + "/" + file);
    if (auto e = check_staged(*dest, url, size, sha, "the repodata"); !e.empty()) return fail(e);
    out.push_back({{pin.name, pin.version, sha, url}, *dest});
  }
  return true;
}

}  // namespace ts::provision
