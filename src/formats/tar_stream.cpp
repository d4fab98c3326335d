#include "formats/tar_stream.h"

#include "formats/zip.h"  // write_error

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include "util/scratch_dir.h"
#include "util/partial_files.h"

namespace ts::formats {

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
  // The pid in the name: a later run removes what a killed one left (util/partial_files.h).
  const std::string parent = std::filesystem::path(path_).parent_path().string();
  util::remove_stale(parent.empty() ? "." : parent, std::filesystem::path(path_).filename().string() + ".tmp-");
  tmp_ = path_ + ".tmp-" + std::to_string(::getpid()) + "-XXXXXX";
  std::vector<char> buf(tmp_.begin(), tmp_.end());
  buf.push_back('\0');
  util::CleanupSignalsHeld held;  // until the partial file is in the registry
  int fd = mkstemp(buf.data());
  if (fd < 0) {
    error_ = "cannot create " + tmp_ + ": " + std::strerror(errno);
    tmp_.clear();
    return;
  }
  tmp_ = buf.data();
  slot_ = util::register_cleanup(tmp_);
  fchmod(fd, 0644);  // mkstemp makes 0600; packages are for others to read
  f_ = fdopen(fd, "wb");
  if (!f_) {
    error_ = "cannot open " + tmp_ + ": " + std::strerror(errno);
    close(fd);
  }
}

AtomicFile::~AtomicFile() {
  if (f_) std::fclose(f_);
  if (!done_ && !tmp_.empty()) unlink(tmp_.c_str());
  util::unregister_cleanup(slot_);
}

bool AtomicFile::write(const void* data, std::size_t n) {
  if (!ok()) return false;
  if (n && std::fwrite(data, 1, n, f_) != n) error_ = write_error(tmp_, errno);
  return ok();
}

bool AtomicFile::commit() {
  if (!ok()) return false;
  if (std::fflush(f_) != 0 || fsync(fileno(f_)) != 0) {
    error_ = write_error(tmp_, errno);
    return false;
  }
  const int closed = std::fclose(f_);  // a deferred write error shows here
  f_ = nullptr;
  if (closed != 0) {
    error_ = write_error(tmp_, errno);
    return false;
  }
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0) {
    error_ = "cannot rename " + tmp_ + " to " + path_ + ": " + std::strerror(errno);
    return false;
  }
  done_ = true;
  util::unregister_cleanup(slot_);
  slot_ = -1;
  return true;
}

FileSource::FileSource(const std::string& path) : path_(path) {
  f_ = std::fopen(path.c_str(), "rb");
  if (!f_) error_ = "cannot read " + path + ": " + std::strerror(errno);
}

FileSource::~FileSource() {
  if (f_) std::fclose(f_);
}

std::size_t FileSource::read(void* data, std::size_t n) {
  if (!f_ || !ok()) return 0;
  std::size_t got = std::fread(data, 1, n, f_);
  if (got < n && std::ferror(f_)) error_ = "cannot read " + path_ + ": read error";
  return got;
}

std::string copy_file_to(const std::string& path, ByteSink& out) {
  FileSource in(path);
  if (!in.ok()) return in.error();
  std::vector<char> buf(1 << 20);
  while (std::size_t n = in.read(buf.data(), buf.size()))
    if (!out.write(buf.data(), n)) return out.error();
  return in.error();
}

}  // namespace ts::formats
