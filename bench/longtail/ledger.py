#!/usr/bin/env python3
"""The long-tail corpus' ledger: each package's latest outcome on the GPU machine (ledger.tsv here).

  ledger.py                                  verified of total, per split and batch
  ledger.py --merge RESULTS [--summary SUMMARY] [--commit C]
                                             merge a run_device.sh results.tsv (the latest run wins)
  ledger.py --failing [--split dev] [--batch N]
                                             the packages whose latest GPU outcome is not verified

ledger.tsv has one row per package of corpus.toml and tool: name, batch, split, tool, outcome, date,
commit, seconds, source, note. outcome is run_device.sh's (verified, built-needs-deps,
built-not-verified, failed, timeout), or never-run (no GPU run of it is recorded), unknown (a run the
docs give only as a total the package cannot be placed in; see note) or unavailable (corpus.toml's:
counted in no total). A package corpus.toml lists and the ledger lacks is added as never-run.

--merge takes the run's date from summary.txt's first line and requires its `# gpu:` line to name a
GPU (a CPU run is no GPU outcome). The commit is the binary's (`torchsmith --version` in that line, as
run_device.sh writes it since the ledger began); a summary.txt without it needs --commit. Only
torchsmith's rows are merged; not-run, unavailable and unpack-failed rows are the bench's, not the
package's, and are left out. A row whose run is older than the ledger's row is left out (merging in
any order gives the latest). A resumed WORK keeps the rows of its earlier call in results.tsv: a row
with the ledger's outcome and seconds is that same build and keeps its date and commit.
"""
import argparse
import csv
import os
import re
import sys
import tempfile
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
COLUMNS = ["name", "batch", "split", "tool", "outcome", "date", "commit", "seconds", "source", "note"]
RUN_OUTCOMES = ("verified", "built-needs-deps", "built-not-verified", "failed", "timeout")
LEDGER_ONLY = ("never-run", "unknown", "unavailable")
BENCH_ROWS = ("not-run", "unavailable", "unpack-failed")  # the runner's, not the package's
TOOL = "torchsmith"


class LedgerError(Exception):
    pass


def read_tsv(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    return rows


def load_ledger(path):
    if not os.path.exists(path):
        return []
    rows = read_tsv(path)
    for i, r in enumerate(rows, 2):
        if list(r) != COLUMNS:
            raise LedgerError("%s: the columns are %s, want %s" % (path, list(r), COLUMNS))
        if r["outcome"] not in RUN_OUTCOMES + LEDGER_ONLY:
            raise LedgerError("%s:%d: %s has outcome %r, not one of %s"
                              % (path, i, r["name"], r["outcome"], ", ".join(RUN_OUTCOMES + LEDGER_ONLY)))
    return rows


def load_corpus(path):
    with open(path, "rb") as f:
        return [(p["name"], str(p.get("batch", 1)), p["split"], "unavailable" in p)
                for p in tomllib.load(f)["package"]]


def sync(rows, corpus):
    """The ledger's rows in corpus order, a never-run row for each package it lacks; a ledger row the
    corpus does not list, or lists with another batch or split, is an error (the corpus decides)."""
    have = {(r["name"], r["tool"]): r for r in rows}
    names = set()
    out = []
    for name, batch, split, unavailable in corpus:
        names.add(name)
        r = have.get((name, TOOL))
        if r is None:
            r = dict.fromkeys(COLUMNS, "")
            r.update(name=name, batch=batch, split=split, tool=TOOL,
                     outcome="unavailable" if unavailable else "never-run",
                     source="corpus.toml" if unavailable else "")
        elif (r["batch"], r["split"]) != (batch, split):
            raise LedgerError("%s: the ledger says batch %s %s, corpus.toml batch %s %s; correct the ledger's row"
                              % (name, r["batch"], r["split"], batch, split))
        out.append(r)
    stray = sorted(r["name"] for r in rows if r["name"] not in names)
    if stray:
        raise LedgerError("the ledger has packages corpus.toml does not list: %s; remove their rows "
                          "(or check --corpus)" % ", ".join(stray))
    return out


def read_summary(path):
    """(date, commit or None) from run_device.sh's summary.txt; a CPU run is refused."""
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise LedgerError("cannot read the run's summary %s (%s); pass --summary" % (path, e.strerror))
    m = re.match(r"# (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ) ", lines[0] if lines else "")
    if not m:
        raise LedgerError("%s: its first line does not start with run_device.sh's '# DATE' header" % path)
    gpu = [l.split(":", 1)[1].strip() for l in lines if l.startswith("# gpu:")]
    if not gpu:
        raise LedgerError("%s: no '# gpu:' line, so the run's machine is not known" % path)
    if gpu[0] == "none":
        raise LedgerError("%s: a run with no GPU ('# gpu: none'); the ledger holds GPU outcomes only" % path)
    c = re.search(r"\(commit ([0-9a-f]{7,40})\)", lines[0])
    return m.group(1), c.group(1) if c else None


def newer_or_same(run_date, row_date):
    # ISO dates compare as strings; a day-only date (from the docs) and a time on that day: the
    # run being merged wins.
    n = min(len(run_date), len(row_date))
    return run_date[:n] >= row_date[:n]


def merge(rows, results, date, commit, source):
    """Merges results.tsv rows into rows (in place); returns (merged, kept, skipped) name lists."""
    by_name = {r["name"]: r for r in rows}
    want = ("name", "split", "tool", "outcome", "seconds")
    if results and not all(c in results[0] for c in want):
        raise LedgerError("the results file lacks run_device.sh's columns (%s)" % ", ".join(want))
    merged, kept, skipped = [], [], []
    for n, res in enumerate(results, 2):
        if res.get("tool") != TOOL:
            continue
        name, outcome = res["name"], res["outcome"]
        r = by_name.get(name)
        if r is None:
            raise LedgerError("results row %d: %s is not in corpus.toml (check --corpus)" % (n, name))
        if res["split"] != r["split"]:
            raise LedgerError("results row %d: %s has split %s, corpus.toml %s" % (n, name, res["split"], r["split"]))
        if outcome in BENCH_ROWS:
            skipped.append(name)
            continue
        if outcome not in RUN_OUTCOMES:
            raise LedgerError("results row %d: %s has outcome %r, not one of %s"
                              % (n, name, outcome, ", ".join(RUN_OUTCOMES + BENCH_ROWS)))
        same_build = r["outcome"] == outcome and r["seconds"] and r["seconds"] == res["seconds"]
        if same_build or (r["date"] and not newer_or_same(date, r["date"])):
            kept.append(name)
            continue
        r.update(outcome=outcome, date=date, commit=commit, seconds=res["seconds"], source=source, note="")
        merged.append(name)
    return merged, kept, skipped


def write_ledger(path, rows):
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".ledger.", dir=d)
    try:
        with os.fdopen(fd, "w", newline="") as f:
            w = csv.DictWriter(f, COLUMNS, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_NONE)
            w.writeheader()
            w.writerows(rows)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def batch_key(b):
    return (0, int(b)) if b.isdigit() else (1, b)


def report(rows):
    """Lines: per split and batch, verified of total (unavailable counted in no total)."""
    lines = []
    for split in ("dev", "held-out"):
        part = [r for r in rows if r["split"] == split and r["outcome"] != "unavailable"]
        batches = sorted({r["batch"] for r in part}, key=batch_key)
        for label, rs in [("batch %s" % b, [r for r in part if r["batch"] == b]) for b in batches] + [("all", part)]:
            v = sum(r["outcome"] == "verified" for r in rs)
            rest = {}
            for r in rs:
                if r["outcome"] != "verified":
                    rest[r["outcome"]] = rest.get(r["outcome"], 0) + 1
            other = ", ".join("%s %d" % (o, rest[o]) for o in RUN_OUTCOMES + LEDGER_ONLY if o in rest)
            lines.append("%-8s %-9s verified %3d of %3d = %5.1f%%%s"
                         % (split, label, v, len(rs), 100.0 * v / len(rs) if rs else 0.0,
                            "; " + other if other else ""))
    return lines


def failing(rows, split=None, batch=None):
    """Names whose latest GPU outcome is not verified (never-run and unknown included: a GPU run
    decides them); unavailable packages are not run at all."""
    return [r["name"] for r in rows
            if r["outcome"] not in ("verified", "unavailable")
            and (split is None or r["split"] == split) and (batch is None or r["batch"] == str(batch))]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ledger", default=os.path.join(HERE, "ledger.tsv"))
    ap.add_argument("--corpus", default=os.path.join(HERE, "corpus.toml"))
    ap.add_argument("--merge", metavar="RESULTS", help="a run_device.sh results.tsv to merge")
    ap.add_argument("--summary", help="its summary.txt (default: beside RESULTS)")
    ap.add_argument("--commit", help="the binary's commit, for a summary.txt that does not name it")
    ap.add_argument("--failing", action="store_true", help="print the names not verified on the GPU")
    ap.add_argument("--split", choices=("dev", "held-out"))
    ap.add_argument("--batch", type=int)
    a = ap.parse_args(argv)
    try:
        rows = sync(load_ledger(a.ledger), load_corpus(a.corpus))
        if a.merge:
            summary = a.summary or os.path.join(os.path.dirname(os.path.abspath(a.merge)), "summary.txt")
            date, commit = read_summary(summary)
            if a.commit:
                if commit and not commit.startswith(a.commit) and not a.commit.startswith(commit):
                    raise LedgerError("--commit %s, but %s names commit %s" % (a.commit, summary, commit))
                commit = a.commit
            if not commit:
                raise LedgerError("%s does not name the binary's commit (a run_device.sh older than the "
                                  "ledger); pass --commit, read from that binary's `torchsmith --version`" % summary)
            merged, kept, skipped = merge(rows, read_tsv(a.merge), date, commit[:8],
                                          "results.tsv of the GPU run %s" % date)
            write_ledger(a.ledger, rows)
            print("merged %d (run %s, commit %s); kept the ledger's row (an earlier call's row, or a later "
                  "run's) for %d%s; left out %d not-run/unavailable rows"
                  % (len(merged), date, commit[:8], len(kept), ": " + " ".join(kept) if kept else "", len(skipped)))
        if a.failing:
            for name in failing(rows, a.split, a.batch):
                print(name)
        else:
            print("\n".join(l for l in report(rows) if not a.split or l.startswith(a.split + " ")))
    except (LedgerError, OSError, tomllib.TOMLDecodeError) as e:
        print("ledger: error: %s" % e, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
