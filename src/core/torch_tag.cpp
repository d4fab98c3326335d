#include "core/torch_tag.h"

#include <cctype>

namespace ts {
namespace {

bool digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// The first two numbers of a dotted version: "12.8.93" -> {12, 8}; false when there are not two.
bool major_minor(std::string_view v, int& major, int& minor) {
  std::size_t i = 0;
  auto number = [&](int& out) {
    if (i >= v.size() || !digit(v[i])) return false;
    out = 0;
    while (i < v.size() && digit(v[i]) && out < 100000) out = out * 10 + (v[i++] - '0');
    return true;
  };
  if (!number(major) || i >= v.size() || v[i] != '.') return false;
  ++i;
  return number(minor);
}

}  // namespace

std::string TorchTag::text() const {
  return "pt" + std::to_string(major) + std::to_string(minor) + (cuda.empty() ? "cpu" : "cu" + cuda);
}

std::string TorchTag::cuda_dotted() const {
  if (cuda.size() < 2) return cuda;
  return cuda.substr(0, cuda.size() - 1) + "." + cuda.substr(cuda.size() - 1);
}

std::optional<TorchTag> torch_tag(std::string_view torch_version, std::string_view cuda) {
  TorchTag t;
  if (!major_minor(torch_version, t.major, t.minor) || t.major > 9) return std::nullopt;
  if (!cuda.empty()) {
    int cmaj = 0, cmin = 0;
    if (!major_minor(cuda, cmaj, cmin) || cmin > 9) return std::nullopt;
    t.cuda = std::to_string(cmaj) + std::to_string(cmin);
  }
  return t;
}

std::optional<TorchTag> parse_torch_tag(std::string_view version) {
  auto plus = version.find('+');
  if (plus == std::string_view::npos) return std::nullopt;
  std::string_view local = version.substr(plus + 1);
  while (!local.empty()) {
    auto end = local.find_first_of(".-_");
    std::string_view seg = local.substr(0, end);
    local = end == std::string_view::npos ? std::string_view() : local.substr(end + 1);
    if (seg.size() < 5 || seg.substr(0, 2) != "pt") continue;
    std::size_t i = 2;
    while (i < seg.size() && digit(seg[i])) ++i;
    std::string_view num = seg.substr(2, i - 2), rest = seg.substr(i);
    if (num.size() < 2 || num.size() > 3) continue;
    TorchTag t;
    t.major = num[0] - '0';
    t.minor = std::stoi(std::string(num.substr(1)));
    if (rest == "cpu") return t;
    if (rest.size() >= 4 && rest.substr(0, 2) == "cu") {
      bool all = true;
      for (char c : rest.substr(2)) all = all && digit(c);
      if (!all) continue;
      t.cuda = std::string(rest.substr(2));
      return t;
    }
  }
  return std::nullopt;
}

std::string torch_tag_mismatch(const TorchTag& tag, std::string_view torch_version, std::string_view torch_cuda) {
  auto have = torch_tag(torch_version, torch_cuda);
  auto words = [](const TorchTag& t) {
    return "torch " + t.torch() + " (" + (t.cuda.empty() ? std::string("CPU") : "CUDA " + t.cuda_dotted()) + ")";
  };
  std::string env = "torch " + std::string(torch_version) +
                    (torch_cuda.empty() ? std::string(" (CPU)") : " (CUDA " + std::string(torch_cuda) + ")");
  if (!have) return "built for " + words(tag) + ", this environment has " + env;
  // A CPU-only extension runs on either kind of the same torch; a CUDA one needs a CUDA torch of its CUDA.
  bool same = have->major == tag.major && have->minor == tag.minor && (tag.cuda.empty() || have->cuda == tag.cuda);
  return same ? "" : "built for " + words(tag) + ", this environment has " + env;
}

}  // namespace ts
