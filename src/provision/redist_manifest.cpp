#include "provision/redist_manifest.h"

#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

namespace ts::provision {

namespace {

using nlohmann::json;

bool hex(const std::string& s, std::size_t n) {
  return s.size() == n && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || (c >= 'a' && c <= 'f'); });
}

// One platform's entry; "" or why not. Real manifests write size as a string ("1083468").
std::string read_archive(const json& j, RedistArchive& a) {
  if (!j.contains("relative_path") || !j["relative_path"].is_string()) return "no relative_path";
  a.relative_path = j["relative_path"].get<std::string>();
  if (!j.contains("sha256") || !j["sha256"].is_string() || !hex(j["sha256"].get<std::string>(), 64))
    return a.relative_path + ": no sha256 of 64 hex digits";
  a.sha256 = j["sha256"].get<std::string>();
  if (j.contains("md5") && j["md5"].is_string()) a.md5 = j["md5"].get<std::string>();
  if (!j.contains("size")) return a.relative_path + ": no size";
  const json& s = j["size"];
  if (s.is_number_unsigned()) {
    a.size = s.get<std::uint64_t>();
  } else if (s.is_string() && !s.get<std::string>().empty() && s.get<std::string>().size() < 19 &&
             std::all_of(s.get_ref<const std::string&>().begin(), s.get_ref<const std::string&>().end(),
                         [](char c) { return c >= '0' && c <= '9'; })) {
    a.size = std::stoull(s.get<std::string>());
  } else {
    return a.relative_path + ": size is not a number of bytes";
  }
  return "";
}

}  // namespace

std::optional<RedistManifest> parse_redist_manifest(std::string_view text, const std::string& file, std::string* error) {
  auto fail = [&](const std::string& e) {
    if (error) *error = file + ": " + e;
    return std::nullopt;
  };
  json j = json::parse(text.begin(), text.end(), nullptr, false);
  if (j.is_discarded() || !j.is_object()) return fail("not a JSON object (is it NVIDIA's redistrib_<release>.json?)");
  RedistManifest m;
  if (j.contains("release_label") && j["release_label"].is_string()) m.release_label = j["release_label"].get<std::string>();
  if (j.contains("release_product") && j["release_product"].is_string()) m.release_product = j["release_product"].get<std::string>();
  if (m.release_label.empty()) return fail("no release_label (not a redistrib manifest)");
  for (const auto& [key, c] : j.items()) {
    if (!c.is_object()) continue;  // release_date, release_label, release_product
    RedistComponent comp;
    comp.name = key;
    if (c.contains("version") && c["version"].is_string()) comp.version = c["version"].get<std::string>();
    for (const auto& [plat, a] : c.items()) {
      if (!a.is_object()) continue;  // name, license, license_path, version, cuda_variant
      if (a.contains("relative_path")) {
        RedistArchive arch;
        if (auto e = read_archive(a, arch); !e.empty()) return fail(key + " " + plat + ": " + e);
        comp.archives[plat] = arch;
        continue;
      }
      for (const auto& [variant, v] : a.items()) {  // cuDNN: "linux-x86_64": {"cuda12": {...}}
        if (!v.is_object()) continue;
        RedistArchive arch;
        if (auto e = read_archive(v, arch); !e.empty()) return fail(key + " " + plat + " " + variant + ": " + e);
        comp.archives[plat + "/" + variant] = arch;
      }
    }
    if (comp.version.empty() && !comp.archives.empty()) return fail(key + ": no version");
    if (!comp.archives.empty()) m.components[key] = std::move(comp);
  }
  if (m.components.empty()) return fail("no components with archives");
  return m;
}

std::string redist_platform(const std::string& wheel_platform) {
  auto ends = [&](const std::string& s) {
    return wheel_platform.size() >= s.size() && wheel_platform.compare(wheel_platform.size() - s.size(), s.size(), s) == 0;
  };
  if (ends("x86_64")) return "linux-x86_64";
  if (ends("aarch64")) return "linux-sbsa";
  return "";
}

const RedistArchive* redist_archive(const RedistManifest& m, const std::string& file, const std::string& name,
                                    const std::string& platform, int cuda_major, std::string* error) {
  auto c = m.components.find(name);
  if (c == m.components.end()) {
    if (error) *error = file + " (release " + m.release_label + ") has no component " + name;
    return nullptr;
  }
  auto a = c->second.archives.find(platform);
  if (a == c->second.archives.end() && cuda_major > 0)
    a = c->second.archives.find(platform + "/cuda" + std::to_string(cuda_major));
  if (a == c->second.archives.end()) {
    std::string have;
    for (const auto& [p, _] : c->second.archives) have += (have.empty() ? "" : ", ") + p;
    if (error) *error = file + ": " + name + " " + c->second.version + " has no archive for " + platform + " (only " + have + ")";
    return nullptr;
  }
  return &a->second;
}

}  // namespace ts::provision
