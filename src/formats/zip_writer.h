#pragma once
// A deterministic zip writer for wheels and .conda files: fixed timestamps, the caller's order,
// names checked, deflate through zlib, ZIP64 when an entry, an offset or the entry count needs it,
// and an atomic result (temp file, fsync, rename; the temp file is removed on failure).
#include <array>
#include <cstdint>
#include <ctime>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace ts::formats {

class ZipWriter {
 public:
  // What was written for one member: RECORD needs its sha256 and size.
  struct Entry {
    std::string name;
    std::uint64_t size = 0, compressed_size = 0, offset = 0;
    std::uint32_t crc = 0, mode = 0644;
    std::uint16_t method = 0;
    std::array<unsigned char, 32> sha256{};
  };

  explicit ZipWriter(std::string path);  // writes path + ".tmp-<pid>", renamed onto path by finish()
  ~ZipWriter();                          // removes the temp file if finish() was not reached
  ZipWriter(const ZipWriter&) = delete;
  ZipWriter& operator=(const ZipWriter&) = delete;

  bool add(std::string_view name, std::string_view data, bool deflate = true,
           std::uint32_t mode = 0644);
  // Streams; any size. Stored members seek over the source's holes, so a sparse input gives a
  // sparse output. The mode is the source file's permission bits.
  bool add_file(std::string_view name, const std::string& src_path, bool deflate = true);
  // central directory (ZIP64 when > 4 GiB or > 65535 entries), fsync, rename
  bool finish();
  const std::string& error() const;  // what failed, naming the file

  // Timestamps of the members written after this call (default 1980-01-01 00:00, zip's epoch).
  void set_time(std::time_t t);
  // Level 1..9 for deflated members (default 6, zlib's).
  void set_level(int level) { level_ = level; }
  const std::vector<Entry>& entries() const { return entries_; }
  const std::string& path() const { return path_; }

 private:
  bool fail(std::string msg);
  bool check_name(std::string_view name);
  bool write_all(const void* p, std::size_t n);
  bool pwrite_all(const void* p, std::size_t n, std::uint64_t off);
  // Local header with room for a ZIP64 extra when `big`; returns false on a write error.
  bool begin_entry(Entry& e, bool big);
  bool end_entry(Entry& e, bool big, std::uint64_t header_off);
  std::string central_directory() const;

  std::string path_, tmp_;
  int fd_ = -1;
  int slot_ = -1;  // util::register_cleanup of tmp_: removed if a signal ends the process
  bool finished_ = false;
  int level_ = 6;
  std::uint16_t dos_time_ = 0, dos_date_ = (0 << 9) | (1 << 5) | 1;
  std::uint64_t pos_ = 0;
  std::vector<Entry> entries_;
  std::unordered_set<std::string> names_;  // to refuse duplicates
  std::string error_;
};

}  // namespace ts::formats
