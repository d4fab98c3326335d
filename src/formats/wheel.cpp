#include "formats/wheel.h"

#include <cctype>
#include <map>
#include <set>
#include <vector>

#include "core/package_name.h"
#include "formats/wheel_record.h"
#include "util/printable.h"
#include "util/split.h"

namespace ts::formats {
namespace {

constexpr std::uint64_t kMaxText = 16u << 20;  // METADATA, WHEEL, RECORD

// "Key: value" from the header block (up to the first blank line) of METADATA or WHEEL.
std::string header(const std::string& text, std::string_view key) {
  std::size_t p = 0;
  while (p < text.size()) {
    std::size_t e = text.find('\n', p);
    if (e == std::string::npos) e = text.size();
    std::string_view line(text.data() + p, e - p);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) break;
    if (line.size() > key.size() && line.compare(0, key.size(), key) == 0 && line[key.size()] == ':') {
      line.remove_prefix(key.size() + 1);
      while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
      while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
      return std::string(line);
    }
    p = e + 1;
  }
  return "";
}

bool alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

// Every "Tag:" value of WHEEL's header block.
std::vector<std::string> wheel_tags(const std::string& text) {
  std::vector<std::string> tags;
  for (auto line : util::split(text, '\n')) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) break;
    if (line.rfind("Tag:", 0) != 0) continue;
    std::string t = line.substr(4);
    t.erase(0, t.find_first_not_of(" \t"));
    while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.pop_back();
    tags.push_back(t);
  }
  return tags;
}

}  // namespace

std::string check_tag_part(std::string_view part) {
  const std::string p = util::printable(part);
  if (part.empty()) return "an empty tag";
  for (char c : part)
    if (!alnum(c) && c != '_' && c != '.')
      return "tag '" + p + "' holds '" + util::printable(std::string(1, c)) +
             "' (only letters, digits, '_' and '.', PEP 425)";
  if (part.front() == '.' || part.back() == '.' || part.find("..") != std::string_view::npos)
    return "tag '" + p + "' has an empty member between '.' (PEP 425)";
  return "";
}

std::string check_wheel_tag(std::string_view tag) {
  auto parts = util::split(tag, '-');
  if (parts.size() != 3) return "Tag '" + util::printable(tag) + "' is not python-abi-platform (PEP 425)";
  for (const auto& p : parts)
    if (auto why = check_tag_part(p); !why.empty()) return why;
  return "";
}

bool named_like_library(const std::string& path) {
  const std::string b = path.substr(path.rfind('/') + 1);
  return b.size() > 3 && (b.compare(b.size() - 3, 3, ".so") == 0 || b.find(".so.") != std::string::npos);
}

std::optional<WheelLayout> check_wheel(const ZipArchive& zip, std::string* error, std::string_view file_name) {
  auto fail = [&](std::string why) -> std::optional<WheelLayout> {
    if (error) *error = std::move(why);
    return std::nullopt;
  };
  WheelLayout w;
  std::set<std::string> dist_infos;
  for (const auto& m : zip.members()) {
    for (char c : m.name)
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
        return fail("member name '" + util::printable(m.name) +
                    "' holds a control character (no installer or file system tool shows it as it is)");
    const auto slash = m.name.find('/');
    if (slash != std::string::npos && slash > 10 && m.name.compare(slash - 10, 10, ".dist-info") == 0)
      dist_infos.insert(m.name.substr(0, slash));
  }
  if (dist_infos.size() != 1)
    return fail(dist_infos.empty() ? "no .dist-info directory (not a wheel?)"
                                   : "more than one .dist-info directory (" + *dist_infos.begin() + ", " +
                                         *std::next(dist_infos.begin()) + ")");
  w.dist_info = *dist_infos.begin();
  {  // NAME-VERSION.dist-info: both parts become directory names when installed and repaired
    const std::string stem = w.dist_info.substr(0, w.dist_info.size() - 10);
    const auto dash = stem.find('-');
    bool ok = dash != std::string::npos && dash > 0 && dash + 1 < stem.size() && stem.find('-', dash + 1) == std::string::npos;
    for (char c : stem)
      if (!alnum(c) && c != '_' && c != '.' && c != '-' && c != '+' && c != '!') ok = false;
    if (!ok)
      return fail("'" + util::printable(w.dist_info) + "' is not NAME-VERSION.dist-info (PEP 427)");
    // Only a file named NAME-...whl says which distribution it is (verify also takes other names).
    const std::string_view base = file_name.substr(file_name.rfind('/') + 1);
    if (base.ends_with(".whl") && base.find('-') != std::string_view::npos) {
      const std::string dist(base.substr(0, base.find('-')));
      if (normalize_name(dist) != normalize_name(stem.substr(0, dash)))
        return fail("the file name says '" + util::printable(dist) + "' but the wheel holds '" +
                    util::printable(w.dist_info) + "' (renamed, or another package's wheel?)");
    }
  }
  std::string record_text;
  for (auto [leaf, out] : {std::pair<const char*, std::string*>{"WHEEL", &w.wheel}, {"METADATA", &w.metadata},
                           {"RECORD", &record_text}}) {
    const ZipMember* m = zip.find(w.dist_info + "/" + leaf);
    if (!m) return fail(w.dist_info + "/" + leaf + " is missing");
    if (std::string e = zip.read(*m, *out, kMaxText); !e.empty()) return fail(e);
  }
  w.name = header(w.metadata, "Name");
  w.version = header(w.metadata, "Version");
  if (w.version.empty()) return fail(w.dist_info + "/METADATA has no Version: line");
  if (w.name.empty()) return fail(w.dist_info + "/METADATA has no Name: line");
  const auto tags = wheel_tags(w.wheel);
  if (tags.empty()) return fail(w.dist_info + "/WHEEL has no Tag: line");
  for (const auto& t : tags)
    if (auto why = check_wheel_tag(t); !why.empty()) return fail(w.dist_info + "/WHEEL: " + why);

  std::string err;
  auto lines = parse_record(record_text, &err);
  if (!lines) return fail(w.dist_info + "/RECORD: " + err);
  const std::string record = w.dist_info + "/RECORD";
  std::map<std::string, const RecordLine*> listed;
  for (const auto& l : *lines) {
    if (!listed.emplace(l.path, &l).second) return fail(record + " lists '" + util::printable(l.path) + "' twice");
    if (!zip.find(l.path)) return fail(record + " lists '" + util::printable(l.path) + "', which the wheel does not hold");
  }
  for (const auto& m : zip.members()) {
    if (m.name.back() == '/') continue;  // directory entries carry no bytes
    const bool unhashed = m.name == record || m.name == record + ".jws" || m.name == record + ".p7s";
    auto it = listed.find(m.name);
    if (it == listed.end()) {
      if (unhashed) continue;
      return fail(record + " does not list '" + util::printable(m.name) + "' (a file added after the wheel was built?)");
    }
    const RecordLine& l = *it->second;
    if (l.hash.empty() && !unhashed) return fail(record + " gives no hash for '" + util::printable(m.name) + "'");
    if (!l.hash.empty() && l.hash.rfind("sha256=", 0) != 0)
      return fail(record + ": '" + util::printable(m.name) + "' is hashed with " + l.hash.substr(0, l.hash.find('=')) +
                  "; only sha256 is read");
    Sha256 sha;
    unsigned char head[4] = {};
    std::uint64_t got = 0;
    if (std::string e = zip.stream(m, [&](const unsigned char* p, std::size_t n) {
          for (std::size_t i = 0; i < n && got + i < 4; ++i) head[got + i] = p[i];
          sha.update(p, n);
          got += n;
          return true;
        });
        !e.empty())
      return fail(e);
    if (!l.hash.empty() && record_hash(sha.digest()) != l.hash)
      return fail(record + ": the sha256 of '" + util::printable(m.name) + "' does not match (the file was changed after the wheel was built)");
    if (l.size && *l.size != got)
      return fail(record + ": '" + util::printable(m.name) + "' is " + std::to_string(got) + " bytes, RECORD says " + std::to_string(*l.size));
    if (named_like_library(m.name) && !(got >= 4 && head[0] == 0x7f && head[1] == 'E' && head[2] == 'L' && head[3] == 'F'))
      return fail(util::printable(m.name) + " is named like a shared library but is not an ELF file (a broken build output, or a "
                           "linker script?); rebuild it or remove it from the wheel");
  }
  return w;
}

}  // namespace ts::formats
