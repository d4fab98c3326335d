#pragma once
// FactVersion: a version as a tool printed it ("11.8.89", "13.2.0", "580.95.05"), parsed once when it
// is set (by the probe or a facts file), so no stage parses it again. The text is kept as read: a
// facts file round-trips unchanged, and a version no grammar accepts stays visible to the user.
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "core/version.h"

namespace ts {

class FactVersion {
 public:
  FactVersion() = default;
  explicit FactVersion(std::string text);  // where the probe reads it: the one parse
  FactVersion(const char* text) : FactVersion(std::string(text)) {}  // NOLINT: literal facts in tests
  // A version parsed already (a catalog's, as the tool will report it): its text kept, not parsed again.
  explicit FactVersion(const Version& v) : text_(v.original()), parsed_(v) {}

  const std::string& text() const { return text_; }
  // Reads as its text where text is wanted (messages, paths, KB lookups by spelling).
  operator const std::string&() const { return text_; }  // NOLINT
  // The typed value; nullopt when empty or no grammar accepts the text (unknown, never 0).
  const std::optional<Version>& parsed() const { return parsed_; }
  bool empty() const { return text_.empty(); }
  std::string major_minor() const { return parsed_ ? parsed_->major_minor() : text_; }

  friend bool operator==(const FactVersion& a, const FactVersion& b) { return a.text_ == b.text_; }
  friend bool operator==(const FactVersion& a, std::string_view b) { return a.text_ == b; }
  friend bool operator==(const FactVersion& a, const char* b) { return a.text_ == b; }
  friend bool operator==(const FactVersion& a, const std::string& b) { return a.text_ == b; }
  bool starts_with(std::string_view prefix) const { return text_.starts_with(prefix); }
  friend std::ostream& operator<<(std::ostream& o, const FactVersion& v) { return o << v.text_; }
  // Messages spell the text as read.
  friend std::string operator+(const std::string& a, const FactVersion& b) { return a + b.text_; }
  friend std::string operator+(const char* a, const FactVersion& b) { return a + b.text_; }
  friend std::string operator+(const FactVersion& a, const std::string& b) { return a.text_ + b; }
  friend std::string operator+(const FactVersion& a, const char* b) { return a.text_ + b; }

 private:
  std::string text_;
  std::optional<Version> parsed_;
};

// JSON form is the text, exactly as read.
void to_json(nlohmann::json& j, const FactVersion& v);
void from_json(const nlohmann::json& j, FactVersion& v);

}  // namespace ts
