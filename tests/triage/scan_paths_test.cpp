// The prefilter's loops change how fast lines are skipped, never what is found: the scanner run
// with the fastest loop this CPU has (AVX-512), the AVX2 one, the portable one, and with no
// prefilter at all (every line through the regexes) reports the same matching lines, findings,
// evidence and facts on the real-log corpus (development part), the signature cases and
// bench/triage's synthetic logs.
#include <fstream>
#include <map>
#include <sstream>

#include "../../bench/triage_loggen.h"
#include "test_util.h"

namespace ts::triage::testing {
namespace {

// Puts the process-wide path back however a test ends.
struct PathGuard {
  ~PathGuard() { Prefilter::force_path(Prefilter::Path::fastest); }
};

// Everything a scan reports, in one comparable string.
std::string scan(std::string_view text, Prefilter::Path path, unsigned threads, std::size_t chunk) {
  PathGuard guard;
  Prefilter::force_path(path);
  Scanner s(engine(), true, threads);
  for (std::size_t i = 0; i < text.size(); i += chunk) s.feed(text.substr(i, chunk));
  const Diagnosis d = s.finish();
  std::string out = "lines=" + std::to_string(d.lines) + " errors=" + std::to_string(d.error_lines) + " root=" + root_id(d) +
                    " facts=" + d.log_facts.cuda_version + "|" + d.log_facts.cxx_compiler + "|" + d.log_facts.arch_list + "\nmatched:";
  for (auto l : s.matched_lines()) out += " " + std::to_string(l);
  out += "\n" + findings_text(d);
  return out;
}

void expect_same_on_every_path(const std::string& name, std::string_view text, unsigned threads = 1,
                               std::size_t chunk = SIZE_MAX) {
  const std::string fastest = scan(text, Prefilter::Path::fastest, threads, chunk);
  EXPECT_EQ(fastest, scan(text, Prefilter::Path::avx2, threads, chunk)) << name << ": fastest loop vs AVX2";
  EXPECT_EQ(fastest, scan(text, Prefilter::Path::portable, threads, chunk)) << name << ": fastest loop vs portable";
  EXPECT_EQ(fastest, scan(text, Prefilter::Path::every_line, threads, chunk)) << name << ": prefilter vs every line";
}

TEST(ScanPaths, RealCorpusDevelopmentPart) {
  const auto dir = std::filesystem::path(TS_SOURCE_DIR) / "tests/triage/real";
  std::ifstream manifest(dir / "MANIFEST.tsv");
  ASSERT_TRUE(manifest) << "no " << (dir / "MANIFEST.tsv");
  std::string line;
  std::size_t n = 0, with_match = 0;
  while (std::getline(manifest, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream cols(line);
    std::string id, split;
    cols >> id >> split;
    if (split != "dev") continue;
    const std::string text = read_file(dir / "cases" / (id + ".log"));
    ASSERT_FALSE(text.empty()) << id;
    expect_same_on_every_path(id, text);
    with_match += scan(text, Prefilter::Path::fastest, 1, SIZE_MAX).find("matched: ") != std::string::npos;
    ++n;
  }
  EXPECT_GE(n, 200u) << "the development part has shrunk";
  EXPECT_GT(with_match, n / 2) << "most real logs match some signature: the comparison must see matches";
}

TEST(ScanPaths, SignatureCases) {
  std::size_t n = 0;
  for (const auto& e : std::filesystem::directory_iterator(cases_dir()))
    if (e.path().extension() == ".log") {
      expect_same_on_every_path(e.path().filename().string(), read_file(e.path()));
      ++n;
    }
  EXPECT_GE(n, 200u);
}

// bench/triage's generated build log (8 MB, failures planted), whole, in odd chunks, on two
// threads (parts of 4 MB are found by a worker), coloured, and random bytes.
TEST(ScanPaths, SyntheticLogs) {
  std::string log;
  ts::bench::LogGen(7).generate(8 << 20, 12, [&](std::string_view b) { log += b; });
  const std::string whole = scan(log, Prefilter::Path::fastest, 1, SIZE_MAX);
  EXPECT_NE(whole.find("matched: "), std::string::npos) << "the planted failures must match";
  expect_same_on_every_path("generated log", log);
  expect_same_on_every_path("generated log in 65521-byte chunks", log, 1, 65521);
  expect_same_on_every_path("generated log, 2 threads", log, 2);

  std::string coloured;
  std::istringstream in(log.substr(0, 2 << 20));
  for (std::string l; std::getline(in, l);) coloured += "\x1b[1m" + l.substr(0, l.size() / 2) + "\x1b[0m" + l.substr(l.size() / 2) + "\n";
  expect_same_on_every_path("coloured log", coloured);

  std::string noise(1 << 20, '\0');
  std::uint64_t x = 88172645463325252ull;
  for (char& c : noise) {
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    c = static_cast<char>(x >> 56);
  }
  expect_same_on_every_path("random bytes", noise);
}

}  // namespace
}  // namespace ts::triage::testing
