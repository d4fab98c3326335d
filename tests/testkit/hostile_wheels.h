#pragma once
// The hostile wheels of issue 32's archive class, one set for every reader (repair, conda, verify,
// index, verify --python): each must be refused by all of them, so none accepts what another
// refuses. Bytes only; the caller writes them under the file name given.
#include <cstdint>
#include <string>
#include <vector>

#include "testkit/zip_craft.h"

namespace ts::testkit {

struct HostileWheel {
  std::string what;       // the test's name for it
  std::string file_name;  // as written to disk
  std::string bytes;
};

// A wheel whose WHEEL text and members are the caller's; RECORD true for what is added.
inline std::string craft_wheel(const std::string& dist_info, const std::string& wheel_text,
                               const std::vector<std::pair<std::string, std::string>>& files,
                               const std::string& lie_about = "") {
  ZipCraft z;
  std::string record;
  auto put = [&](const std::string& name, const std::string& content) {
    z.add(name, content);
    // The RECORD line of `lie_about` hashes other bytes: the file changed after the wheel was built.
    record += record_line(name, name == lie_about ? content + "changed" : content);
  };
  put(dist_info + "/METADATA", "Metadata-Version: 2.1\nName: " + dist_info.substr(0, dist_info.find('-')) +
                                   "\nVersion: 1.0\n");
  put(dist_info + "/WHEEL", wheel_text);
  for (const auto& [n, c] : files) put(n, c);
  z.add(dist_info + "/RECORD", record + dist_info + "/RECORD,,\n");
  return z.finish();
}

// `count` members of `size` zero bytes, each under the per-member ratio floor of 1 MiB, all
// deflated from one stream copied (no two members share bytes): 3,000 x (1 MiB - 1) is 2.9 GiB
// from about 3.4 MB.
inline std::string many_small_bombs(const std::string& dist_info, int count, std::uint64_t size) {
  ZipCraft z;
  const std::string zeros(size, '\0');
  const std::string packed = ZipCraft::deflate_raw(zeros);
  const std::uint32_t crc = ZipCraft::crc(zeros);
  for (int i = 0; i < count; ++i) {
    ZipCraft::Entry e{"pkg/blob" + std::to_string(i) + ".bin", 8, crc, packed.size(), size, 0};
    z.central(z.local(e, packed));
  }
  const std::string meta = "Metadata-Version: 2.1\nName: pkg\nVersion: 1.0\n", wheel = "Wheel-Version: 1.0\nTag: py3-none-any\n";
  std::string record;
  const std::string line = record_line("", zeros);  // ",sha256=...,SIZE\n": hashed once
  for (int i = 0; i < count; ++i) record += "pkg/blob" + std::to_string(i) + ".bin" + line;
  z.add(dist_info + "/METADATA", meta);
  z.add(dist_info + "/WHEEL", wheel);
  z.add(dist_info + "/RECORD", record + record_line(dist_info + "/METADATA", meta) +
                                   record_line(dist_info + "/WHEEL", wheel) + dist_info + "/RECORD,,\n");
  return z.finish();
}

inline std::vector<HostileWheel> hostile_wheels() {
  const std::string tag = "Wheel-Version: 1.0\nTag: py3-none-any\n";
  const std::string file = "pkg-1.0-py3-none-any.whl";
  return {
      {"bomb", file, many_small_bombs("pkg-1.0.dist-info", 3000, (1u << 20) - 1)},
      {"tag_path", file, craft_wheel("pkg-1.0.dist-info", "Wheel-Version: 1.0\nTag: ../../x\n", {{"pkg/__init__.py", ""}})},
      {"tag_missing", file, craft_wheel("pkg-1.0.dist-info", "Wheel-Version: 1.0\n", {{"pkg/__init__.py", ""}})},
      {"escape_name", file, craft_wheel("pkg-1.0.dist-info", tag, {{"pkg/\x1b]0;pwned\x07\x1b[2J.py", ""}})},
      {"newline_name", file, craft_wheel("pkg-1.0.dist-info", tag, {{"pkg/x\n0\t0\t..", ""}})},
      {"record_lies", file, craft_wheel("pkg-1.0.dist-info", tag, {{"pkg/__init__.py", "print(1)\n"}}, "pkg/__init__.py")},
      {"other_dist", "other-1.0-py3-none-any.whl", craft_wheel("pkg-1.0.dist-info", tag, {{"pkg/__init__.py", ""}})},
      {"odd_dist_info", file, craft_wheel("pkg-1.0-x;y.dist-info", tag, {{"pkg/__init__.py", ""}})},
  };
}

}  // namespace ts::testkit
