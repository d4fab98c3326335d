// The literal prefilter: the AVX-512 and AVX2 probe loops (where the CPU has them) and the portable
// one give the same answer, and the answer is a real literal occurrence no later than the first
// one (a line is never skipped).
#include <algorithm>
#include <cctype>
#include <random>

#include "../bench/triage_loggen.h"
#include "test_util.h"
#include "triage/prefilter.h"

namespace ts::triage::testing {
namespace {

bool occurs_at(const Prefilter& pf, const std::string& text, std::size_t at, std::size_t& len) {
  for (const auto& l : pf.literals()) {
    if (at + l.size() > text.size()) continue;
    std::size_t k = 0;
    while (k < l.size() && std::tolower(static_cast<unsigned char>(text[at + k])) == static_cast<unsigned char>(l[k])) ++k;
    if (k == l.size()) { len = l.size(); return true; }
  }
  return false;
}

// Text with the literals planted at random offsets, in random case, among log noise and bytes.
std::string planted_text(const Prefilter& pf, std::uint32_t seed) {
  std::mt19937 rng(seed);
  ts::bench::LogGen gen(seed);
  std::string text;
  gen.generate(1 << 14, 3, [&](std::string_view b) { text += b; });
  text.resize(1 << 15);  // the generator writes whole 1 MiB blocks
  for (int i = 0; i < 60; ++i) {
    std::string lit = pf.literals()[rng() % pf.literals().size()];
    for (char& c : lit)
      if (rng() % 2) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    text.insert(rng() % text.size(), lit);
    if (i % 8 == 0) text.insert(rng() % text.size(), 1, static_cast<char>(rng() % 256));
  }
  return text;
}

void expect_finds_every_occurrence(const Prefilter& pf);

// The scan's speed rests on every pattern having a literal of 6+ bytes (stride = shortest - 3): a
// signature whose only literal is a short word would halve bench/triage's one-thread figure.
TEST(Prefilter, ShippedSignaturesKeepEveryPatternOnALiteralOfSixBytes) {
  const Prefilter& pf = engine().prefilter();
  ASSERT_FALSE(pf.match_all()) << "a pattern has no literal at all: every line would go to the regexes";
  std::string short_ones;
  for (const auto& l : pf.literals())
    if (l.size() < 6) short_ones += " '" + l + "'";
  EXPECT_GE(pf.stride(), 3u) << "literals shorter than 6 bytes (give their patterns a longer necessary literal):" << short_ones;
}

TEST(Prefilter, AvxAndPortableProbesAgreeAndNeverPassAnOccurrence) {
  expect_finds_every_occurrence(engine().prefilter());
}

// Probes re-placed for a log (adapt) find exactly what the engine's find, on text the sample did
// not come from, and verify less often on text like the sample.
TEST(Prefilter, AdaptedProbesFindTheSameAndVerifyLessOnTextLikeTheSample) {
  const Prefilter& base = engine().prefilter();
  // Noise full of words that literals are made of: probes placed on them verify on every line.
  std::string noise;
  for (int i = 0; i < 4000; ++i)
    noise += "[" + std::to_string(i) + "/4000] error: return value of container check in c10d; cuda " +
             "nccl not found failed assert select enabled (unless) is not defined\n";
  Prefilter adapted = base;
  adapted.adapt(std::string_view(noise).substr(0, noise.size() / 2));
  const char* b = noise.data();
  const char* e = b + noise.size();
  const auto before = base.probe_hits(b, e), after = adapted.probe_hits(b, e);
  EXPECT_LT(after, before * 3 / 4) << "adapting to the text should avoid most of its windows";
  EXPECT_EQ(adapted.literals(), base.literals());
  EXPECT_EQ(adapted.stride(), base.stride());
  auto line_of = [&](const char* at) { return at == e ? std::string::npos : noise.rfind('\n', static_cast<std::size_t>(at - b)); };
  for (std::size_t from = 0; from < noise.size(); from += 97)  // the same line (the offset in it may differ)
    ASSERT_EQ(line_of(adapted.find(b + from, e)), line_of(base.find(b + from, e))) << from;
  expect_finds_every_occurrence(adapted);  // planted literals in other text: none passed
}

void expect_finds_every_occurrence(const Prefilter& pf) {
  ASSERT_FALSE(pf.match_all());
  ASSERT_FALSE(pf.literals().empty());
  for (std::uint32_t seed : {1u, 2u, 3u}) {
    const std::string text = planted_text(pf, seed);
    const char* b = text.data();
    const char* e = b + text.size();
    std::size_t first = text.size(), len = 0;  // the naive first occurrence at or after `from`
    std::size_t checked = 0;
    for (std::size_t from = text.size(); from-- > 0;) {
      std::size_t l = 0;
      if (occurs_at(pf, text, from, l)) { first = from; len = l; }
      if (from % 7 != 0) continue;  // every 7th start: enough positions, bounded time
      const char* got = pf.find(b + from, e);
      ASSERT_EQ(got, pf.find_portable(b + from, e)) << "seed " << seed << " from " << from << " (" << pf.path_name() << ")";
      {
        Prefilter::force_path(Prefilter::Path::avx2);  // the AVX2 loop, also on CPUs with AVX-512
        const char* avx2 = pf.find(b + from, e);
        Prefilter::force_path(Prefilter::Path::fastest);
        ASSERT_EQ(got, avx2) << "seed " << seed << " from " << from << ": the AVX2 loop differs";
      }
      if (first == text.size()) {
        EXPECT_EQ(got, e) << "from " << from;
      } else {
        std::size_t at = static_cast<std::size_t>(got - b), l2 = 0;
        ASSERT_LT(at, text.size()) << "an occurrence at " << first << " was missed";
        EXPECT_TRUE(occurs_at(pf, text, at, l2)) << "not a literal at " << at;
        EXPECT_GE(at, from);
        EXPECT_LT(at, first + len) << "the occurrence at " << first << " was passed";
      }
      ++checked;
    }
    EXPECT_GT(checked, 2000u);
  }
}

}  // namespace
}  // namespace ts::triage::testing
