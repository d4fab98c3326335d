// bench/triage_real: top-1 root-cause accuracy of triage on real failure logs from public issue
// threads (tests/triage/real/). Each case is read the way `torchsmith diagnose` reads a log (the
// built-in signatures, the file scanned by scan_file, the ranking), and its root cause compared with
// the case's `expected` ("NO_ERROR": the diagnosis must say there is no failure). Every file's
// SHA-256 is checked against MANIFEST.tsv first: the split is frozen, so a changed case is an error.
// Prints the dev and heldout scores; misses are listed for dev only (held-out results stay aggregate).
// Cases added after the first freeze follow a `# batch: N` line in the manifest; each part's score
// is also printed per batch (totals only), so the first held-out batch stays comparable over time.
// Usage: bench_triage_real [CORPUS_DIR] [--floors FILE] [--part dev|heldout] [--batch N]
//   --floors: exit 1 when a score is below its floor (tests/triage/real/floors.toml: dev = N, heldout = N).
//   --part: read and score one part only (tune with --part dev: the held-out files are then not even opened).
//   --batch: read and score one batch only (a new batch's "before" and "after"); floors are totals, so not with --floors.
//   --frames: (dev only) read every dev case again in each framing a real log arrives in (a CI runner's
//     timestamps, a container's or a collector's prefixes, colour, CRLF, a Markdown quote or fence, a
//     console's hard wrap, JSON) and print, per frame, how many top-1 answers stay those of the plain log;
//     with --floors, exit 1 when a frame's count is below its `frame.NAME = N` floor.
// Every dev case must also get an answer (issue 18 item 3): a root cause, or "unrecognised" with
// the first real error line; a case without one is listed as "no-answer" and fails the run.
#include <cctype>
#include <chrono>
#include <cstdio>
#include <functional>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "triage/engine.h"
#include "triage/reader.h"
#include "triage/scanner.h"
#include "triage/specialize.h"
#include "util/sha256.h"

namespace {

bool read_file(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

std::string sha256_hex(const std::string& s) {
  ts::util::Sha256 h;
  h.update(s.data(), s.size());
  return ts::util::hex(h.digest());
}

// `key = "value"` or `key = 123` on a line of its own (the corpus and floors files are that simple).
std::string toml_value(const std::string& text, const std::string& key) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::size_t k = line.find_first_not_of(" \t");
    if (k == std::string::npos || line.compare(k, key.size(), key) != 0) continue;
    std::size_t eq = line.find_first_not_of(" \t", k + key.size());
    if (eq == std::string::npos || line[eq] != '=') continue;
    std::size_t v = line.find_first_not_of(" \t", eq + 1);
    if (v == std::string::npos) return "";
    if (line[v] == '"') {
      std::size_t end = line.find('"', v + 1);
      return end == std::string::npos ? "" : line.substr(v + 1, end - v - 1);
    }
    std::size_t end = line.find_first_of(" \t#", v);
    return line.substr(v, end == std::string::npos ? std::string::npos : end - v);
  }
  return "";
}

struct Score { int hit = 0, total = 0; };

// ---- framings (--frames) ----------------------------------------------------------------------
// Each takes the plain log and returns it the way one real channel delivers it. Only the frame is
// added: no line of the log's own is changed, except where the channel itself changes it (a JSON
// string's escapes, a console's hard wrap, a tab expanded).

// Applies f to every line (without its '\n'); a last line without '\n' stays without one.
std::string per_line(const std::string& log, const std::function<std::string(std::string_view)>& f,
                     const char* eol = "\n") {
  std::string out;
  out.reserve(log.size() * 2);
  std::size_t i = 0;
  while (i < log.size()) {
    std::size_t nl = log.find('\n', i);
    std::string_view line(log.data() + i, (nl == std::string::npos ? log.size() : nl) - i);
    out += f(line);
    if (nl == std::string::npos) break;
    out += eol;
    i = nl + 1;
  }
  return out;
}

// The keywords a compiler or a logger colours, wrapped in SGR codes the way gcc and rich print them.
std::string colour(std::string_view line) {
  std::string out = "\x1b[0m";
  for (std::size_t i = 0; i < line.size();) {
    bool hit = false;
    for (std::string_view w : {std::string_view("error"), std::string_view("Error"), std::string_view("ERROR"),
                               std::string_view("warning"), std::string_view("fatal")})
      if (line.substr(i, w.size()) == w) {
        out += "\x1b[01;31m\x1b[K";
        out += w;
        out += "\x1b[m\x1b[K";
        i += w.size();
        hit = true;
        break;
      }
    if (!hit) out += line[i++];
  }
  return out;
}

// A console's hard wrap at `width` bytes (never inside a UTF-8 sequence).
std::string hard_wrap(std::string_view line, std::size_t width) {
  std::string out;
  while (line.size() > width) {
    std::size_t cut = width;
    while (cut > 1 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;
    out.append(line.substr(0, cut));
    out += '\n';
    line.remove_prefix(cut);
  }
  out.append(line);
  return out;
}

std::string json_escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '"') out += "\\\"";
    else if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (u < 0x20) { char b[8]; std::snprintf(b, sizeof b, "\\u%04x", u); out += b; }
    else out += c;
  }
  return out;
}

// POSIX absolute paths ("/home/u/x.py", "/usr/include/a.h") as Windows writes them ("C:\home\u\x.py").
std::string windows_paths(std::string_view line) {
  std::string out;
  for (std::size_t i = 0; i < line.size(); ++i) {
    bool start = line[i] == '/' && i + 1 < line.size() && std::isalpha(static_cast<unsigned char>(line[i + 1])) &&
                 (i == 0 || line[i - 1] == ' ' || line[i - 1] == '"' || line[i - 1] == '\'' || line[i - 1] == '(' ||
                  line[i - 1] == '=');
    std::size_t end = i;
    if (start) {
      end = i;
      while (end < line.size() && line[end] != ' ' && line[end] != '"' && line[end] != '\'' && line[end] != ':' &&
             line[end] != ')' && line[end] != ',')
        ++end;
      if (line.substr(i + 1, end - i - 1).find('/') == std::string_view::npos) start = false;
    }
    if (!start) { out += line[i]; continue; }
    out += "C:";
    for (std::size_t k = i; k < end; ++k) out += line[k] == '/' ? '\\' : line[k];
    i = end - 1;
  }
  return out;
}

struct Frame {
  const char* name;
  std::function<std::string(const std::string& log)> apply;
  bool windows_only = false;  // applied to the cases whose domain is Windows
};

std::vector<Frame> frames() {
  return {
      {"gha", [](const std::string& l) { return per_line(l, [](std::string_view s) { return "2024-05-01T12:34:56.7890123Z " + std::string(s); }); }},
      {"gitlab-ts", [](const std::string& l) { return per_line(l, [](std::string_view s) { return "2024-05-01T12:34:56.789012Z 01E " + std::string(s); }); }},
      {"gitlab-section", [](const std::string& l) {
         return "section_start:1714566896:step_script\r\x1b[0K\x1b[0K\x1b[36;1mExecuting \"step_script\" stage of the job script\x1b[0;m\n" + l +
                (l.empty() || l.back() == '\n' ? "" : "\n") + "section_end:1714566999:step_script\r\x1b[0K\n"; }},
      {"jenkins", [](const std::string& l) { return per_line(l, [](std::string_view s) { return "[2024-05-01T12:34:56.789Z] " + std::string(s); }); }},
      {"buildkit", [](const std::string& l) {
         return "#12 [builder 5/9] RUN pip install --no-build-isolation .\n" +
                per_line(l, [](std::string_view s) { return "#12 13.57 " + std::string(s); }); }},
      {"docker-step", [](const std::string& l) { return "Step 5/9 : RUN pip install --no-build-isolation .\n ---> Running in 3f2a1b9c8d7e\n" + l; }},
      {"kubectl-prefix", [](const std::string& l) { return per_line(l, [](std::string_view s) { return "[pod/trainer-7d9f4-x2k/main] " + std::string(s); }); }},
      {"kubectl-ts", [](const std::string& l) { return per_line(l, [](std::string_view s) { return "2024-05-01T12:34:56.789012345Z " + std::string(s); }); }},
      {"journalctl", [](const std::string& l) { return per_line(l, [](std::string_view s) { return "May 01 12:34:56 gpu-node python3[4242]: " + std::string(s); }); }},
      {"ansi", [](const std::string& l) { return per_line(l, colour); }},
      {"crlf", [](const std::string& l) { return per_line(l, [](std::string_view s) { return std::string(s); }, "\r\n"); }},
      {"detab", [](const std::string& l) {
         return per_line(l, [](std::string_view s) {
           std::string o;
           for (char c : s)
             if (c == '\t') o.append(8 - o.size() % 8, ' ');
             else o += c;
           return o; }); }},
      {"entab", [](const std::string& l) {
         return per_line(l, [](std::string_view s) {
           std::string o;
           while (s.substr(0, 8) == "        ") { o += '\t'; s.remove_prefix(8); }
           return o + std::string(s); }); }},
      {"md-quote", [](const std::string& l) { return per_line(l, [](std::string_view s) { return s.empty() ? std::string(">") : "> " + std::string(s); }); }},
      {"md-fence", [](const std::string& l) { return "```console\n" + l + (l.empty() || l.back() == '\n' ? "" : "\n") + "```\n"; }},
      {"md-indent", [](const std::string& l) { return per_line(l, [](std::string_view s) { return s.empty() ? std::string() : "    " + std::string(s); }); }},
      {"wrap120", [](const std::string& l) { return per_line(l, [](std::string_view s) { return hard_wrap(s, 120); }); }},
      {"wrap80", [](const std::string& l) { return per_line(l, [](std::string_view s) { return hard_wrap(s, 80); }); }},
      {"docker-json", [](const std::string& l) {
         return per_line(l, [](std::string_view s) {
           return "{\"log\":\"" + json_escape(std::string(s) + "\n") + "\",\"stream\":\"stderr\",\"time\":\"2024-05-01T12:34:56.789012345Z\"}"; }); }},
      {"json-string", [](const std::string& l) { return "{\"status\": \"failed\", \"log\": \"" + json_escape(l) + "\"}\n"; }},
      {"winpath", [](const std::string& l) { return per_line(l, windows_paths); }, true},
  };
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = std::string(TS_SOURCE_DIR) + "/tests/triage/real";
  std::string floors_path, part, only_batch;
  bool frames_mode = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--floors" && i + 1 < argc) floors_path = argv[++i];
    else if (a == "--part" && i + 1 < argc && (std::string(argv[i + 1]) == "dev" || std::string(argv[i + 1]) == "heldout")) part = argv[++i];
    else if (a == "--batch" && i + 1 < argc && argv[i + 1][0] != '-') only_batch = argv[++i];
    else if (a == "--frames") frames_mode = true;
    else if (!a.empty() && a[0] != '-') dir = a;
    else { std::fprintf(stderr, "usage: bench_triage_real [CORPUS_DIR] [--floors FILE] [--part dev|heldout] [--batch N] [--frames]\n"); return 2; }
  }
  if (frames_mode) {
    // The framings are tuned against: the held-out files are never opened for them.
    if (part == "heldout") { std::fprintf(stderr, "bench_triage_real: --frames reads dev cases only; use --part dev\n"); return 2; }
    part = "dev";
  }
  if (!only_batch.empty() && !floors_path.empty()) {
    std::fprintf(stderr, "bench_triage_real: --floors applies to the whole corpus; drop --batch to check floors\n");
    return 2;
  }

  std::vector<std::string> errors;
  ts::triage::SignatureSet set = ts::triage::load_signatures({}, errors);
  for (const auto& e : errors) std::fprintf(stderr, "signatures: %s\n", e.c_str());
  if (!errors.empty()) return 2;
  ts::triage::Engine engine(std::move(set));

  std::ifstream manifest(dir + "/MANIFEST.tsv");
  if (!manifest) { std::fprintf(stderr, "%s/MANIFEST.tsv: cannot open\n", dir.c_str()); return 2; }
  std::map<std::string, Score> score;
  std::map<std::string, std::map<std::string, Score>> by_batch;  // split -> batch -> score
  std::string batch = "1";
  std::vector<std::string> misses, unanswered;
  struct DevCase { std::string id, log, expected, plain; bool windows; };
  std::vector<DevCase> dev_cases;  // --frames
  int bad = 0;
  std::string line;
  while (std::getline(manifest, line)) {
    if (line.rfind("# batch:", 0) == 0) {
      std::istringstream b(line.substr(8));
      b >> batch;
      continue;
    }
    if (line.empty() || line[0] == '#') continue;
    std::istringstream f(line);
    std::string id, split, log_sha, toml_sha;
    f >> id >> split >> log_sha >> toml_sha;
    if (!part.empty() && split != part) continue;
    if (!only_batch.empty() && batch != only_batch) continue;
    std::string log_path = dir + "/cases/" + id + ".log", toml_path = dir + "/cases/" + id + ".toml";
    std::string log, toml;
    if (!read_file(log_path, log) || !read_file(toml_path, toml)) {
      std::fprintf(stderr, "%s: case files missing\n", id.c_str());
      ++bad;
      continue;
    }
    if (sha256_hex(log) != log_sha || sha256_hex(toml) != toml_sha) {
      std::fprintf(stderr, "%s: file hash differs from MANIFEST.tsv (the split is frozen; see README.md)\n", id.c_str());
      ++bad;
      continue;
    }
    std::string expected = toml_value(toml, "expected");
    ts::triage::Scanner scanner(engine, false, 1);
    std::string err;
    std::string got;
    if (!ts::triage::scan_file(log_path, scanner, err)) {
      got = "(read error: " + err + ")";
    } else {
      ts::triage::Diagnosis d = scanner.finish();
      ts::triage::specialize(d, nullptr, nullptr);
      // NO_ERROR: the diagnosis says the log shows no error (a warning may still be noted).
      if (expected == "NO_ERROR") got = d.failed() ? d.root()->id : "NO_ERROR";
      else got = d.root() ? d.root()->id : "NO_ERROR";
      // An error case must get an answer: a known cause, or "unrecognised" quoting an error line. A case
      // whose excerpt quotes no failure line (`excerpt = "no failure line"`, read by its collector) still
      // scores as a miss, but "no error found" is the true reading of its log.
      if (expected != "NO_ERROR" && split == "dev" && toml_value(toml, "excerpt") != "no failure line" &&
          (!d.root() || (!d.root()->sig && d.root()->evidence.empty())))
        unanswered.push_back(id);
    }
    if (frames_mode) dev_cases.push_back({id, log, expected, got, toml_value(toml, "domain") == "Windows"});
    Score& s = score[split];
    Score& sb = by_batch[split][batch];
    ++s.total;
    ++sb.total;
    // A signature merged from the expected id (its `formerly`) gives the same answer.
    const ts::triage::Signature* got_sig = engine.set().find(got);
    if (got == expected || (got_sig && ts::triage::answers(*got_sig, expected))) {
      ++s.hit;
      ++sb.hit;
    } else if (split == "dev") {
      misses.push_back(id + "\texpected " + expected + "\tgot " + got);
    }
  }
  if (bad) { std::fprintf(stderr, "%d case(s) do not match the manifest\n", bad); return 2; }
  if (!only_batch.empty() && score.empty()) {
    std::fprintf(stderr, "bench_triage_real: no case of batch %s%s%s in the manifest\n", only_batch.c_str(),
                 part.empty() ? "" : " in part ", part.c_str());
    return 2;
  }

  for (const auto& m : misses) std::printf("miss\t%s\n", m.c_str());
  for (const auto& u : unanswered) std::printf("no-answer\t%s\n", u.c_str());
  for (const char* split : {"dev", "heldout"}) {
    if (!part.empty() && part != split) continue;
    const Score& s = score[split];
    std::printf("%s: %d/%d = %.1f%%\n", split, s.hit, s.total, s.total ? 100.0 * s.hit / s.total : 0.0);
    if (by_batch[split].size() > 1)
      for (const auto& [b, bs] : by_batch[split])
        std::printf("%s batch %s: %d/%d = %.1f%%\n", split, b.c_str(), bs.hit, bs.total, bs.total ? 100.0 * bs.hit / bs.total : 0.0);
  }
  std::map<std::string, int> frame_same;
  if (frames_mode) {
    // The top-1 answer of a text, read as scan_file reads a mapped file (the reader's decoder, fed whole).
    auto answer = [&](const std::string& text, const std::string& expected) {
      ts::triage::Scanner scanner(engine, false, 1);
      ts::triage::LogDecoder decoder(scanner);
      decoder.feed(text);
      decoder.finish();
      ts::triage::Diagnosis d = scanner.finish();
      ts::triage::specialize(d, nullptr, nullptr);
      if (expected == "NO_ERROR") return d.failed() ? d.root()->id : std::string("NO_ERROR");
      return d.root() ? d.root()->id : std::string("NO_ERROR");
    };
    auto right = [&](const std::string& got, const std::string& expected) {
      const ts::triage::Signature* g = engine.set().find(got);
      return got == expected || (g && ts::triage::answers(*g, expected));
    };
    std::printf("frame\tsame top-1 as plain\tright\tms\n");
    for (const Frame& fr : frames()) {
      auto t0 = std::chrono::steady_clock::now();
      int same = 0, hit = 0, total = 0;
      for (const DevCase& c : dev_cases) {
        if (fr.windows_only && !c.windows) continue;
        std::string got = answer(fr.apply(c.log), c.expected);
        ++total;
        if (got == c.plain) ++same;
        else std::printf("frame-diff\t%s\t%s\tplain %s\tframed %s\n", fr.name, c.id.c_str(), c.plain.c_str(), got.c_str());
        hit += right(got, c.expected);
      }
      frame_same[fr.name] = same;
      auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
      std::printf("frame %-15s %4d/%-4d = %5.1f%%\tright %d\t%lld ms\n", fr.name, same, total, total ? 100.0 * same / total : 0.0,
                  hit, static_cast<long long>(ms));
    }
  }
  if (floors_path.empty()) return unanswered.empty() ? 0 : 1;
  std::string floors;
  if (!read_file(floors_path, floors)) { std::fprintf(stderr, "%s: cannot open\n", floors_path.c_str()); return 2; }
  int rc = unanswered.empty() ? 0 : 1;
  for (const char* split : {"dev", "heldout"}) {
    if (!part.empty() && part != split) continue;
    std::string v = toml_value(floors, split);
    if (v.empty()) { std::fprintf(stderr, "%s: no '%s = N' floor\n", floors_path.c_str(), split); return 2; }
    int floor = std::stoi(v);
    if (score[split].hit < floor) {
      std::printf("FAIL %s: %d cases right, below the floor of %d (%s)\n", split, score[split].hit, floor, floors_path.c_str());
      rc = 1;
    }
  }
  for (const auto& [name, same] : frame_same) {
    std::string v = toml_value(floors, "frame." + name);
    if (v.empty()) { std::fprintf(stderr, "%s: no 'frame.%s = N' floor\n", floors_path.c_str(), name.c_str()); return 2; }
    if (same < std::stoi(v)) {
      std::printf("FAIL frame %s: %d answers as the plain log's, below the floor of %s\n", name.c_str(), same, v.c_str());
      rc = 1;
    }
  }
  return rc;
}
