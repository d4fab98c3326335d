#!/usr/bin/env python3
"""split.py: each package's split follows its batch's [[split_rule]] (dev digits of sha256(name)),
every batch has exactly one rule, and a malformed rule is named. Nothing is built or read.

  python3 bench/longtail/split_test.py
"""
import hashlib
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import split  # noqa: E402

OLD = {"first_batch": 1, "last_batch": 13, "dev_first_hex": "0123456789"}
NEW = {"first_batch": 14, "last_batch": 14, "dev_first_hex": "89abcdef"}


def digit(name):
    return hashlib.sha256(name.encode()).hexdigest()[0]


def name_with(first_hex):
    """A name whose sha256 starts with first_hex (found, not hard-coded, so the test cannot drift)."""
    return next("pkg-%d" % i for i in range(10000) if digit("pkg-%d" % i) == first_hex)


def pkg(name, split_, batch):
    return {"name": name, "split": split_, "batch": batch}


class Rules(unittest.TestCase):
    def run_check(self, packages, rules=(OLD, NEW)):
        return split.check({"split_rule": list(rules), "package": packages})

    def test_each_batch_by_its_own_rule(self):
        # 3: dev in batches 1-13, held-out in 14; c: held-out in 1-13, dev in 14; 9: dev in both.
        n3, nc, n9 = name_with("3"), name_with("c"), name_with("9")
        _, bad, other = self.run_check([pkg(n3, "dev", 1), pkg(nc, "held-out", 13), pkg(n9, "dev", 7)])
        self.assertEqual((bad, other), (0, 0))
        _, bad, other = self.run_check([pkg(n3, "held-out", 14), pkg(nc, "dev", 14), pkg(n9, "dev", 14)])
        self.assertEqual((bad, other), (0, 0))
        lines, bad, _ = self.run_check([pkg(n3, "dev", 14)])
        self.assertEqual(bad, 1)
        self.assertIn("batch 14's rule says held-out", "\n".join(lines))
        _, bad, _ = self.run_check([pkg(nc, "dev", 13)])
        self.assertEqual(bad, 1)

    def test_absent_batch_is_batch_one(self):
        n = name_with("a")
        _, bad, other = self.run_check([{"name": n, "split": "held-out"}])
        self.assertEqual((bad, other), (0, 0))

    def test_batch_without_rule_is_named(self):
        lines, _, other = self.run_check([pkg(name_with("1"), "dev", 15), pkg(name_with("2"), "dev", 15)])
        self.assertEqual(other, 1)  # named once, not once a package
        self.assertIn("batch 15: no [[split_rule]]", "\n".join(lines))

    def test_overlapping_rules_are_refused(self):
        lines, _, other = self.run_check([], rules=(OLD, {"first_batch": 13, "last_batch": 14,
                                                          "dev_first_hex": "89abcdef"}))
        self.assertEqual(other, 1)
        self.assertIn("batch 13 already has a rule", "\n".join(lines))

    def test_malformed_rules_are_refused(self):
        for bad_rule in ({"first_batch": 14, "last_batch": 14, "dev_first_hex": "0123456789abcdef"},
                         {"first_batch": 14, "last_batch": 14, "dev_first_hex": ""},
                         {"first_batch": 14, "last_batch": 14, "dev_first_hex": "89ABCDEF"},
                         {"first_batch": 14, "last_batch": 14, "dev_first_hex": "88"},
                         {"first_batch": 15, "last_batch": 14, "dev_first_hex": "89"},
                         {"first_batch": "14", "last_batch": 14, "dev_first_hex": "89"}):
            _, _, other = self.run_check([], rules=(OLD, bad_rule))
            self.assertEqual(other, 1, bad_rule)

    def test_duplicate_name(self):
        n = name_with("0")
        _, _, other = self.run_check([pkg(n, "dev", 1), pkg(n, "dev", 2)])
        self.assertEqual(other, 1)

    def test_the_corpus_itself(self):
        import tomllib
        with open(os.path.join(HERE, "corpus.toml"), "rb") as f:
            _, bad, other = split.check(tomllib.load(f))
        self.assertEqual((bad, other), (0, 0))


if __name__ == "__main__":
    unittest.main()
