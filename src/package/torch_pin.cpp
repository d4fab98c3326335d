#include "package/torch_pin.h"

#include <cctype>

#include "core/package_name.h"

namespace ts::package {

std::optional<std::string> torch_requirement(std::string_view mode, std::string_view torch_version,
                                             std::string* error) {
  auto fail = [&](std::string why) -> std::optional<std::string> {
    if (error) *error = std::move(why);
    return std::nullopt;
  };
  if (mode == "none") return std::string();
  if (mode != "minor" && mode != "exact")
    return fail("--pin-torch '" + std::string(mode) + "': give minor (torch==X.Y.*), exact (torch==X.Y.Z) or none");
  const std::string_view pub = torch_version.substr(0, torch_version.find('+'));
  std::size_t i = 0, dots = 0;
  while (i < pub.size() && (std::isdigit(static_cast<unsigned char>(pub[i])) || pub[i] == '.')) {
    if (pub[i] == '.' && ++dots == 2) break;
    ++i;
  }
  const std::string_view mm = pub.substr(0, i);
  if (dots < 1 || mm.empty() || mm.back() == '.' || mm.front() == '.')
    return fail("--pin-torch " + std::string(mode) + ": the plan names no torch version to pin ('" +
                std::string(torch_version) + "'); give --plan with an extension's lock, or --pin-torch none");
  return "torch==" + (mode == "minor" ? std::string(mm) + ".*" : std::string(pub));
}

std::string metadata_with_torch_requirement(std::string_view metadata, const std::string& req,
                                            std::string* replaced) {
  std::string out, head;
  bool in_headers = true, added = false;
  std::size_t start = 0;
  auto is_torch_requirement = [](std::string_view line) {
    constexpr std::string_view key = "Requires-Dist:";
    if (line.substr(0, key.size()) != key) return false;
    std::string_view v = line.substr(key.size());
    while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
    std::size_t n = 0;
    while (n < v.size() && (std::isalnum(static_cast<unsigned char>(v[n])) || v[n] == '-' || v[n] == '_' || v[n] == '.'))
      ++n;
    // Marked ones (an extra, a platform) stay: they say something else.
    return normalize_name(std::string(v.substr(0, n))) == "torch" && v.find(';') == std::string_view::npos;
  };
  const std::string line_out = req.empty() ? "" : "Requires-Dist: " + req + "\n";
  while (start < metadata.size()) {
    std::size_t end = metadata.find('\n', start);
    std::size_t stop = end == std::string_view::npos ? metadata.size() : end + 1;
    std::string_view line = metadata.substr(start, stop - start);
    start = stop;
    if (in_headers && (line == "\n" || line == "\r\n")) {
      in_headers = false;
      if (!added) out += line_out, added = true;
    }
    if (in_headers && is_torch_requirement(line)) {
      if (replaced) *replaced += std::string(line);
      if (!added) out += line_out, added = true;
      continue;
    }
    out += line;
    if (in_headers && stop == metadata.size() && line.back() != '\n') out += "\n";
  }
  if (!added) out += line_out;
  return out;
}

}  // namespace ts::package
