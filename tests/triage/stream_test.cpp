// Streaming == whole file; gzip, CRLF, ANSI colour, binary junk, long lines; the prefilter never
// drops a line the patterns match; a few hundred MB stream in constant memory.
#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <chrono>
#include <random>

#include "../../bench/triage_loggen.h"
#include "test_util.h"
#include "triage/line.h"
#include "triage/reader.h"

namespace ts::triage::testing {
namespace {

std::string summary(const Diagnosis& d) {
  return "lines=" + std::to_string(d.lines) + " errors=" + std::to_string(d.error_lines) + "\n" + findings_text(d);
}

Diagnosis chunked(std::string_view text, std::size_t chunk) {
  Scanner s(engine());
  for (std::size_t i = 0; i < text.size(); i += chunk) s.feed(text.substr(i, chunk));
  return s.finish();
}

std::string gzip(std::string_view in) {
  z_stream z{};
  deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, in.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

std::filesystem::path temp_file(const std::string& name, std::string_view content) {
  auto p = std::filesystem::temp_directory_path() / ("ts-triage-test-" + std::to_string(getpid()) + "-" + name);
  std::ofstream(p, std::ios::binary).write(content.data(), static_cast<std::streamsize>(content.size()));
  return p;
}

Diagnosis from_file(const std::filesystem::path& p) {
  Scanner s(engine());
  std::string err;
  EXPECT_TRUE(scan_file(p.string(), s, err)) << err;
  return s.finish();
}

std::uint64_t rss_kib() {
  std::ifstream in("/proc/self/status");
  std::string k;
  while (in >> k)
    if (k == "VmRSS:") { std::uint64_t v; in >> v; return v; }
  return 0;
}

TEST(Stream, EveryChunkingGivesTheWholeFileResult) {
  for (const auto& e : std::filesystem::directory_iterator(cases_dir())) {
    std::string text = read_file(e.path());
    std::string whole = summary(diagnose(text));
    for (std::size_t chunk : {1, 2, 3, 17, 64, 4096})
      ASSERT_EQ(summary(chunked(text, chunk)), whole) << e.path() << " chunk " << chunk;
  }
}

TEST(Stream, ThreadsDoNotChangeTheResult) {
  ts::bench::LogGen gen(9);
  std::string log;
  gen.generate(40 << 20, 9, [&](std::string_view b) { log += b; });
  log.insert(log.size() / 3, "\x1b[01;31m\x1b[Kfatal error: \x1b[m\x1b[Kcusparse.h: No such file or directory\n");
  log.insert(log.size() / 2, "Traceback (most recent call last):\n  File \"x.py\", line 1\nKeyError: 'x'\n");
  std::string want;
  for (unsigned threads : {1u, 2u, 3u, 8u}) {
    Scanner s(engine(), true, threads);
    s.feed(log);
    std::string got = summary(s.finish()) + std::to_string(s.matched_lines().size());
    if (threads == 1) want = got;
    else EXPECT_EQ(got, want) << threads << " threads";
  }
}

// A big chunk re-places the prefilter's probes for the log (Scanner::feed, Prefilter::adapt): the same
// findings and matched lines as the engine's probes, on a log with the planted failures among noise.
TEST(Stream, AdaptedProbesDoNotChangeTheResult) {
  ts::bench::LogGen gen(11);
  std::string log;
  gen.generate(16 << 20, 11, [&](std::string_view b) { log += b; });
  log.insert(log.size() / 4, "/usr/include/c++/13/bits/x.h(24): error: namespace \"std\" has no member \"uintptr_t\"\n");
  log.insert(log.size() / 2, "RuntimeError: CUDA error: no kernel image is available for execution on the device\n");
  std::string want;
  for (bool adapt : {false, true}) {
    Scanner::set_adapt_prefilter(adapt);
    Scanner s(engine(), true, 1);
    s.feed(log);
    std::string got = summary(s.finish()) + std::to_string(s.matched_lines().size());
    if (!adapt) want = got;
    else EXPECT_EQ(got, want);
  }
  Scanner::set_adapt_prefilter(true);
  EXPECT_NE(want.find("uintptr_t"), std::string::npos) << want;
}

TEST(Stream, LastLineWithoutNewlineCounts) {
  auto d = diagnose("[1/2] x\nc++: fatal error: Killed signal terminated program cc1plus");
  EXPECT_EQ(root_id(d), "OOM_CC1PLUS_KILLED");
  EXPECT_EQ(d.lines, 2u);
}

TEST(Stream, GzipIsDetectedByMagicAndMembersConcatenate) {
  std::string text = read_file(cases_dir() / "NVCC_HOST_GCC_TOO_NEW.log");
  std::string want = summary(diagnose(text));
  auto p = temp_file("a.log.gz", gzip(text));
  EXPECT_EQ(summary(from_file(p)), want);
  // Two members, as `cat a.gz b.gz` or a rotated log gives.
  auto half = text.size() / 2;
  auto p2 = temp_file("b.gz", gzip(text.substr(0, half)) + gzip(text.substr(half)));
  EXPECT_EQ(summary(from_file(p2)), want);
  // Through a pipe (stdin), any name.
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  std::string gz = gzip(text);
  ASSERT_EQ(write(fds[1], gz.data(), gz.size()), static_cast<ssize_t>(gz.size()));
  close(fds[1]);
  Scanner s(engine());
  std::string err;
  EXPECT_TRUE(scan_fd(fds[0], s, err)) << err;
  close(fds[0]);
  EXPECT_EQ(summary(s.finish()), want);
  std::filesystem::remove(p);
  std::filesystem::remove(p2);
}

TEST(Stream, CorruptGzipAndMissingFileAreErrors) {
  std::string gz = gzip(std::string(100000, 'x'));
  gz.resize(gz.size() / 2);
  gz[gz.size() / 2] ^= 0x55;
  auto p = temp_file("bad.gz", gz);
  Scanner s(engine());
  std::string err;
  EXPECT_FALSE(scan_file(p.string(), s, err));
  EXPECT_NE(err.find("gzip"), std::string::npos) << err;
  Scanner s2(engine());
  EXPECT_FALSE(scan_file("/nonexistent/build.log", s2, err));
  EXPECT_NE(err.find("No such file"), std::string::npos) << err;
  std::filesystem::remove(p);
}

Diagnosis decoded(std::string_view text, std::size_t chunk) {
  Scanner s(engine());
  LogDecoder dec(s);
  for (std::size_t i = 0; i < text.size(); i += chunk) dec.feed(text.substr(i, chunk));
  dec.finish();
  return s.finish();
}

std::string json_string(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c == 0x1b) out += "\\u001b";
    else out += c;
  }
  return out;
}

TEST(Stream, AJsonWrappedLogReadsAsTheLogItself) {
  std::string text = read_file(cases_dir() / "NVCC_HOST_GCC_TOO_NEW.log");
  std::string want = summary(diagnose(text));
  // docker's json-file driver: one object a line.
  std::string lines;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t nl = text.find('\n', at);
    std::string_view l(text.data() + at, (nl == std::string::npos ? text.size() : nl) - at);
    lines += "{\"log\":\"" + json_string(std::string(l) + "\n") + "\",\"stream\":\"stderr\",\"time\":\"2024-05-01T12:34:56Z\"}\n";
    at = nl == std::string::npos ? text.size() : nl + 1;
  }
  // The whole log in one string of an API's document.
  std::string doc = "{\"id\": 7, \"status\": \"failed\", \"output\": \"" + json_string(text) + "\"}\n";
  for (std::size_t chunk : {std::size_t(1), std::size_t(7), std::size_t(1) << 20}) {
    EXPECT_EQ(summary(decoded(lines, chunk)), want) << chunk;
    EXPECT_EQ(summary(decoded(doc, chunk)), want) << chunk;
  }
  // Read from a file the same way.
  auto p = temp_file("docker.json.log", lines);
  EXPECT_EQ(summary(from_file(p)), want);
  std::filesystem::remove(p);
}

TEST(Stream, JsonEscapesAreDecoded) {
  // \" \\ \u001b (colour) and a surrogate pair: the line is the one the program printed.
  Diagnosis d = decoded("{\"log\":\"\\u001b[31mfatal error: C:\\\\src\\\\a.h: \\\"x\\\" \\ud83d\\ude00 No such file or directory\\u001b[0m\\n\"}\n", 5);
  ASSERT_TRUE(d.root());
  ASSERT_FALSE(d.root()->evidence.empty());
  EXPECT_EQ(d.root()->evidence[0].text, "fatal error: C:\\src\\a.h: \"x\" \xF0\x9F\x98\x80 No such file or directory");
}

TEST(Stream, ALogThatOnlyLooksLikeJsonIsReadAsItIs) {
  const std::string err = "c++: fatal error: Killed signal terminated program cc1plus\n";
  // A Python dict printed first, a JSON config without a log key, a brace line: plain text.
  for (std::string head : {std::string("{'log': 'starting'}\n"), std::string("{\"epochs\": 3, \"lr\": \"1e-4\"}\n"),
                           std::string("{\n")}) {
    std::string text = head + std::string(5000, ' ') + "\n" + err;
    EXPECT_EQ(root_id(decoded(text, 1 << 20)), "OOM_CC1PLUS_KILLED") << head;
    EXPECT_EQ(summary(decoded(text, 1 << 20)), summary(diagnose(text))) << head;
  }
  // A structured logger's JSON line, then plain text: the JSON's message, then the text as it is.
  Diagnosis d = decoded("{\"level\":\"info\",\"msg\":\"building\"}\n" + err, 3);
  EXPECT_EQ(root_id(d), "OOM_CC1PLUS_KILLED");
  EXPECT_EQ(d.lines, 2u);
}

TEST(Stream, CrlfGivesTheSameFindings) {
  std::string text = read_file(cases_dir() / "CMAKE4_POLICY_VERSION_MINIMUM.log"), crlf;
  for (char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  EXPECT_EQ(summary(diagnose(crlf)), summary(diagnose(text)));
}

TEST(Stream, AnsiColourIsStripped) {
  // gcc -fdiagnostics-color splits "fatal error:" from the message with escapes.
  auto d = diagnose("FAILED: a.o\n\x1b[01m\x1b[Kc++:\x1b[m\x1b[K \x1b[01;31m\x1b[Kfatal error: \x1b[m\x1b[KKilled signal terminated program cc1plus\n");
  EXPECT_EQ(root_id(d), "OOM_CC1PLUS_KILLED");
  EXPECT_EQ(d.root()->evidence[0].text, "c++: fatal error: Killed signal terminated program cc1plus");
}

TEST(Stream, BinaryJunkAndInvalidUtf8AreJustBytes) {
  std::mt19937 rng(7);
  std::string junk;
  for (int i = 0; i < 200000; ++i) junk += static_cast<char>(rng() & 0xff);
  std::string log = junk + "\nnvcc fatal   : Unsupported gpu architecture 'compute_120'\n\xff\xfe\x80" + junk;
  auto d = diagnose(log);
  EXPECT_TRUE(has_finding(d, "NVCC_UNSUPPORTED_GPU_ARCH"));
  EXPECT_EQ(summary(chunked(log, 777)), summary(d));
}

TEST(Stream, VeryLongLinesAreMatchedOnTheirHead) {
  std::string head = "c++: fatal error: Killed signal terminated program cc1plus ";
  std::string log = "x\n" + head + std::string(5 << 20, 'a') + "\n" + std::string(kLineCap + 10, 'b') + "Killed\nend\n";
  auto d = diagnose(log);
  EXPECT_EQ(root_id(d), "OOM_CC1PLUS_KILLED");
  EXPECT_FALSE(has_finding(d, "OOM_GENERIC_KILLED"));  // beyond the cap: not seen, by definition
  EXPECT_LE(d.root()->evidence[0].text.size(), kEvidenceCap);
  EXPECT_EQ(d.lines, 4u);
  EXPECT_EQ(summary(chunked(log, 65536)), summary(d));
}

// The prefilter is only a shortcut: the matches must equal RE2::Set run on every line.
TEST(Prefilter, NeverDropsAMatchingLine) {
  std::string corpus;
  for (const auto& e : std::filesystem::directory_iterator(cases_dir())) corpus += read_file(e.path());
  std::string upper = corpus;  // case changes and colour inside literals must not hide a line
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  std::string coloured;
  for (char c : corpus) coloured += c == ' ' ? std::string("\x1b[0m \x1b[1m") : std::string(1, c);
  ts::bench::LogGen gen(3);
  std::string noise;
  gen.generate(4 << 20, 30, [&](std::string_view b) { noise += b; });
  for (const std::string* text : {&corpus, &upper, &coloured, &noise}) {
    Scanner s(engine(), true);
    s.feed(*text);
    s.finish();
    std::vector<std::uint64_t> brute;
    std::uint64_t line = 0;
    std::string buf;
    std::vector<int> hits;
    for (std::size_t at = 0; at < text->size();) {
      std::size_t nl = text->find('\n', at);
      if (nl == std::string::npos) nl = text->size();
      ++line;
      std::string_view clean = sanitize_line(std::string_view(*text).substr(at, nl - at), buf);
      hits.clear();
      engine().regex_set().Match(re2::StringPiece(clean.data(), clean.size()), &hits);
      for (int h : hits)
        if (engine().ref(h).kind == PatternRef::signature) { brute.push_back(line); break; }
      at = nl + 1;
    }
    EXPECT_EQ(s.matched_lines(), brute);
    if (text != &upper) { EXPECT_FALSE(brute.empty()); }  // patterns are case-sensitive
  }
}

TEST(BigLog, StreamsInConstantMemory) {
  const std::uint64_t size = 300ull << 20;
  ts::bench::LogGen gen(11);
  Scanner s(engine());
  std::uint64_t before = 0, peak = 0, fed = 0;
  gen.generate(size, 12, [&](std::string_view b) {
    s.feed(b);
    fed += b.size();
    if (fed > (16u << 20) && !before) before = rss_kib();  // after warm-up
    peak = std::max(peak, rss_kib());
  });
  auto d = s.finish();
  EXPECT_EQ(root_id(d), "OOM_CC1PLUS_KILLED");
  EXPECT_GT(d.lines, 1000000u);
  EXPECT_LT(peak - before, 16u * 1024) << "RSS grew " << (peak - before) << " KiB while streaming 300 MB";
}

TEST(BigLog, FileReadingStaysBounded) {
  auto p = std::filesystem::temp_directory_path() / ("ts-triage-big-" + std::to_string(getpid()) + ".log");
  {
    std::ofstream out(p, std::ios::binary);
    ts::bench::LogGen gen(5);
    gen.generate(200ull << 20, 6, [&](std::string_view b) { out.write(b.data(), static_cast<std::streamsize>(b.size())); });
  }
  std::uint64_t before = rss_kib();
  auto d = from_file(p);
  std::uint64_t after = rss_kib();
  std::filesystem::remove(p);
  EXPECT_EQ(root_id(d), "OOM_CC1PLUS_KILLED");
  EXPECT_LT(after - std::min(after, before), 80u * 1024) << "mapped slices must be released";
}

}  // namespace
}  // namespace ts::triage::testing

namespace ts::triage::testing {
namespace {

// A coloured log (an ESC on every line) with the patterns' literals far apart: each ESC line used
// to search on to the next literal again, so 20 MB took a minute. Linear, it takes well under a
// second; the bound leaves a loaded CI machine 20x room.
TEST(Stream, ColouredLinesAreLinear) {
  std::string text;
  for (std::uint64_t k = 0; text.size() < (20u << 20); ++k)
    text += "\x1b[1m/src/m.cpp:" + std::to_string(k % 1000) + ":7: \x1b[0m\x1b[0;1;35mwarning: \x1b[0munused 'v" +
            std::to_string(k) + "'\x1b[0m\n";
  text += "collect2: error: ld returned 1 exit status\n";
  const auto a = std::chrono::steady_clock::now();
  Scanner s(engine(), true, 1);
  s.feed(text);
  auto d = s.finish();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count();
  EXPECT_LT(secs, 15.0);
  EXPECT_GT(d.lines, 100000u);
}

}  // namespace
}  // namespace ts::triage::testing
