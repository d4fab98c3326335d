#pragma once
// SHA-256 as hex (util/sha256) and base64: the journal keeps original bytes and their digests, and
// the lock file pins each fix by the digest of its content. No crypto library is linked.
#include <string>
#include <string_view>

namespace ts::source {

std::string sha256_hex(std::string_view data);  // 64 lower-case hex digits
std::string base64_encode(std::string_view data);
// False when text is not valid base64 (padding included); out is then unspecified.
bool base64_decode(std::string_view text, std::string& out);

}  // namespace ts::source
