#pragma once
// Version: one type for every version number torchsmith compares. PEP 440 is a superset of the
// dotted numbers CUDA, GCC, CMake and the NVIDIA driver use, so one grammar and one order serve all.
#include <compare>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace ts {

class Version {
 public:
  // Pre-release kinds in PEP 440 order (a < b < rc).
  enum class Pre { none, a, b, rc };

  Version() = default;  // "0", so containers and JSON can default-construct

  // Accepts dotted numbers ("12.8", "580.95.05") and PEP 440 in its permissive spellings
  // ("v1.0", "1.0-alpha.1", "1.0_post2", "1.0-1", "1!2.0", "2.4.0a0+git1234abc"), case-insensitive.
  // Never throws; on failure returns nullopt and, when asked, says why.
  static std::optional<Version> parse(std::string_view s, std::string* error = nullptr);

  int epoch() const { return epoch_; }
  const std::vector<int>& release() const { return release_; }
  int major() const { return component(0); }  // 0 when absent
  int minor() const { return component(1); }
  int micro() const { return component(2); }
  int component(std::size_t i) const { return i < release_.size() ? release_[i] : 0; }

  Pre pre_kind() const { return pre_; }
  long long pre_number() const { return pre_num_; }
  std::optional<long long> post() const { return post_; }  // nightly dev numbers can be dates: 64 bits
  std::optional<long long> dev() const { return dev_; }
  bool is_prerelease() const { return pre_ != Pre::none || dev_.has_value(); }  // a/b/rc/dev
  bool is_postrelease() const { return post_.has_value(); }
  const std::string& local() const { return local_; }  // normalised ("cu130"), "" if none

  std::string str() const;          // normalised PEP 440 text; keeps the given component count
  std::string public_str() const;   // str() without "+local"
  std::string major_minor() const;  // "12.8" (minor 0 when absent: "12" -> "12.0")
  const std::string& original() const { return original_; }  // trimmed input ("580.95.05" keeps its zero)

  Version public_version() const;   // without the local label
  Version base_version() const;     // epoch and release only: "2.4.0a0+git1" -> "2.4.0"
  Version truncated(std::size_t n) const;  // first n release components ("12.8.1" -> "12.8"), no pre/post/dev/local

  // PEP 440 order. Trailing zeros are insignificant (12.8 == 12.8.0); dev < a < b < rc < final < post;
  // a local label sorts after the same public version; local segments compare numerically when numeric.
  friend std::strong_ordering operator<=>(const Version& a, const Version& b);
  friend bool operator==(const Version& a, const Version& b);

 private:
  int epoch_ = 0;
  std::vector<int> release_{0};
  Pre pre_ = Pre::none;
  long long pre_num_ = 0;
  std::optional<long long> post_;
  std::optional<long long> dev_;
  std::string local_;
  std::string original_ = "0";
};

// JSON form is the version text; reading invalid text throws std::invalid_argument.
void to_json(nlohmann::json& j, const Version& v);
void from_json(const nlohmann::json& j, Version& v);

}  // namespace ts
