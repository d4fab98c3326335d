#include "triage/prefilter.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <cstring>
#include <map>
#include <stdexcept>
#include <unordered_map>

#include <re2/filtered_re2.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace ts::triage {
namespace {

constexpr int kHashBits = 18;  // 32 KiB bitmap: stays in L1, few random hits
// The windows of a hit are found through the hash's low 12 bits: a 16 KiB index that stays in
// cache (one slot per hash took 1 MiB, read at random on every hit).
constexpr std::uint32_t kIndexMask = (1u << 12) - 1;
constexpr std::size_t kMaxStride = 8;
// Bytes ahead of the probes to prefetch: the hardware prefetcher alone left the probe loop waiting
// on memory (one thread, 268 MB log file: 2.9-3.0 GB/s without, 3.4-3.6 GB/s with; 1, 4, 8 KiB less).
constexpr std::ptrdiff_t kPrefetch = 2048;
std::atomic<Prefilter::Path> g_path{Prefilter::Path::fastest};

inline std::uint32_t fold4(const char* p) {
  std::uint32_t w;
  std::memcpy(&w, p, 4);
  return w | 0x20202020u;
}
inline std::uint32_t hash4(std::uint32_t w) { return (w * 0x9E3779B1u) >> (32 - kHashBits); }

// Typical build-log noise: windows frequent here are poor probes (they would verify on every line).
constexpr std::string_view kNoise =
    "[1234/5678] Building CXX object caffe2/CMakeFiles/torch_cpu.dir/__/aten/src/ATen/native/cpu/Activation.cpp.o\n"
    "[99/812] Building CUDA object caffe2/CMakeFiles/torch_cuda.dir/__/aten/src/ATen/native/cuda/Loss.cu.o\n"
    "/home/user/pytorch/aten/src/ATen/native/Convolution.cpp:123:45: warning: unused variable 'x' [-Wunused-variable]\n"
    "-- Looking for pthread_create in pthreads - not found\n-- Performing Test COMPILER_SUPPORTS_AVX - Success\n"
    "-- Found Python: /usr/bin/python3 (found version \"3.10.12\") found components: Interpreter Development\n"
    "copying torch/include/ATen/core/Tensor.h -> build/lib.linux-x86_64-cpython-310/torch/include\n"
    "In file included from /home/user/pytorch/c10/util/Exception.h:5, note: in instantiation of function template\n"
    "Linking CXX shared library lib/libtorch_cpu.so\n"
    // A verbose compile command (ninja -v, setup.py develop): long, and on every other line.
    "/usr/bin/c++ -DAT_PER_OPERATOR_HEADERS -DCPUINFO_SUPPORTED_PLATFORM=1 -DFMT_HEADER_ONLY=1 -DHAVE_MALLOC_USABLE_SIZE=1 "
    "-DHAVE_MMAP=1 -DONNX_NAMESPACE=onnx_torch -DUSE_EXTERNAL_MZCRC -D_FILE_OFFSET_BITS=64 -Dtorch_cpu_EXPORTS "
    "-I/home/user/pytorch/build/aten/src -I/home/user/pytorch/third_party/onnx -isystem /home/user/pytorch/third_party/protobuf/src "
    "-D_GLIBCXX_USE_CXX11_ABI=1 -fvisibility-inlines-hidden -DUSE_PTHREADPOOL -DNDEBUG -DUSE_KINETO -DLIBKINETO_NOCUPTI "
    "-DLIBKINETO_NOROCTRACER -DUSE_FBGEMM -DUSE_QNNPACK -DUSE_PYTORCH_QNNPACK -DUSE_XNNPACK -DSYMBOLICATE_MOBILE_DEBUG_HANDLE "
    "-O2 -fPIC -Wall -Wextra -Werror=return-type -Werror=non-virtual-dtor -Werror=bool-operation -Wnarrowing "
    "-Wno-missing-field-initializers -Wno-type-limits -Wno-array-bounds -Wno-unknown-pragmas -Wno-unused-parameter "
    "-Wno-strict-overflow -Wno-strict-aliasing -Wno-stringop-overflow -Wsuggest-override -Wno-psabi -Wno-error=old-style-cast "
    "-Wno-missing-braces -fdiagnostics-color=always -faligned-new -Wno-unused-but-set-variable -Wno-maybe-uninitialized "
    "-fno-math-errno -fno-trapping-math -Werror=format -Wno-stringop-overflow -DHAVE_AVX512_CPU_DEFINITION "
    "-DHAVE_AVX2_CPU_DEFINITION -O3 -DNDEBUG -std=gnu++17 -fPIC -DTORCH_USE_LIBUV -DCAFFE2_USE_GLOO -Wall -Wextra "
    "-Wdeprecated -Wno-unused-parameter -Wno-missing-field-initializers -Wno-type-limits -Wno-array-bounds "
    "-Wno-unknown-pragmas -Wno-strict-overflow -Wno-strict-aliasing -Wunused-function -Wno-unused-private-field "
    "-Wno-error=pedantic -Wno-error=redundant-decls -Wno-error=unused-local-typedefs -fvisibility=hidden -pthread "
    "-fopenmp -MD -MT caffe2/CMakeFiles/torch_cpu.dir/__/torch/csrc/jit/runtime/interpreter.cpp.o -c interpreter.cpp\n"
    "/home/user/pytorch/aten/src/ATen/native/Sorting.cpp:81:23: warning: comparison of integer expressions of different "
    "signedness: 'int' and 'size_t' {aka 'long unsigned int'} [-Wsign-compare]\n"
    "/home/user/pytorch/torch/csrc/Module.cpp:12: warning: 'void at::Tensor::print() const' is deprecated: Use the operator<< "
    "[-Wdeprecated-declarations] ignoring return value of 'ssize_t write(int, const void*, size_t)' declared with attribute "
    "'warn_unused_result' [-Wunused-result] this 'if' clause does not guard... [-Wmisleading-indentation]\n"
    "ptxas info    : Used 64 registers, 416 bytes cmem[0], 8 bytes smem, compiling entry function for 'sm_80'\n"
    "-- Performing Test HAS_WERROR_RETURN_TYPE - Success\n-- Could NOT find OpenMP_C (missing: OpenMP_C_FLAGS)\n";

// Atoms of one pattern that are necessary as a set (see the header). Empty: unfiltered.
std::vector<std::string> necessary_atoms(const std::string& pattern) {
  RE2::Options o;
  o.set_encoding(RE2::Options::EncodingLatin1);
  o.set_log_errors(false);
  re2::FilteredRE2 f(4);
  int id = 0;
  if (f.Add(pattern, o, &id) != RE2::NoError) throw std::runtime_error("pattern does not compile: " + pattern);
  std::vector<std::string> atoms;
  f.Compile(&atoms);
  std::vector<int> none, passes;
  f.AllPotentials(none, &passes);
  if (!passes.empty() || atoms.empty()) return {};  // matches with no atom at all
  // Greedy: drop atoms, the most common in typical noise first (then the shortest), while the
  // remaining set S stays necessary, i.e. the pattern still cannot pass with every atom outside S.
  std::string noise(kNoise);
  for (char& c : noise) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  auto common = [&](const std::string& a) {
    int n = 0;
    for (std::size_t at = noise.find(a); at != std::string::npos; at = noise.find(a, at + 1)) ++n;
    return n;
  };
  std::vector<int> s(atoms.size());
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = static_cast<int>(i);
  std::stable_sort(s.begin(), s.end(), [&](int a, int b) {
    int ca = common(atoms[a]), cb = common(atoms[b]);
    return ca != cb ? ca > cb : atoms[a].size() < atoms[b].size();
  });
  for (std::size_t k = 0; k < s.size();) {
    std::vector<int> trial = s;
    trial.erase(trial.begin() + static_cast<long>(k));
    std::vector<int> outside;
    for (int i = 0; i < static_cast<int>(atoms.size()); ++i)
      if (std::find(trial.begin(), trial.end(), i) == trial.end()) outside.push_back(i);
    std::vector<int> r;
    f.AllPotentials(outside, &r);
    if (r.empty()) s = trial;
    else ++k;
  }
  std::vector<std::string> out;
  for (int i : s) out.push_back(atoms[i]);
  return out;
}

}  // namespace

void Prefilter::build(const std::vector<std::string>& patterns) {
  literals_.clear();
  match_all_ = false;
  for (const auto& p : patterns) {
    auto atoms = necessary_atoms(p);
    if (atoms.empty()) { match_all_ = true; continue; }
    for (auto& a : atoms)
      if (a.size() < 4) match_all_ = true;  // FilteredRE2(4) never returns these; be safe anyway
      else literals_.push_back(a);
  }
  // A literal containing another is redundant: every occurrence of it contains the shorter one.
  std::sort(literals_.begin(), literals_.end(), [](const auto& a, const auto& b) { return a.size() < b.size() || (a.size() == b.size() && a < b); });
  literals_.erase(std::unique(literals_.begin(), literals_.end()), literals_.end());
  std::vector<std::string> kept;
  for (const auto& l : literals_) {
    bool redundant = false;
    for (const auto& k : kept) redundant |= l.find(k) != std::string::npos;
    if (!redundant) kept.push_back(l);
  }
  literals_ = std::move(kept);

  std::size_t shortest = kMaxStride + 3;
  longest_ = 0;
  for (const auto& l : literals_) shortest = std::min(shortest, l.size()), longest_ = std::max(longest_, l.size());
  stride_ = std::max<std::size_t>(1, std::min(kMaxStride, shortest - 3));

  folded_.clear();
  for (const auto& l : literals_) {
    std::string f = l;
    for (char& c : f) c = static_cast<char>(c | 0x20);
    folded_.push_back(std::move(f));
  }
  place_windows({});
}

// Any `stride_` consecutive window offsets of a literal catch every occurrence of it: each literal
// takes its block that is rarest in `seen` (the log being read, when adapt() ran) and then in the
// typical noise above. Which block is taken changes only how often a probe verifies in vain.
void Prefilter::place_windows(const std::unordered_map<std::uint32_t, std::uint32_t>& seen) {
  static const std::map<std::uint32_t, int> noise = [] {  // how often each folded window occurs in typical noise
    std::map<std::uint32_t, int> n;
    for (std::size_t i = 0; i + 4 <= kNoise.size(); ++i) n[fold4(kNoise.data() + i)]++;
    return n;
  }();
  auto count = [](const auto& m, std::uint32_t w) -> std::uint64_t {
    auto it = m.find(w);
    return it == m.end() ? 0 : static_cast<std::uint64_t>(it->second);
  };
  windows_.clear();
  bits_.assign((1u << kHashBits) / 64, 0);
  for (std::uint32_t li = 0; li < folded_.size(); ++li) {
    const std::string& f = folded_[li];
    std::size_t best = 0;
    std::pair<std::uint64_t, std::uint64_t> best_cost{UINT64_MAX, UINT64_MAX};
    for (std::size_t o = 0; o + stride_ + 3 <= f.size(); ++o) {
      std::pair<std::uint64_t, std::uint64_t> cost{0, 0};
      for (std::size_t k = 0; k < stride_; ++k) {
        const std::uint32_t w = fold4(f.data() + o + k);
        cost.first += count(seen, w);
        cost.second += count(noise, w);
      }
      if (cost < best_cost) { best_cost = cost; best = o; }
    }
    for (std::size_t k = 0; k < stride_; ++k) {
      std::uint32_t h = hash4(fold4(f.data() + best + k));
      std::uint64_t head = 0, mask = 0;
      std::memcpy(&head, f.data(), std::min<std::size_t>(8, f.size()));
      std::memset(&mask, 0xff, std::min<std::size_t>(8, f.size()));
      windows_.push_back({h, li, static_cast<std::uint32_t>(best + k), head, mask});
      bits_[h >> 6] |= 1ull << (h & 63);
    }
  }
  std::sort(windows_.begin(), windows_.end(), [](const Window& a, const Window& b) { return (a.hash & kIndexMask) < (b.hash & kIndexMask); });
  bucket_start_.assign(kIndexMask + 2, 0);
  for (const auto& w : windows_) bucket_start_[(w.hash & kIndexMask) + 1]++;
  for (std::size_t i = 1; i < bucket_start_.size(); ++i) bucket_start_[i] += bucket_start_[i - 1];
}

void Prefilter::adapt(std::string_view text) {
  if (match_all_) return;
  std::string pieces;
  std::string_view sample = text;
  if (text.size() > kAdaptPieces * kAdaptPiece) {
    for (std::size_t i = 0; i < kAdaptPieces; ++i) {
      pieces.append(text.substr((text.size() - kAdaptPiece) / (kAdaptPieces - 1) * i, kAdaptPiece));
      pieces.push_back('\n');
    }
    sample = pieces;
  }
  if (sample.size() < 4) return;
  // Count, at every offset of the sample, the windows some literal could be probed by.
  std::unordered_map<std::uint32_t, std::uint32_t> seen;
  std::vector<std::uint64_t> any((1u << kHashBits) / 64, 0);
  for (const auto& f : folded_)
    for (std::size_t i = 0; i + 4 <= f.size(); ++i) {
      const std::uint32_t w = fold4(f.data() + i);
      seen.emplace(w, 0);
      const std::uint32_t h = hash4(w);
      any[h >> 6] |= 1ull << (h & 63);
    }
  for (std::size_t i = 0; i + 4 <= sample.size(); ++i) {
    const std::uint32_t w = fold4(sample.data() + i), h = hash4(w);
    if ((any[h >> 6] >> (h & 63)) & 1)
      if (auto it = seen.find(w); it != seen.end()) ++it->second;
  }
  place_windows(seen);
}

std::uint64_t Prefilter::probe_hits(const char* p, const char* end) const {
  std::uint64_t n = 0;
  if (match_all()) return 0;
  for (; p + 4 <= end; p += stride_) {
    const std::uint32_t h = hash4(fold4(p));
    n += (bits_[h >> 6] >> (h & 63)) & 1;
  }
  return n;
}

const char* Prefilter::verify(const char* probe, std::uint32_t h, const char* from, const char* end) const {
  const char* best = nullptr;
  for (std::uint32_t i = bucket_start_[h & kIndexMask]; i < bucket_start_[(h & kIndexMask) + 1]; ++i) {
    const Window& w = windows_[i];
    if (w.hash != h) continue;
    const std::string& lit = folded_[w.literal];
    if (probe - from < static_cast<std::ptrdiff_t>(w.offset)) continue;
    const char* s = probe - w.offset;
    if (static_cast<std::size_t>(end - s) < lit.size()) continue;
    std::size_t k = 0;
    if (end - s >= 8) {
      std::uint64_t v;
      std::memcpy(&v, s, 8);
      if (((v | 0x2020202020202020ull) & w.head_mask) != w.head) continue;
      k = std::min<std::size_t>(8, lit.size());
    }
    while (k < lit.size() && static_cast<char>(s[k] | 0x20) == lit[k]) ++k;
    if (k == lit.size() && (!best || s < best)) best = s;
  }
  return best;
}

// The probe loop with the stride as a constant: offsets become immediates, nothing spills.
template <std::size_t S>
const char* Prefilter::find_stride(const char* p, const char* end) const {
  const char* from = p;
  if (end - p < 4) return end;
  const char* last = end - 4;
  const std::uint64_t* bits = bits_.data();
  auto bit = [bits](const char* q) {
    std::uint32_t h = hash4(fold4(q));
    return bits[h >> 6] >> (h & 63);
  };
  // Eight probes per round, one branch: most rounds test eight zero bits.
  while (p + 7 * S <= last) {
    __builtin_prefetch(p + kPrefetch);
    std::uint64_t any = bit(p) | bit(p + S) | bit(p + 2 * S) | bit(p + 3 * S) | bit(p + 4 * S) | bit(p + 5 * S) |
                        bit(p + 6 * S) | bit(p + 7 * S);
    if (any & 1) {
      for (std::size_t k = 0; k < 8; ++k)
        if (bit(p + k * S) & 1)
          if (const char* hit = verify(p + k * S, hash4(fold4(p + k * S)), from, end)) return hit;
    }
    p += 8 * S;
  }
  for (; p <= last; p += S)
    if (bit(p) & 1)
      if (const char* hit = verify(p, hash4(fold4(p)), from, end)) return hit;
  return end;
}

#if defined(__x86_64__)
// Probes k = 0..7 at p + k*S: two 16-byte loads (p and p + 4S) and one byte shuffle give the eight
// 4-byte windows (3S + 3 < 16, hence S <= 4); they are folded, hashed and their bitmap bits
// gathered together. A set bit is verified in probe order, as the scalar loop does.
template <std::size_t S>
__attribute__((target("avx2"))) const char* Prefilter::find_stride_avx2(const char* from, const char* p, const char* end) const {
  static_assert(S >= 1 && S <= 4);
  const int* bits = reinterpret_cast<const int*>(bits_.data());  // little-endian: bit h of 32-bit word h >> 5
  const __m128i pick = _mm_setr_epi8(0, 1, 2, 3, S, S + 1, S + 2, S + 3, 2 * S, 2 * S + 1, 2 * S + 2, 2 * S + 3,
                                     3 * S, 3 * S + 1, 3 * S + 2, 3 * S + 3);
  const __m256i shuffle = _mm256_broadcastsi128_si256(pick);
  const __m256i fold = _mm256_set1_epi32(0x20202020), mul = _mm256_set1_epi32(static_cast<int>(0x9E3779B1u));
  const __m256i low5 = _mm256_set1_epi32(31), one = _mm256_set1_epi32(1);
  while (end - p >= static_cast<std::ptrdiff_t>(4 * S + 16)) {
    _mm_prefetch(p + kPrefetch, _MM_HINT_T0);  // a hint: past the end it is ignored
    __m256i v = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))),
                                        _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 4 * S)), 1);
    __m256i w = _mm256_or_si256(_mm256_shuffle_epi8(v, shuffle), fold);
    __m256i h = _mm256_srli_epi32(_mm256_mullo_epi32(w, mul), 32 - kHashBits);
    __m256i word = _mm256_i32gather_epi32(bits, _mm256_srli_epi32(h, 5), 4);
    __m256i bit = _mm256_and_si256(_mm256_srlv_epi32(word, _mm256_and_si256(h, low5)), one);
    unsigned mask = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(bit, one))));
    if (mask) {
      alignas(32) std::uint32_t hs[8];
      _mm256_store_si256(reinterpret_cast<__m256i*>(hs), h);
      for (; mask; mask &= mask - 1) {
        unsigned k = static_cast<unsigned>(__builtin_ctz(mask));
        if (const char* hit = verify(p + k * S, hs[k], from, end)) return hit;
      }
    }
    p += 8 * S;
  }
  const char* last = end - 4;
  for (; p <= last; p += S) {
    std::uint32_t hp = hash4(fold4(p));
    if ((bits_[hp >> 6] >> (hp & 63)) & 1)
      if (const char* hit = verify(p, hp, from, end)) return hit;
  }
  return end;
}

// GCC 12 warns inside its own AVX-512 intrinsics (their _mm512_undefined_* operands, GCC bug 105593).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
// The same probes, sixteen per round with AVX-512 (VBMI: one byte permutation of one 64-byte load
// gives the sixteen windows, 15S + 3 < 64; a 16-wide gather costs less than two 8-wide ones).
template <std::size_t S>
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) const char* Prefilter::find_stride_avx512(const char* p, const char* end) const {
  static_assert(S >= 1 && S <= 4);
  const char* from = p;
  const int* bits = reinterpret_cast<const int*>(bits_.data());
  alignas(64) static constexpr std::array<std::uint8_t, 64> idx = [] {  // window k's bytes: k*S .. k*S + 3
    std::array<std::uint8_t, 64> a{};
    for (std::size_t k = 0; k < 16; ++k)
      for (std::size_t j = 0; j < 4; ++j) a[4 * k + j] = static_cast<std::uint8_t>(k * S + j);
    return a;
  }();
  const __m512i pick = _mm512_load_si512(idx.data());
  const __m512i fold = _mm512_set1_epi32(0x20202020), mul = _mm512_set1_epi32(static_cast<int>(0x9E3779B1u));
  const __m512i low5 = _mm512_set1_epi32(31), one = _mm512_set1_epi32(1);
  while (end - p >= 64) {  // the rest (a short line, the end of a window) in the AVX2 loop below
    _mm_prefetch(p + kPrefetch, _MM_HINT_T0);
    __m512i w = _mm512_or_si512(_mm512_permutexvar_epi8(pick, _mm512_loadu_si512(p)), fold);
    __m512i h = _mm512_srli_epi32(_mm512_mullo_epi32(w, mul), 32 - kHashBits);
    __m512i word = _mm512_i32gather_epi32(_mm512_srli_epi32(h, 5), bits, 4);
    unsigned mask = _mm512_test_epi32_mask(_mm512_srlv_epi32(word, _mm512_and_si512(h, low5)), one);
    if (mask) {
      for (; mask; mask &= mask - 1) {
        unsigned k = static_cast<unsigned>(__builtin_ctz(mask));
        if (const char* hit = verify(p + k * S, hash4(fold4(p + k * S)), from, end)) return hit;
      }
    }
    p += 16 * S;
  }
  return find_stride_avx2<S>(from, p, end);
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

static bool has_avx2() {
  static const bool yes = __builtin_cpu_supports("avx2");
  return yes;
}
static bool has_avx512vbmi() {
  static const bool yes = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                          __builtin_cpu_supports("avx512vbmi");
  return yes;
}
#endif

void Prefilter::force_path(Path p) { g_path = p; }

Prefilter::Path Prefilter::forced_path() { return g_path.load(std::memory_order_relaxed); }

const char* Prefilter::path_name() const {
  if (match_all()) return "every line (no prefilter)";
#if defined(__x86_64__)
  const Path f = forced_path();
  if (stride_ <= 4 && f == Path::fastest && has_avx512vbmi()) return "avx512vbmi";
  if (stride_ <= 4 && (f == Path::fastest || f == Path::avx2) && has_avx2()) return "avx2";
#endif
  return "portable";
}

const char* Prefilter::find(const char* p, const char* end) const {
  if (match_all()) return p < end ? p : end;
#if defined(__x86_64__)
  const Path f = forced_path();
  if (stride_ <= 4 && f == Path::fastest && has_avx512vbmi()) {
    switch (stride_) {
      case 1: return find_stride_avx512<1>(p, end);
      case 2: return find_stride_avx512<2>(p, end);
      case 3: return find_stride_avx512<3>(p, end);
      default: return find_stride_avx512<4>(p, end);
    }
  }
  if (stride_ <= 4 && (f == Path::fastest || f == Path::avx2) && has_avx2()) {
    switch (stride_) {
      case 1: return find_stride_avx2<1>(p, p, end);
      case 2: return find_stride_avx2<2>(p, p, end);
      case 3: return find_stride_avx2<3>(p, p, end);
      default: return find_stride_avx2<4>(p, p, end);
    }
  }
#endif
  return find_portable(p, end);
}

const char* Prefilter::find_portable(const char* p, const char* end) const {
  if (match_all()) return p < end ? p : end;
  switch (stride_) {
    case 1: return find_stride<1>(p, end);
    case 2: return find_stride<2>(p, end);
    case 3: return find_stride<3>(p, end);
    case 4: return find_stride<4>(p, end);
    case 5: return find_stride<5>(p, end);
    case 6: return find_stride<6>(p, end);
    case 7: return find_stride<7>(p, end);
    default: return find_stride<8>(p, end);
  }
}

}  // namespace ts::triage
