// Quoting for the renderers' targets, one function each, asked by every renderer and the fuzzers.
#include "plan/render.h"

namespace ts::plan {

std::string docker_exec_form(const std::vector<std::string>& argv) {
  static const char* kHex = "0123456789abcdef";
  std::string s = "[";
  for (const auto& a : argv) {
    std::string e;
    for (char c : a) {
      auto u = static_cast<unsigned char>(c);
      if (c == '"' || c == '\\') {
        e += '\\';
        e += c;
      } else if (u < 0x20 || u == 0x7f) {
        e += std::string("\\u00") + kHex[u >> 4] + kHex[u & 15];
      } else {
        e += c;
      }
    }
    s += (s.size() > 1 ? ", \"" : "\"") + e + "\"";
  }
  return s + "]";
}

}  // namespace ts::plan
