#include "util/evp_hash.h"

#include <openssl/evp.h>

#include <new>
#include <stdexcept>

namespace ts::util {

namespace {

// Fetched once: an implicit fetch (EVP_sha256()) in every init costs more than hashing a small file.
const EVP_MD* method(EvpHash::Algorithm a) {
  static EVP_MD* const sha256 = EVP_MD_fetch(nullptr, "SHA2-256", nullptr);
  static EVP_MD* const md5 = EVP_MD_fetch(nullptr, "MD5", nullptr);
  const EVP_MD* md = a == EvpHash::Algorithm::kSha256 ? sha256 : md5;
  if (!md) throw std::runtime_error("OpenSSL has no digest method for SHA-256/MD5 (libcrypto's default provider)");
  return md;
}

}  // namespace

void EvpHash::Free::operator()(evp_md_ctx_st* ctx) const { EVP_MD_CTX_free(ctx); }

EvpHash::EvpHash(Algorithm a) : ctx_(EVP_MD_CTX_new()) {
  if (!ctx_) throw std::bad_alloc();
  if (EVP_DigestInit_ex(ctx_.get(), method(a), nullptr) != 1)
    throw std::runtime_error("OpenSSL EVP_DigestInit_ex failed");
}

void EvpHash::update(const void* data, std::size_t n) {
  if (n && EVP_DigestUpdate(ctx_.get(), data, n) != 1) throw std::runtime_error("OpenSSL EVP_DigestUpdate failed");
}

std::size_t EvpHash::finish(unsigned char* out) {
  unsigned n = 0;
  if (EVP_DigestFinal_ex(ctx_.get(), out, &n) != 1) throw std::runtime_error("OpenSSL EVP_DigestFinal_ex failed");
  return n;
}

}  // namespace ts::util
