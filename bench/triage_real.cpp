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
// Every dev case must also get an answer (issue 18 item 3): a root cause, or "unrecognised" with
// the first real error line; a case without one is listed as "no-answer" and fails the run.
#include <cstdio>
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

}  // namespace

int main(int argc, char** argv) {
  std::string dir = std::string(TS_SOURCE_DIR) + "/tests/triage/real";
  std::string floors_path, part, only_batch;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--floors" && i + 1 < argc) floors_path = argv[++i];
    else if (a == "--part" && i + 1 < argc && (std::string(argv[i + 1]) == "dev" || std::string(argv[i + 1]) == "heldout")) part = argv[++i];
    else if (a == "--batch" && i + 1 < argc && argv[i + 1][0] != '-') only_batch = argv[++i];
    else if (!a.empty() && a[0] != '-') dir = a;
    else { std::fprintf(stderr, "usage: bench_triage_real [CORPUS_DIR] [--floors FILE] [--part dev|heldout] [--batch N]\n"); return 2; }
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
  return rc;
}
