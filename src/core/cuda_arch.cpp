#include "core/cuda_arch.h"

#include <cctype>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "core/json_text.h"

namespace ts {
namespace {

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

bool eat_prefix(std::string_view& s, std::string_view p) {
  if (s.substr(0, p.size()) != p) return false;
  s.remove_prefix(p.size());
  return true;
}

}  // namespace

std::optional<CudaArch> CudaArch::parse(std::string_view text, std::string* error) {
  std::string_view t = text;
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front()))) t.remove_prefix(1);
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.remove_suffix(1);
  auto fail = [&](std::string_view why) -> std::optional<CudaArch> {
    if (error)
      *error = "'" + std::string(text) + "' is not a CUDA architecture (" + std::string(why) + "; expected e.g. " +
               std::string(kCudaArchSpellings) + ")";
    return std::nullopt;
  };
  std::string low(t);
  for (char& c : low) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string_view s = low;

  CudaArch a;
  if (s.size() >= 4 && s.substr(s.size() - 4) == "+ptx") {
    a.ptx = true;
    s.remove_suffix(4);
  }
  // nvcc's sm_/compute_ names are always the bare number ("sm_86"), never dotted.
  bool nvcc_name = false;
  if (eat_prefix(s, "sm_")) nvcc_name = true;
  else if (eat_prefix(s, "compute_")) nvcc_name = a.ptx = true;
  if (s.empty()) return fail("no number");

  if (s.back() == 'a' || s.back() == 'f') {
    a.suffix = s.back();
    s.remove_suffix(1);
  }
  std::string_view maj, min;
  if (auto dot = s.find('.'); dot != std::string_view::npos) {
    if (nvcc_name) return fail("sm_/compute_ take the number without a dot");
    maj = s.substr(0, dot);
    min = s.substr(dot + 1);
  } else {
    // "86" / "100": the last digit is the minor version; a lone digit is ambiguous.
    if (s.size() < 2) return fail("need major and minor, like 86 or 8.6");
    maj = s.substr(0, s.size() - 1);
    min = s.substr(s.size() - 1);
  }
  if (!all_digits(maj) || !all_digits(min)) return fail("not a number");
  if (min.size() != 1) return fail("the minor version is one digit");
  // Two digits of major keep "1000" and typos out without naming which arches exist.
  if (maj.size() > 2 || maj.front() == '0') return fail("bad major version");
  a.major = std::stoi(std::string(maj));
  a.minor = min.front() - '0';
  return a;
}

std::string CudaArch::str() const {
  std::string out = capability();
  if (suffix) out += suffix;
  if (ptx) out += "+PTX";
  return out;
}

std::string CudaArch::number() const {
  std::string out = std::to_string(major) + std::to_string(minor);
  if (suffix) out += suffix;
  return out;
}

std::string CudaArch::sm() const { return "sm_" + number(); }
std::string CudaArch::compute() const { return "compute_" + number(); }
std::string CudaArch::capability() const { return std::to_string(major) + "." + std::to_string(minor); }

bool CudaArch::runs_on(const CudaArch& gpu) const {
  auto same_major_newer = [&] { return gpu.major == major && gpu.minor >= minor; };
  auto exact = [&] { return gpu.major == major && gpu.minor == minor; };
  bool sass = suffix == 'a' ? exact() : same_major_newer();
  if (sass || !ptx) return sass;
  if (suffix == 'a') return exact();
  if (suffix == 'f') return same_major_newer();
  return gpu.major > major || same_major_newer();
}

void to_json(nlohmann::json& j, const CudaArch& a) { write_text(j, a); }
void from_json(const nlohmann::json& j, CudaArch& a) { read_text(j, a); }

}  // namespace ts
