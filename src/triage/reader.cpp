#include "triage/reader.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <span>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

namespace ts::triage {
namespace {

constexpr std::size_t kChunk = 4 << 20;    // read() size for pipes and gzip input
constexpr std::size_t kSlice = 64 << 20;   // mmap window for regular files

bool is_gzip(const unsigned char* p, std::size_t n) { return n >= 2 && p[0] == 0x1f && p[1] == 0x8b; }

// Inflates gzip members (several may be concatenated) from `first` then `more()`.
template <class More>
bool inflate_into(const unsigned char* first, std::size_t first_n, More more, LogDecoder& scanner, std::string& error) {
  z_stream z{};
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) { error = "gzip: cannot initialise zlib"; return false; }
  std::unique_ptr<z_stream, void (*)(z_stream*)> guard(&z, [](z_stream* s) { inflateEnd(s); });
  // Not zero-filled: a 4 MiB memset per small log (a pipe, a fuzz input) cost more than the scan.
  auto out_buf = std::make_unique_for_overwrite<unsigned char[]>(kChunk);
  const std::span<unsigned char> out(out_buf.get(), kChunk);
  const unsigned char* in = first;
  std::size_t in_n = first_n;
  bool ended = false;
  while (true) {
    if (in_n == 0) {
      if (!more(in, in_n)) return false;  // read error already in `error`
      if (in_n == 0) break;               // end of input
    }
    z.next_in = const_cast<unsigned char*>(in);
    z.avail_in = static_cast<uInt>(in_n);
    while (z.avail_in > 0) {
      if (ended) {  // another member follows, or trailing junk
        if (!is_gzip(z.next_in, z.avail_in) && !(z.avail_in == 1 && z.next_in[0] == 0x1f)) { z.avail_in = 0; break; }
        inflateReset(&z);
        ended = false;
      }
      z.next_out = out.data();
      z.avail_out = static_cast<uInt>(out.size());
      int rc = inflate(&z, Z_NO_FLUSH);
      std::size_t produced = out.size() - z.avail_out;
      if (produced) scanner.feed(std::string_view(reinterpret_cast<const char*>(out.data()), produced));
      if (rc == Z_STREAM_END) ended = true;
      else if (rc == Z_BUF_ERROR && produced == 0) break;
      else if (rc != Z_OK) { error = std::string("gzip: corrupt data (") + (z.msg ? z.msg : "inflate failed") + ")"; return false; }
    }
    in_n = 0;
  }
  // Flush what zlib still holds.
  while (!ended) {
    z.next_out = out.data();
    z.avail_out = static_cast<uInt>(out.size());
    int rc = inflate(&z, Z_FINISH);
    std::size_t produced = out.size() - z.avail_out;
    if (produced) scanner.feed(std::string_view(reinterpret_cast<const char*>(out.data()), produced));
    if (rc == Z_STREAM_END) break;
    if (produced == 0) { error = "gzip: truncated stream"; return false; }
  }
  return true;
}

bool json_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

void put_utf8(std::string& out, unsigned cp) {
  if (cp < 0x80) out += static_cast<char>(cp);
  else if (cp < 0x800) { out += static_cast<char>(0xC0 | (cp >> 6)); out += static_cast<char>(0x80 | (cp & 0x3F)); }
  else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

constexpr std::size_t kDecideBytes = 4096;  // the head a JSON log must name a log key in
constexpr std::size_t kFeedBytes = 1 << 20;  // decoded text fed in pieces of about this size
constexpr std::size_t kMaxNest = 256;        // deeper JSON is read as flat (values by the last key)

}  // namespace

// JSON when the head begins with '{' (after blanks) and a log key's string value (or array) starts in it.
bool json_log(std::string_view head) {
  std::size_t i = 0;
  while (i < head.size() && json_space(head[i])) ++i;
  if (i >= head.size() || head[i] != '{') return false;
  for (std::size_t q = head.find('"', i); q != std::string_view::npos; q = head.find('"', q + 1)) {
    std::size_t e = head.find('"', q + 1);
    if (e == std::string_view::npos) return false;
    if (e - q - 1 > 16) continue;
    std::size_t k = e + 1;
    while (k < head.size() && json_space(head[k])) ++k;
    if (k >= head.size() || head[k] != ':') continue;
    ++k;
    while (k < head.size() && json_space(head[k])) ++k;
    if (k < head.size() && (head[k] == '"' || head[k] == '[') && log_key(head.substr(q + 1, e - q - 1))) return true;
  }
  return false;
}

// The keys whose string values are a log's text: docker's json-file "log", loggers' "message"/"msg",
// CI and API documents' "output"/"stdout"/"stderr"/"logs", Jupyter's "text", a tracker's "body"/"content".
bool log_key(std::string_view key) {
  for (std::string_view k : {"log", "logs", "message", "msg", "output", "stdout", "stderr", "text", "body", "content"})
    if (key == k) return true;
  return false;
}

void LogDecoder::feed(std::string_view bytes) {
  if (mode_ == Mode::plain) { scanner_.feed(bytes); return; }
  if (mode_ == Mode::undecided) {
    if (head_.empty() && bytes.size() >= kDecideBytes) {
      // The common case, a file's first slice: decided on its head, fed whole (no copy, one feed).
      mode_ = json_log(bytes.substr(0, kDecideBytes)) ? Mode::json : Mode::plain;
    } else {
      std::size_t take = std::min(bytes.size(), kDecideBytes - head_.size());
      head_.append(bytes.substr(0, take));
      bytes.remove_prefix(take);
      if (head_.size() < kDecideBytes) return;
      decide();
    }
  }
  if (mode_ == Mode::plain) scanner_.feed(bytes);
  else decode(bytes);
}

void LogDecoder::finish() {
  if (mode_ == Mode::undecided) decide();
  flush();
}

void LogDecoder::decide() {
  std::string head = std::move(head_);
  head_.clear();
  mode_ = json_log(head) ? Mode::json : Mode::plain;
  if (mode_ == Mode::json) decode(head);
  else if (!head.empty()) scanner_.feed(head);
}

void LogDecoder::flush() {
  if (!out_.empty()) scanner_.feed(out_);
  out_.clear();
}

void LogDecoder::decode(std::string_view b) {
  for (std::size_t i = 0; i < b.size(); ++i) {
    char c = b[i];
    if (!in_string_) {
      if (nest_.empty() && !json_space(c) && c != '{' && c != '[') {
        // The JSON ended and text follows: the rest of the log is fed as it is.
        flush();
        mode_ = Mode::plain;
        scanner_.feed(b.substr(i));
        return;
      }
      switch (c) {
        case '{': if (nest_.size() < kMaxNest) nest_.push_back('{'); expect_key_ = true; break;
        case '[': if (nest_.size() < kMaxNest) nest_.push_back('['); expect_key_ = false; break;
        case '}': case ']': if (!nest_.empty()) nest_.pop_back(); expect_key_ = false; break;
        case ':': expect_key_ = false; break;
        case ',': expect_key_ = !nest_.empty() && nest_.back() == '{'; break;
        case '"':
          in_string_ = true;
          is_key_ = expect_key_;
          if (is_key_) key_.clear();
          emit_ = !is_key_ && log_key(last_key_);
          break;
        default: break;  // numbers, true/false/null, blanks
      }
      continue;
    }
    if (hex_left_ >= 0) {
      unsigned v = c >= '0' && c <= '9' ? unsigned(c - '0') : c >= 'a' && c <= 'f' ? unsigned(c - 'a' + 10)
                 : c >= 'A' && c <= 'F' ? unsigned(c - 'A' + 10) : 0;
      code_ = code_ * 16 + v;
      if (--hex_left_ > 0) continue;
      hex_left_ = -1;
      unsigned cp = code_;
      if (cp >= 0xD800 && cp < 0xDC00) { high_ = cp; continue; }
      if (cp >= 0xDC00 && cp < 0xE000 && high_) cp = 0x10000 + ((high_ - 0xD800) << 10) + (cp - 0xDC00);
      else if (cp >= 0xD800 && cp < 0xE000) cp = 0xFFFD;
      high_ = 0;
      if (emit_) { put_utf8(out_, cp); open_line_ = true; }
      continue;
    }
    char d = c;
    if (escape_) {
      escape_ = false;
      switch (c) {
        case 'n': d = '\n'; break;
        case 't': d = '\t'; break;
        case 'r': d = '\r'; break;
        case 'b': d = '\b'; break;
        case 'f': d = '\f'; break;
        case 'u': hex_left_ = 4; code_ = 0; continue;
        default: break;  // \" \\ \/ stand for themselves
      }
    } else if (c == '\\') {
      escape_ = true;
      continue;
    } else if (c == '"') {
      in_string_ = false;
      if (is_key_) last_key_ = key_;
      else if (emit_ && open_line_) { out_ += '\n'; open_line_ = false; }  // a value ends its line
      if (out_.size() >= kFeedBytes) flush();
      continue;
    }
    if (high_) { if (emit_) put_utf8(out_, 0xFFFD); high_ = 0; }
    if (is_key_) { if (key_.size() < 32) key_ += d; }
    else if (emit_) { out_ += d; open_line_ = d != '\n'; }
  }
  flush();
}

namespace {
bool scan_fd_into(int fd, LogDecoder& scanner, std::string& error) {
  auto buf_mem = std::make_unique_for_overwrite<unsigned char[]>(kChunk);
  const std::span<unsigned char> buf(buf_mem.get(), kChunk);
  auto read_some = [&](const unsigned char*& p, std::size_t& n) {
    while (true) {
      ssize_t r = ::read(fd, buf.data(), buf.size());
      if (r < 0 && errno == EINTR) continue;
      if (r < 0) { error = std::string("read failed: ") + std::strerror(errno); return false; }
      p = buf.data();
      n = static_cast<std::size_t>(r);
      return true;
    }
  };
  const unsigned char* p = nullptr;
  std::size_t n = 0;
  if (!read_some(p, n)) return false;
  // Need two bytes to decide gzip; a one-byte first read is rare but possible on a pipe.
  std::string head;
  if (n == 1) {
    head.assign(reinterpret_cast<const char*>(p), 1);
    const unsigned char* p2;
    std::size_t n2;
    if (!read_some(p2, n2)) return false;
    if (n2 == 0) { scanner.feed(head); return true; }
    head.append(reinterpret_cast<const char*>(p2), n2);
    p = reinterpret_cast<const unsigned char*>(head.data());
    n = head.size();
  }
  if (is_gzip(p, n)) return inflate_into(p, n, read_some, scanner, error);
  while (n > 0) {
    scanner.feed(std::string_view(reinterpret_cast<const char*>(p), n));
    if (!read_some(p, n)) return false;
  }
  return true;
}
}  // namespace

bool scan_fd(int fd, Scanner& scanner, std::string& error) {
  LogDecoder decoder(scanner);
  bool ok = scan_fd_into(fd, decoder, error);
  decoder.finish();
  return ok;
}

bool scan_file(const std::string& path, Scanner& scanner, std::string& error) {
  if (path == "-") return scan_fd(0, scanner, error);
  LogDecoder decoder(scanner);
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) { error = path + ": " + std::strerror(errno); return false; }
  struct stat st{};
  if (::fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
    error = path + ": " + (S_ISDIR(st.st_mode) ? "is a directory" : std::strerror(errno));
    ::close(fd);
    return false;
  }
  bool ok = true;
  unsigned char magic[2] = {0, 0};
  bool regular = S_ISREG(st.st_mode) && st.st_size > 0;
  if (regular && ::pread(fd, magic, 2, 0) == 2 && is_gzip(magic, 2)) regular = false;
  if (!regular) {
    ok = scan_fd_into(fd, decoder, error);
    if (!ok) error = path + ": " + error;
  } else {
    // Regular file: map a window at a time, so RSS stays bounded for multi-GB logs.
    const std::size_t size = static_cast<std::size_t>(st.st_size);
    for (std::size_t off = 0; off < size && ok; off += kSlice) {
      std::size_t len = std::min(kSlice, size - off);
      void* m = ::mmap(nullptr, len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, static_cast<off_t>(off));
      if (m == MAP_FAILED) { error = path + ": mmap failed: " + std::strerror(errno); ok = false; break; }
      ::madvise(m, len, MADV_SEQUENTIAL);
      ::madvise(m, len, MADV_WILLNEED);
      decoder.feed(std::string_view(static_cast<const char*>(m), len));
      ::munmap(m, len);
    }
  }
  decoder.finish();
  ::close(fd);
  return ok;
}

}  // namespace ts::triage
