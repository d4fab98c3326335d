#!/bin/bash
# One line per run from torchsmith's run.json: outcome, wall, step times, the build tree's peak
# memory (run.json memory samples), compile-cache hits, verdict counts.
# Usage: bench/real/summarize.sh OUT_DIR...   (each a torchsmith --out directory)
set -u
[ $# -gt 0 ] || { echo "usage: $0 OUT_DIR..." >&2; exit 2; }
for out in "$@"; do
  run=$(ls -td "$out"/runs/*/ 2>/dev/null | head -1)
  if [ -z "$run" ] || [ ! -f "$run/run.json" ]; then echo "$out: no run.json under $out/runs" >&2; continue; fi
  /usr/bin/python3 - "$run/run.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
steps = " ".join(f"{s['name']}={s['seconds']:.0f}s" for s in d.get("steps", []))
peak = max((m.get("used_bytes", 0) for m in d.get("memory", [])), default=0)
v = d.get("verdicts", [])
if not v:  # run.json keeps no verdicts when verify failed: read its log
    import glob, os
    logs = glob.glob(os.path.join(os.path.dirname(sys.argv[1]), "logs", "*verify.log"))
    v = [l.strip() for l in open(logs[0], errors="replace")] if logs else []
ok = sum(1 for l in v if l.startswith("ok"))
bad = sum(1 for l in v if l.lower().startswith("fail"))
smoke = next((l.split(None, 2)[-1] for l in v if l.split()[1:2] == ["smoke"]), "no smoke line")
c = d.get("cache") or {}
print(f"{d.get('what')}: {d.get('outcome')} wall={d.get('seconds', 0):.0f}s [{steps}] "
      f"peak_tree_mem={peak / 2**20:.0f}MiB cache={c.get('tool')} {c.get('hits')}/{(c.get('hits') or 0) + (c.get('misses') or 0)} "
      f"verdicts ok={ok} failed={bad} smoke: {smoke}")
PY
done
