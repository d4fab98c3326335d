#!/usr/bin/env python3
# Checks that every package's split in corpus.toml follows the rule written there (never by hand).
import hashlib
import sys
import tomllib

with open(sys.argv[1] if len(sys.argv) > 1 else __file__.replace("split.py", "corpus.toml"), "rb") as f:
    corpus = tomllib.load(f)
bad = 0
for p in corpus["package"]:
    want = "dev" if hashlib.sha256(p["name"].encode()).hexdigest()[0] in "0123456789" else "held-out"
    if p["split"] != want:
        print("%s: split %s, the rule says %s" % (p["name"], p["split"], want))
        bad += 1
n = len(corpus["package"])
dev = sum(p["split"] == "dev" for p in corpus["package"])
print("%d packages: %d dev, %d held-out; %d off the rule" % (n, dev, n - dev, bad))
sys.exit(1 if bad else 0)
