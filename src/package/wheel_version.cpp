#include "package/wheel_version.h"

#include <algorithm>
#include <cctype>

#include "core/package_name.h"
#include "core/torch_tag.h"

namespace ts::package {
namespace {

// PEP 440: local segments are ASCII letters and digits, separated by '.', '-' or '_'.
bool valid_local(std::string_view s) {
  if (s.empty() || !std::isalnum(static_cast<unsigned char>(s.front())) ||
      !std::isalnum(static_cast<unsigned char>(s.back())))
    return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (std::isalnum(static_cast<unsigned char>(c))) continue;
    if ((c == '.' || c == '-' || c == '_') && i + 1 < s.size() &&
        std::isalnum(static_cast<unsigned char>(s[i + 1])))
      continue;
    return false;
  }
  return true;
}

std::string normalize_local(std::string s) {
  std::replace(s.begin(), s.end(), '-', '.');
  std::replace(s.begin(), s.end(), '_', '.');
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

// ".sm80.sm120" (".ptx" after with +PTX) from the plan's arch list.
std::string arch_suffix(const plan::Plan& p) {
  std::string out;
  bool ptx = false;
  for (const CudaArch& a : p.arch_list.arches()) {
    out += ".sm" + a.number();
    ptx |= a.ptx;
  }
  if (ptx) out += ".ptx";
  return out;
}

}  // namespace

std::string local_from_plan(const plan::Plan& p) {
  if (!p.cuda.is_chosen()) return "cpu";
  return p.cuda.cu_tag() + arch_suffix(p);  // "12.8.93" -> "cu128"
}

std::string extension_local_from_plan(const plan::Plan& p) {
  // The CUDA of the torch it links against names the wheel (its index is cu124 even when nvcc was 12.8).
  auto tag = torch_tag(p.torch_version, !p.cuda.is_chosen() ? "" : p.torch_cuda.empty() ? p.cuda.text() : p.torch_cuda);
  if (!tag) return local_from_plan(p);
  return tag->text() + (p.cuda.is_chosen() ? arch_suffix(p) : "");
}

std::optional<std::string> apply_local_version(const std::string& version, const std::string& dist,
                                               const std::string& mode, const plan::Plan* plan,
                                               std::string* error) {
  if (mode == "none" || mode.empty()) return version;
  const auto plus = version.find('+');
  const std::string base = version.substr(0, plus);
  const std::string old_local = plus == std::string::npos ? "" : version.substr(plus + 1);
  if (mode == "auto") {
    if (!plan) {
      if (error) *error = "--local-version auto needs --plan LOCK.json (the CUDA version and arch "
                          "list say what is inside); give the text itself or 'none'";
      return std::nullopt;
    }
    // torch: the plan's PYTORCH_BUILD_VERSION already says it.
    if (normalize_name(dist) == "torch" && plan->build_version.find('+') != std::string::npos)
      return plan->build_version;
    // An extension names the torch it needs first (+pt26cu124), as the ecosystem's per-torch wheels do.
    std::string derived = normalize_name(dist) != "torch" && !plan->torch_version.empty()
                              ? extension_local_from_plan(*plan)
                              : local_from_plan(*plan);
    if (old_local.empty()) return base + "+" + derived;
    // Keep what the build put there (+gitee1b680), add what is inside, once.
    const std::string norm = normalize_local(old_local);
    if (norm == derived || (norm.size() > derived.size() &&
                               norm.compare(norm.size() - derived.size(), derived.size(), derived) == 0))
      return base + "+" + norm;
    return base + "+" + norm + "." + derived;
  }
  if (!valid_local(mode)) {
    if (error) *error = "--local-version '" + mode + "' is not a PEP 440 local version (letters and "
                        "digits separated by '.', such as cu128.sm120)";
    return std::nullopt;
  }
  return base + "+" + normalize_local(mode);
}

std::optional<std::string> rewrite_metadata_version(std::string_view metadata,
                                                    const std::string& version) {
  std::string out;
  bool done = false, in_headers = true;
  std::size_t start = 0;
  while (start < metadata.size()) {
    std::size_t end = metadata.find('\n', start);
    std::size_t stop = end == std::string_view::npos ? metadata.size() : end + 1;
    std::string_view line = metadata.substr(start, stop - start);
    start = stop;
    if (in_headers && (line == "\n" || line == "\r\n")) in_headers = false;
    if (in_headers && !done && line.rfind("Version:", 0) == 0) {
      out += "Version: " + version + "\n";
      done = true;
      continue;
    }
    out += line;
  }
  if (!done) return std::nullopt;
  return out;
}

}  // namespace ts::package
