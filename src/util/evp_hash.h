#pragma once
// One streaming digest over OpenSSL's EVP (libcrypto.a, linked statically, so the installed binary
// needs no libssl): the field's hardened code, and 4.6x our former hand-written SHA-256 on SHA-NI
// machines (bench_hash). util::Sha256 and package::Md5 are thin names for it.
#include <cstddef>
#include <memory>

struct evp_md_ctx_st;

namespace ts::util {

class EvpHash {
 public:
  enum class Algorithm { kSha256, kMd5 };
  explicit EvpHash(Algorithm a);
  void update(const void* data, std::size_t n);
  // Writes the digest (32 or 16 bytes) to out and returns its length; the object is spent afterwards.
  std::size_t finish(unsigned char* out);

 private:
  struct Free {
    void operator()(evp_md_ctx_st* ctx) const;
  };
  std::unique_ptr<evp_md_ctx_st, Free> ctx_;
};

}  // namespace ts::util
