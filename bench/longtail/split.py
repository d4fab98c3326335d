#!/usr/bin/env python3
# Checks that every package's split in corpus.toml follows the rule written there (never by hand),
# that names are unique and each batch a whole number (1 where absent); prints the counts per batch.
import collections
import hashlib
import sys
import tomllib

with open(sys.argv[1] if len(sys.argv) > 1 else __file__.replace("split.py", "corpus.toml"), "rb") as f:
    corpus = tomllib.load(f)
bad = 0  # off the split rule
other = 0  # a name twice, a batch that is not a whole number
seen = set()
counts = collections.defaultdict(collections.Counter)
for p in corpus["package"]:
    want = "dev" if hashlib.sha256(p["name"].encode()).hexdigest()[0] in "0123456789" else "held-out"
    if p["split"] != want:
        print("%s: split %s, the rule says %s" % (p["name"], p["split"], want))
        bad += 1
    if p["name"] in seen:
        print("%s: listed twice (a name is the package's key and decides its split)" % p["name"])
        other += 1
    seen.add(p["name"])
    batch = p.get("batch", 1)
    if type(batch) is not int or batch < 1:
        print("%s: batch %r, want a whole number from 1 (1 where absent)" % (p["name"], batch))
        other += 1
    counts[batch][p["split"]] += 1
for batch in sorted(counts, key=str):
    c = counts[batch]
    print("batch %s: %d packages: %d dev, %d held-out" % (batch, sum(c.values()), c["dev"], c["held-out"]))
n = len(corpus["package"])
dev = sum(p["split"] == "dev" for p in corpus["package"])
print("%d packages: %d dev, %d held-out; %d off the rule%s"
      % (n, dev, n - dev, bad, "; %d other problems" % other if other else ""))
sys.exit(1 if bad or other else 0)
