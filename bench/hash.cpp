// bench_hash: torchsmith's SHA-256 (util::Sha256) and MD5 (package::Md5), both OpenSSL's EVP
// behind util::EvpHash, against EVP called directly on the same 1 GiB buffer: what the wrapper
// costs, and that the digests agree. Prints MB/s for each, measured in this run.
// Usage: bench_hash [MiB=1024] [REPEAT=3]   (the best of REPEAT runs is printed)
#include <openssl/evp.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "package/conda_digest.h"
#include "util/sha256.h"

namespace {

double best_seconds(int repeat, const std::function<std::string()>& f, std::string& out) {
  double best = 1e9;
  for (int i = 0; i < repeat; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    out = f();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

std::string evp(const EVP_MD* md, const std::vector<unsigned char>& buf) {
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  unsigned char d[EVP_MAX_MD_SIZE];
  unsigned n = 0;
  EVP_DigestInit_ex(ctx, md, nullptr);
  // Fed in 1 MiB chunks, as torchsmith streams files.
  for (std::size_t off = 0; off < buf.size(); off += 1 << 20)
    EVP_DigestUpdate(ctx, buf.data() + off, std::min<std::size_t>(1 << 20, buf.size() - off));
  EVP_DigestFinal_ex(ctx, d, &n);
  EVP_MD_CTX_free(ctx);
  return ts::util::hex(d, n);
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t mib = argc > 1 ? std::stoul(argv[1]) : 1024;
  int repeat = argc > 2 ? std::stoi(argv[2]) : 3;
  std::vector<unsigned char> buf(mib << 20);
  std::uint64_t x = 0x9e3779b97f4a7c15ull;  // xorshift: incompressible, reproducible
  for (auto& c : buf) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    c = static_cast<unsigned char>(x);
  }
  auto mbps = [&](double s) { return static_cast<double>(buf.size()) / (1 << 20) / s; };
  std::string a, b;
  double ours_sha = best_seconds(repeat, [&] {
    ts::util::Sha256 h;
    for (std::size_t off = 0; off < buf.size(); off += 1 << 20)
      h.update(buf.data() + off, std::min<std::size_t>(1 << 20, buf.size() - off));
    return ts::util::hex(h.digest());
  }, a);
  double evp_sha = best_seconds(repeat, [&] { return evp(EVP_sha256(), buf); }, b);
  std::printf("sha256 %zu MiB: util::Sha256 %.2f s (%.0f MB/s), EVP %.2f s (%.0f MB/s), same digest: %s\n", mib,
              ours_sha, mbps(ours_sha), evp_sha, mbps(evp_sha), a == b ? "yes" : "NO");
  bool same = a == b;
  double ours_md5 = best_seconds(repeat, [&] {
    ts::package::Md5 h;
    for (std::size_t off = 0; off < buf.size(); off += 1 << 20)
      h.update(buf.data() + off, std::min<std::size_t>(1 << 20, buf.size() - off));
    return h.hex();
  }, a);
  double evp_md5 = best_seconds(repeat, [&] { return evp(EVP_md5(), buf); }, b);
  std::printf("md5    %zu MiB: package::Md5 %.2f s (%.0f MB/s), EVP %.2f s (%.0f MB/s), same digest: %s\n", mib,
              ours_md5, mbps(ours_md5), evp_md5, mbps(evp_md5), a == b ? "yes" : "NO");
  return same && a == b ? 0 : 1;
}
