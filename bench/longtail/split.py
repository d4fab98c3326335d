#!/usr/bin/env python3
# Checks that every package's split in corpus.toml follows the rule written there for its batch (never
# by hand), that the rules cover every batch exactly once, that names are unique and each batch a whole
# number (1 where absent); prints the counts per batch.
#
# A rule (corpus.toml's [[split_rule]]) names the batches it governs (first_batch..last_batch) and the
# first hex digits of sha256(name) that make a package "dev"; every other digit makes it "held-out".
# A batch's rule is declared and committed before any of its candidates is looked at, and never
# changed afterwards: a new rule governs new batches only.
import collections
import hashlib
import sys
import tomllib

HEX = "0123456789abcdef"


def rules_of(corpus):
    """The batch -> dev digits table, and the problems found in corpus.toml's [[split_rule]] list."""
    table, problems = {}, []
    for i, r in enumerate(corpus.get("split_rule", [])):
        first, last, dev = r.get("first_batch"), r.get("last_batch"), r.get("dev_first_hex")
        where = "split_rule %d" % (i + 1)
        if type(first) is not int or type(last) is not int or not 1 <= first <= last:
            problems.append("%s: first_batch %r, last_batch %r: want whole numbers, 1 <= first <= last"
                            % (where, first, last))
            continue
        if type(dev) is not str or not dev or any(c not in HEX for c in dev) or len(set(dev)) != len(dev) \
                or len(dev) == len(HEX):
            problems.append("%s: dev_first_hex %r: want distinct lower-case hex digits, some but not all "
                            "sixteen (the rest are held-out)" % (where, dev))
            continue
        for b in range(first, last + 1):
            if b in table:
                problems.append("%s: batch %d already has a rule (one rule a batch)" % (where, b))
            table[b] = dev
    return table, problems


def check(corpus):
    """(lines to print, off-rule count, other problem count)."""
    table, problems = rules_of(corpus)
    out, bad, other = list(problems), 0, len(problems)
    seen = set()
    counts = collections.defaultdict(collections.Counter)
    norule = set()
    for p in corpus.get("package", []):
        batch = p.get("batch", 1)
        if type(batch) is not int or batch < 1:
            out.append("%s: batch %r, want a whole number from 1 (1 where absent)" % (p["name"], batch))
            other += 1
        elif batch not in table:
            if batch not in norule:
                out.append("batch %d: no [[split_rule]] governs it: declare one in corpus.toml (and commit "
                           "it) before any of its candidates is looked at" % batch)
                other += 1
                norule.add(batch)
        else:
            want = "dev" if hashlib.sha256(p["name"].encode()).hexdigest()[0] in table[batch] else "held-out"
            if p["split"] != want:
                out.append("%s: split %s, batch %d's rule says %s" % (p["name"], p["split"], batch, want))
                bad += 1
        if p["name"] in seen:
            out.append("%s: listed twice (a name is the package's key and decides its split)" % p["name"])
            other += 1
        seen.add(p["name"])
        counts[batch][p["split"]] += 1
    for batch in sorted(counts, key=str):
        c = counts[batch]
        out.append("batch %s: %d packages: %d dev, %d held-out" % (batch, sum(c.values()), c["dev"], c["held-out"]))
    n = len(corpus.get("package", []))
    dev = sum(p["split"] == "dev" for p in corpus.get("package", []))
    out.append("%d packages: %d dev, %d held-out; %d off the rule%s"
               % (n, dev, n - dev, bad, "; %d other problems" % other if other else ""))
    return out, bad, other


if __name__ == "__main__":
    with open(sys.argv[1] if len(sys.argv) > 1 else __file__.replace("split.py", "corpus.toml"), "rb") as f:
        lines, bad, other = check(tomllib.load(f))
    print("\n".join(lines))
    sys.exit(1 if bad or other else 0)
