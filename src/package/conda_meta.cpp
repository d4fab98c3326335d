#include "package/conda_meta.h"

#include <sys/utsname.h>

#include <cctype>
#include <charconv>

#include "util/fs.h"

namespace ts::package {

std::string conda_build_string(std::string_view python_mm, std::string_view cuda,
                               std::string_view cudnn, int build_number) {
  std::string s = "py" + std::string(python_mm);
  if (cuda.empty()) {
    s += "_cpu";
  } else {
    s += "_cuda" + std::string(cuda);
    if (!cudnn.empty()) s += "_cudnn" + std::string(cudnn);
  }
  return s + "_" + std::to_string(build_number);
}

std::string python_from_tag(std::string_view tag) {
  if (tag.size() < 4 || tag.substr(0, 2) != "cp" || tag.find('.') != std::string_view::npos)
    return "";
  for (char c : tag.substr(2))
    if (!std::isdigit(static_cast<unsigned char>(c))) return "";
  return std::string(tag.substr(2, 1)) + "." + std::string(tag.substr(3));
}

std::string subdir_from_platform(std::string_view tag) {
  std::string arch;
  if (tag == "any") {
    struct utsname u;
    if (uname(&u) != 0) return "";
    arch = u.machine;
  } else {
    // A compressed tag set ("manylinux_2_17_x86_64.manylinux2014_x86_64") shares one arch.
    std::string first(tag.substr(0, tag.find('.')));
    if (first.rfind("linux_", 0) == 0)
      arch = first.substr(6);
    else if (first.rfind("manylinux", 0) == 0 || first.rfind("musllinux", 0) == 0) {
      for (const char* a : {"x86_64", "aarch64", "ppc64le", "s390x"})
        if (first.size() > std::string(a).size() &&
            first.compare(first.size() - std::string(a).size(), std::string::npos, a) == 0)
          arch = a;
    }
  }
  if (arch == "x86_64") return "linux-64";
  if (arch == "aarch64" || arch == "ppc64le" || arch == "s390x") return "linux-" + arch;
  return "";
}

std::string major_minor(std::string_view v) {
  auto a = v.find('.');
  if (a == std::string_view::npos) return "";
  auto b = v.find_first_not_of("0123456789", a + 1);
  std::string mm(v.substr(0, b));
  return mm.size() > a + 1 ? mm : "";
}

std::optional<std::string> conda_spec_from_requirement(std::string_view req, std::string* why) {
  std::string r(req);
  if (r.find(';') != std::string::npos) {
    *why = "'" + r +
           "' has an environment marker (platform- or extra-specific; pip-only packages such "
           "as nvidia-* have no conda name): add it with --depends if the conda package needs it";
    return std::nullopt;
  }
  std::size_t i = 0;
  while (i < r.size() && (std::isalnum(static_cast<unsigned char>(r[i])) || r[i] == '-' ||
                          r[i] == '_' || r[i] == '.'))
    ++i;
  std::string name = normalize_name(r.substr(0, i));
  if (name == "torch") name = "pytorch";  // conda's name for it (conda-forge and the pytorch channel)
  std::string rest = r.substr(i);
  if (auto br = rest.find('['); br != std::string::npos) {
    auto end = rest.find(']', br);
    rest.erase(br, end == std::string::npos ? std::string::npos : end - br + 1);
  }
  if (rest.find('@') != std::string::npos) {
    *why = "'" + r + "' is a direct URL reference, which conda cannot express";
    return std::nullopt;
  }
  std::string spec;
  for (char c : rest)
    if (!std::isspace(static_cast<unsigned char>(c)) && c != '(' && c != ')') spec += c;
  if (name.empty()) {
    *why = "'" + r + "' names no package";
    return std::nullopt;
  }
  return spec.empty() ? name : name + " " + spec;
}

std::string spec_name(std::string_view spec) {
  std::size_t i = 0;
  while (i < spec.size() && !std::isspace(static_cast<unsigned char>(spec[i])) &&
         std::string_view("<>=!~").find(spec[i]) == std::string_view::npos)
    ++i;
  return std::string(spec.substr(0, i));
}

std::optional<CondaDist> parse_conda_file_name(std::string_view f) {
  for (std::string_view ext : {".tar.bz2", ".conda"})
    if (f.size() > ext.size() && f.substr(f.size() - ext.size()) == ext) {
      std::string_view dist = f.substr(0, f.size() - ext.size());
      auto b = dist.rfind('-');
      if (b == std::string_view::npos || b == 0) return std::nullopt;
      auto v = dist.rfind('-', b - 1);
      if (v == std::string_view::npos || v == 0) return std::nullopt;
      CondaDist d{std::string(dist.substr(0, v)), std::string(dist.substr(v + 1, b - v - 1)),
                  std::string(dist.substr(b + 1)), "", std::nullopt};
      if (d.version.empty() || d.build.empty()) return std::nullopt;
      if (auto p = d.build.find("_cudnn"); p != std::string::npos) d.cudnn = d.build.substr(p + 6, d.build.find('_', p + 6) - p - 6);
      if (auto u = d.build.rfind('_'); u != std::string::npos) {
        int n = 0;
        const char *from = d.build.data() + u + 1, *end = d.build.data() + d.build.size();
        auto [at, ec] = std::from_chars(from, end, n);
        if (ec == std::errc() && at == end && from != end && *from != '-') d.build_number = n;
      }
      return d;
    }
  return std::nullopt;
}

}  // namespace ts::package
