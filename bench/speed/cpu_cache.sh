#!/usr/bin/env bash
# P3 on a CPU package: a cold build of examples/hello_ext through `torchsmith build` with an empty
# ccache, then `rm -rf build` in the same tree and the same build again with the cache warm.
# Prints both wall times, the build step's times, ccache's hits and misses, and the ratio
# (issue 9 acceptance: rebuild <= 0.2 x cold).
# Usage: bench/speed/cpu_cache.sh [TORCHSMITH] [PYTHON]   (defaults: build-speed/torchsmith, /usr/bin/python3)
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
ts=$(realpath "${1:-$here/build-speed/torchsmith}")
py=${2:-/usr/bin/python3}
command -v ccache >/dev/null || { echo "ccache is not installed" >&2; exit 2; }
work=$(mktemp -d /tmp/ts-bench-cache.XXXXXX)
trap 'rm -rf "$work"' EXIT
export CCACHE_DIR=$work/ccache  # a fresh, empty cache: the first build is really cold
out=$work/out

now() { date +%s.%N; }
step_time() {  # the build step's seconds in the newest run.json under $out
  /usr/bin/python3 - "$out" <<'PY'
import glob, json, os, sys
runs = sorted(glob.glob(os.path.join(sys.argv[1], "runs", "*", "run.json")), key=os.path.getmtime)
rec = json.load(open(runs[-1]))
steps = {s["name"]: s for s in rec.get("steps", [])}
print("%.2f" % float(steps.get("build", {}).get("seconds", 0)))
PY
}
stats() { ccache --print-stats | awk -F'\t' '$1=="direct_cache_hit"||$1=="preprocessed_cache_hit"{h+=$2} $1=="cache_miss"{m+=$2} END{print h+0, m+0}'; }

run() {
  local t0 t1
  t0=$(now)
  "$ts" build "$here/examples/hello_ext" --torch "$py" --compile-cache ccache --out "$out" >"$work/$1.log" 2>&1 ||
    { echo "torchsmith build failed ($1):" >&2; tail -30 "$work/$1.log" >&2; exit 1; }
  t1=$(now)
  echo "$t1 - $t0" | bc
}

cold=$(run cold); cold_step=$(step_time); read -r h1 m1 < <(stats)
rm -rf "$out/src/build"
warm=$(run warm); warm_step=$(step_time); read -r h2 m2 < <(stats)
printf 'torchsmith %s, %s, %s\n' "$("$ts" --version 2>/dev/null | head -1)" "$("$py" -c 'import torch; print("torch", torch.__version__)')" "$(ccache --version | head -1)"
printf 'cold build:                 %6.2f s (build step %s s), ccache hits %d misses %d\n' "$cold" "$cold_step" "$h1" "$m1"
printf 'rebuild after rm -rf build: %6.2f s (build step %s s), ccache hits %d misses %d\n' "$warm" "$warm_step" "$((h2 - h1))" "$((m2 - m1))"
printf 'ratio rebuild/cold: %.3f total, %.3f build step (P3: <= 0.2)\n' "$(echo "$warm / $cold" | bc -l)" "$(echo "$warm_step / $cold_step" | bc -l)"
