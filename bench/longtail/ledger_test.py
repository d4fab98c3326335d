#!/usr/bin/env python3
"""ledger.py: a run_device.sh results.tsv merged into the ledger (the latest run wins, a resumed call's
carried rows keep their run), the corpus deciding names, batches and splits, the totals per split and
batch, and the names a GPU re-run should take. Temporary files only; nothing is built.

  python3 bench/longtail/ledger_test.py
"""
import contextlib
import io
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ledger  # noqa: E402

CORPUS = [("alpha", "1", "dev", False), ("beta", "1", "held-out", False), ("gamma", "2", "dev", False),
          ("delta", "2", "dev", True)]
HEADER = "name\tsplit\ttool\toutcome\tseconds\tdiagnosis\n"


def summary(date, gpu="NVIDIA H100 80GB HBM3", version=" (torchsmith 0.1.0 (commit 798a3a318b27))"):
    return ("# %s vm cores=16 par=8 jobs=2 arch=native limit=480s deadline=530s torch=2.11.0+cu130 "
            "torchsmith=/x/torchsmith%s wheelhouse=none verify=--no-runtime-deps sysroot=none\n"
            "# gpu: %s\n# numpy: 2.5.2\n" % (date, version, gpu))


def results(*rows):
    return [dict(zip(HEADER.split(), r.split())) for r in rows]


class Merge(unittest.TestCase):
    def setUp(self):
        self.rows = ledger.sync([], CORPUS)

    def row(self, name):
        return next(r for r in self.rows if r["name"] == name)

    def test_the_corpus_gives_each_package_a_row(self):
        self.assertEqual([(r["name"], r["outcome"]) for r in self.rows],
                         [("alpha", "never-run"), ("beta", "never-run"), ("gamma", "never-run"),
                          ("delta", "unavailable")])

    def test_a_newer_run_wins_and_an_older_one_does_not(self):
        ledger.merge(self.rows, results("alpha dev torchsmith failed 30 x"), "2026-12-06T10:00:00Z", "aaaa1111", "r1")
        ledger.merge(self.rows, results("alpha dev torchsmith verified 90 x"), "2026-12-07T10:00:00Z", "bbbb2222", "r2")
        self.assertEqual((self.row("alpha")["outcome"], self.row("alpha")["commit"]), ("verified", "bbbb2222"))
        m, kept, _ = ledger.merge(self.rows, results("alpha dev torchsmith timeout 500 x"),
                                  "2026-12-06T23:00:00Z", "cccc3333", "r0")
        self.assertEqual((m, kept), ([], ["alpha"]))
        self.assertEqual(self.row("alpha")["date"], "2026-12-07T10:00:00Z")

    def test_a_day_from_the_docs_gives_way_to_a_run_that_day(self):
        self.row("alpha").update(outcome="failed", date="2026-12-06", commit="d0c5")
        ledger.merge(self.rows, results("alpha dev torchsmith verified 90 x"), "2026-12-06T19:00:00Z", "e1", "r")
        self.assertEqual(self.row("alpha")["outcome"], "verified")
        ledger.merge(self.rows, results("alpha dev torchsmith failed 9 x"), "2026-12-05T19:00:00Z", "e0", "r")
        self.assertEqual(self.row("alpha")["outcome"], "verified")

    def test_a_resumed_calls_carried_row_keeps_its_run(self):
        # run_device.sh skips a package whose row WORK already has: the second call's results.tsv
        # repeats the first call's row (same outcome, same seconds).
        ledger.merge(self.rows, results("beta held-out torchsmith verified 94 x"), "2026-12-06T19:53:31Z", "b697", "r1")
        _, kept, _ = ledger.merge(self.rows, results("beta held-out torchsmith verified 94 x",
                                                     "alpha dev torchsmith verified 94 x"),
                                  "2026-12-06T19:57:34Z", "74fd", "r2")
        self.assertEqual(kept, ["beta"])
        self.assertEqual((self.row("beta")["date"], self.row("beta")["commit"]), ("2026-12-06T19:53:31Z", "b697"))
        self.assertEqual(self.row("alpha")["commit"], "74fd")

    def test_pip_rows_and_the_benchs_own_rows_are_not_merged(self):
        m, _, skipped = ledger.merge(self.rows, results("alpha dev pip verified 10 x",
                                                        "gamma dev torchsmith not-run 0 x"), "2026-12-06T10:00:00Z",
                                     "a", "r")
        self.assertEqual((m, skipped), ([], ["gamma"]))
        self.assertEqual(self.row("alpha")["outcome"], "never-run")

    def test_a_row_the_corpus_does_not_agree_with_is_refused(self):
        for bad, what in [("omega dev torchsmith verified 1 x", "not in corpus.toml"),
                          ("alpha held-out torchsmith verified 1 x", "split held-out, corpus.toml dev"),
                          ("alpha dev torchsmith compiled 1 x", "outcome 'compiled'")]:
            with self.assertRaises(ledger.LedgerError) as e:
                ledger.merge(self.rows, results(bad), "2026-12-06T10:00:00Z", "a", "r")
            self.assertIn(what, str(e.exception))

    def test_the_corpus_decides_names_batches_and_splits(self):
        stray = dict(self.rows[0], name="omega")
        with self.assertRaisesRegex(ledger.LedgerError, "corpus.toml does not list: omega"):
            ledger.sync(self.rows + [stray], CORPUS)
        moved = [dict(r, batch="3") if r["name"] == "gamma" else r for r in self.rows]
        with self.assertRaisesRegex(ledger.LedgerError, "gamma: the ledger says batch 3 dev, corpus.toml batch 2 dev"):
            ledger.sync(moved, CORPUS)


class Report(unittest.TestCase):
    def test_verified_of_total_per_split_and_batch_and_the_failing_names(self):
        rows = ledger.sync([], CORPUS)
        ledger.merge(rows, results("alpha dev torchsmith verified 9 x", "gamma dev torchsmith built-needs-deps 9 x"),
                     "2026-12-06T10:00:00Z", "a", "r")
        lines = ledger.report(rows)
        self.assertIn("dev      batch 1   verified   1 of   1 = 100.0%", lines[0])
        self.assertIn("dev      batch 2   verified   0 of   1 =   0.0%; built-needs-deps 1", lines[1])  # delta unavailable
        self.assertIn("dev      all       verified   1 of   2 =  50.0%; built-needs-deps 1", lines[2])
        self.assertIn("held-out all       verified   0 of   1 =   0.0%; never-run 1", lines[4])
        self.assertEqual(ledger.failing(rows, "dev"), ["gamma"])
        self.assertEqual(ledger.failing(rows), ["beta", "gamma"])
        self.assertEqual(ledger.failing(rows, batch=1), ["beta"])


class Cli(unittest.TestCase):
    def run_main(self, *argv):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = ledger.main(list(argv))
        return rc, out.getvalue(), err.getvalue()

    def test_merge_then_failing_through_the_command_line(self):
        with tempfile.TemporaryDirectory() as d:
            corpus = os.path.join(d, "corpus.toml")
            with open(corpus, "w") as f:
                f.write('[[package]]\nname = "alpha"\nsplit = "dev"\n[[package]]\nname = "gamma"\nsplit = "dev"\n'
                        'batch = 2\n[[package]]\nname = "beta"\nsplit = "held-out"\n')
            run = os.path.join(d, "run")
            os.mkdir(run)
            with open(os.path.join(run, "results.tsv"), "w") as f:
                f.write(HEADER + "alpha\tdev\ttorchsmith\tverified\t60\t\ngamma\tdev\ttorchsmith\tfailed\t9\texit 1\n")
            with open(os.path.join(run, "summary.txt"), "w") as f:
                f.write(summary("2026-12-07T05:33:36Z"))
            led = os.path.join(d, "ledger.tsv")
            common = ("--ledger", led, "--corpus", corpus)
            rc, out, _ = self.run_main(*common, "--merge", os.path.join(run, "results.tsv"))
            self.assertEqual(rc, 0)
            self.assertIn("merged 2 (run 2026-12-07T05:33:36Z, commit 798a3a31)", out)
            self.assertEqual(self.run_main(*common, "--failing", "--split", "dev")[1], "gamma\n")
            with open(led) as f:
                self.assertEqual(f.readline().rstrip("\n").split("\t"), ledger.COLUMNS)
                self.assertEqual([l.split("\t")[:8] for l in f.read().splitlines()],
                                 [["alpha", "1", "dev", "torchsmith", "verified", "2026-12-07T05:33:36Z", "798a3a31", "60"],
                                  ["gamma", "2", "dev", "torchsmith", "failed", "2026-12-07T05:33:36Z", "798a3a31", "9"],
                                  ["beta", "1", "held-out", "torchsmith", "never-run", "", "", ""]])
            self.assertEqual([n for n in os.listdir(d) if n.startswith(".ledger.")], [])  # the temporary is gone

            # A summary.txt of an older runner names no commit: --commit, else a clear error.
            with open(os.path.join(run, "summary.txt"), "w") as f:
                f.write(summary("2026-12-08T01:00:00Z", version=""))
            rc, _, err = self.run_main(*common, "--merge", os.path.join(run, "results.tsv"))
            self.assertEqual(rc, 2)
            self.assertIn("does not name the binary's commit", err)
            self.assertIn("pass --commit", err)
            self.assertEqual(self.run_main(*common, "--merge", os.path.join(run, "results.tsv"),
                                           "--commit", "abc1234")[0], 0)

            # A run with no GPU is no GPU outcome.
            with open(os.path.join(run, "summary.txt"), "w") as f:
                f.write(summary("2026-12-09T01:00:00Z", gpu="none"))
            rc, _, err = self.run_main(*common, "--merge", os.path.join(run, "results.tsv"))
            self.assertEqual(rc, 2)
            self.assertIn("a run with no GPU", err)


class TheCommittedLedger(unittest.TestCase):
    def test_it_agrees_with_corpus_toml(self):
        # Every row a package of the corpus with its batch and split, every outcome one the ledger knows.
        rows = ledger.sync(ledger.load_ledger(os.path.join(HERE, "ledger.tsv")),
                           ledger.load_corpus(os.path.join(HERE, "corpus.toml")))
        self.assertTrue(rows)


if __name__ == "__main__":
    unittest.main()
