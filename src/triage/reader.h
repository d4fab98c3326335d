#pragma once
// Reading a log into a Scanner: a file (mapped in slices, so memory stays bounded), stdin or any
// descriptor (read in big chunks), gzip'd or not (detected by its magic bytes, not the name), as text or as
// JSON (LogDecoder).
#include <string>
#include <string_view>
#include <vector>

#include "triage/scanner.h"

namespace ts::triage {

// What the reader hands the scanner: the log's own text, whatever it came wrapped in. A log that arrives as
// JSON (docker's json-file driver, one object a line; an API's or a tracker's document with the whole log in
// one string) is decoded: the string values of the keys that carry a log's text (`log_key`) are fed unescaped,
// each ending a line; keys and other values are the wrapping. Decided on the log's first bytes: JSON when it
// begins with '{' and names such a key with a string value there; anything else is fed as it is (one branch
// per chunk). Text that follows a JSON value and is not JSON itself is fed as it is from there on.
class LogDecoder {
 public:
  explicit LogDecoder(Scanner& scanner) : scanner_(scanner) {}
  void feed(std::string_view bytes);
  void finish();  // the bytes still held (a head too short to decide on, decoded text not yet fed)

 private:
  enum class Mode { undecided, plain, json };
  void decide();
  void decode(std::string_view bytes);
  void flush();
  Scanner& scanner_;
  Mode mode_ = Mode::undecided;
  std::string head_;       // the first bytes, until the mode is decided
  std::string out_;        // decoded text not yet fed
  std::string key_;        // the object key being read
  std::string last_key_;   // the key whose value is being read
  std::vector<char> nest_; // '{' and '[' open
  bool in_string_ = false, escape_ = false, is_key_ = false, emit_ = false, expect_key_ = false;
  bool open_line_ = false;  // text was fed since the last '\n'
  int hex_left_ = -1;      // hex digits of a \u escape still to read; -1: none
  unsigned code_ = 0, high_ = 0;  // the \u code unit being read; a UTF-16 high surrogate waiting for its low one
};

// Whether a JSON key names a log's text ("log", "message", "output", ...).
bool log_key(std::string_view key);
// Whether a log's first bytes are a JSON document that carries a log (LogDecoder's test).
bool json_log(std::string_view head);

// False with a one-line reason when the log cannot be read (missing, a directory, corrupt gzip).
bool scan_file(const std::string& path, Scanner& scanner, std::string& error);  // "-" = stdin
bool scan_fd(int fd, Scanner& scanner, std::string& error);

}  // namespace ts::triage
