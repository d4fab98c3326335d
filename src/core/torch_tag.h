#pragma once
// The torch a wheel was built against, named in its local version the way the ecosystem's
// per-torch wheels are (torch-scatter's 2.1.2+pt26cu124, +pt113cpu): written by repair, read back
// by verify and the build summary to warn when the environment's torch is another one.
#include <optional>
#include <string>
#include <string_view>

namespace ts {

struct TorchTag {
  int major = 0, minor = 0;
  std::string cuda;  // "124" (CUDA 12.4), "" for a CPU build
  std::string text() const;  // "pt26cu124", "pt113cpu"
  std::string torch() const { return std::to_string(major) + "." + std::to_string(minor); }
  std::string cuda_dotted() const;  // "12.4"; "" for CPU
};

// From torch's version ("2.6.0+cu124", "1.13.0a0+git7c98e70") and the CUDA compiled in ("12.4",
// "12.8.93"; "" = CPU); nullopt when the version has no major.minor.
std::optional<TorchTag> torch_tag(std::string_view torch_version, std::string_view cuda);

// The tag in a wheel version's local part ("0.1.0+pt113cpu", "1.0+pt26cu124.sm80"); nullopt when
// it has none. Digits after "pt": the first is torch's major, the rest its minor.
std::optional<TorchTag> parse_torch_tag(std::string_view version);

// "" when a torch (its version and torch.version.cuda, "" = CPU) is the one the tag names (same
// major.minor; same CUDA major.minor, or CPU for CPU); else the difference in words:
// "built for torch 1.13 (CPU), this environment has torch 2.6.0 (CUDA 12.4)".
std::string torch_tag_mismatch(const TorchTag& tag, std::string_view torch_version, std::string_view torch_cuda);

}  // namespace ts
