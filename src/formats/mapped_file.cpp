#include "formats/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace ts::formats {

MappedFile::MappedFile(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error_ = "cannot open " + path + ": " + std::strerror(errno);
    return;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    error_ = path + ": not a regular file";
    ::close(fd);
    return;
  }
  size_ = static_cast<std::size_t>(st.st_size);
  if (size_ > 0) {  // mmap of length 0 fails; an empty file is simply zero bytes
    void* a = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (a == MAP_FAILED) {
      error_ = "cannot map " + path + ": " + std::strerror(errno);
      size_ = 0;
    } else {
      addr_ = a;
    }
  }
  ::close(fd);
}

MappedFile::MappedFile(MappedFile&& o) noexcept : addr_(o.addr_), size_(o.size_), error_(std::move(o.error_)) {
  o.addr_ = nullptr;
  o.size_ = 0;
}

MappedFile::~MappedFile() {
  if (addr_) ::munmap(addr_, size_);
}

}  // namespace ts::formats
