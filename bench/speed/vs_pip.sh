#!/usr/bin/env bash
# Issue 19 item 4: torchsmith against plain pip on the same trees, same machine, same arch. For each
# TREE: `python -m pip wheel --no-build-isolation --no-deps -w DIR .` (TORCH_CUDA_ARCH_LIST set to
# the arch list torchsmith plans here) and `torchsmith build TREE`, each on a fresh copy, taking
# turns ROUNDS times; both wheels verified (`torchsmith verify --python`). Prints each run's wall
# time, torchsmith's phases (from its run.json) and the ratio of the means torchsmith/pip per tree
# (target: <= 1.0). TIMELINE=1: pip's phases too (bench/speed/timeline.py, output unbuffered).
# Usage: bench/speed/vs_pip.sh TREE... [-- more torchsmith build options]
#   TORCHSMITH=build/torchsmith PYTHON=python3 ROUNDS=1 TIMELINE=0 VERIFY_GPU=0 KEEP_LOGS= (environment;
#   VERIFY_GPU=1: torchsmith's wheel also through `verify --gpu`, untimed; KEEP_LOGS=DIR: pip runs -v,
#   each run prints its compiles' start and end from .ninja_log, and every run's log and .ninja_log,
#   with torchsmith's step logs, is copied to DIR at the end); torchsmith builds
#   with --compile-cache none unless the options name a cache, as pip has none.
set -euo pipefail
usage() { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
here=$(cd "$(dirname "$0")/../.." && pwd)
trees=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do trees+=("$1"); shift; done
[ $# -gt 0 ] && shift
opts=("$@")
[ ${#trees[@]} -ge 1 ] || usage
for t in "${trees[@]}"; do [ -d "$t" ] || { echo "no such tree: $t" >&2; exit 2; }; done
ts=${TORCHSMITH:-$here/build/torchsmith}
[ -x "$ts" ] && ts=$(realpath "$ts") || { echo "torchsmith not found at $ts: build it or set TORCHSMITH" >&2; exit 2; }
py=${PYTHON:-python3}
command -v "$py" >/dev/null || { echo "no python at '$py': set PYTHON to the interpreter with torch" >&2; exit 2; }
rounds=${ROUNDS:-1}
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "ROUNDS must be a whole number >= 1, not '$rounds'" >&2; exit 2; }
case " ${opts[*]:-} " in *" --compile-cache"*) ;; *) opts+=(--compile-cache none) ;; esac
work=$(mktemp -d /tmp/ts-bench-vs-pip.XXXXXX)
keep=${KEEP_LOGS:-}
# The logs, with pip's compile commands (-v) and torchsmith's step logs, for comparing the two builds.
keep_logs() {
  [ -n "$keep" ] || return 0
  mkdir -p "$keep" && (cd "$work" && find . \( -name '*.log' -o -name .ninja_log \) -print0 | xargs -0 -r cp --parents -t "$keep")
}
# Each compile's start and end in a build's .ninja_log (ms since ninja started): whether the compiles
# overlapped, and which one held the build.
edges() {
  [ -n "$keep" ] || return 0
  find "$1" -name .ninja_log -print0 2>/dev/null | xargs -0 -r awk -F'\t' '!/^#/ {n = split($4, p, "/");
    printf "%s %.1f-%.1f s; ", p[n], $1 / 1000, $2 / 1000}' | sed 's/; $//'
}
trap 'keep_logs; rm -rf "$work"' EXIT

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.1f", b - a}'; }
fresh() {  # TREE DEST: a copy without what an earlier build left
  mkdir -p "$2" && cp -a "$1/." "$2/" && rm -rf "$2/build" "$2/dist" "$2/.torchsmith" "$2"/*.egg-info
}
phases() {  # OUT WALL: each step's seconds from the run's run.json, and the rest of the wall
  /usr/bin/env python3 - "$1" "$2" <<'PY'
import glob, json, os, sys
rec = json.load(open(sorted(glob.glob(os.path.join(sys.argv[1], "runs", "*", "run.json")), key=os.path.getmtime)[-1]))
steps = rec.get("steps", [])
wall = float(sys.argv[2])
first = min((s.get("start", 0) for s in steps), default=0)
last = max((s.get("start", 0) + s.get("seconds", 0) for s in steps), default=0)
parts = ["%s %.1f s" % (s["name"], s.get("seconds", 0)) for s in steps]
# the wall beyond the steps: probe, plan, source copy before them, report files after
print("%s, outside the steps %.1f s" % (", ".join(parts), max(0.0, wall - (last - first))))
PY
}

printf 'torchsmith %s; %s; %s; %s cores; torchsmith options: %s\n' "$("$ts" --version 2>/dev/null | head -1)" \
  "$("$py" -c 'import torch; print("torch", torch.__version__)')" \
  "$(nvidia-smi --query-gpu=name,compute_cap --format=csv,noheader 2>/dev/null | head -1 || echo 'no nvidia-smi')" \
  "$(nproc)" "${opts[*]}"
n=0
for tree in "${trees[@]}"; do
  n=$((n + 1))
  tree=$(realpath "$tree")
  lock=$work/t$n.lock.json
  "$ts" plan "$tree" --torch "$py" -o "$lock" >/dev/null 2>"$work/t$n.plan.log" ||
    { echo "torchsmith plan failed for $tree:" >&2; tail -20 "$work/t$n.plan.log" >&2; exit 1; }
  arch=$(/usr/bin/env python3 -c 'import json, sys; print(json.load(open(sys.argv[1])).get("env", {}).get("TORCH_CUDA_ARCH_LIST", ""))' "$lock")
  echo "$tree: TORCH_CUDA_ARCH_LIST=${arch:-(none: no CUDA code)}"
  sum_pip=0 sum_ts=0
  for ((r = 1; r <= rounds; r++)); do
    src=$work/t$n-pip-$r; fresh "$tree" "$src"; mkdir -p "$src.dist"
    t0=$(now)
    tl=()
    [ "${TIMELINE:-0}" = 1 ] && tl=(env PYTHONUNBUFFERED=1 "$here/bench/speed/timeline.py" --json "$src.timeline.json" --)
    verbose=()
    [ -n "${tl[*]:-}" ] || [ -n "$keep" ] && verbose=(-v)
    if ! (cd "$src" && if [ -n "$arch" ]; then export TORCH_CUDA_ARCH_LIST="$arch"; fi &&
          "${tl[@]}" "$py" -m pip wheel "${verbose[@]}" --no-build-isolation --no-deps -w "$src.dist" .) >"$src.log" 2>&1; then
      echo "pip wheel failed for $tree (round $r):" >&2; tail -30 "$src.log" >&2; exit 1
    fi
    t1=$(now); wp=$(secs "$t0" "$t1")
    whl=$(ls "$src.dist"/*.whl | head -1)
    "$ts" verify "$whl" --python "$py" --plan "$lock" >"$src.verify.log" 2>&1 ||
      { echo "pip's wheel did not verify ($tree):" >&2; tail -20 "$src.verify.log" >&2; exit 1; }
    printf '  round %d  pip        %7.1f s wall (pip wheel), wheel verified\n' "$r" "$wp"
    [ -n "$keep" ] && printf '      compiles: %s\n' "$(edges "$src")"
    [ "${TIMELINE:-0}" = 1 ] && sed -n '/^phase /,/^total /p' "$src.log" | sed 's/^/      pip: /'
    src=$work/t$n-ts-$r; fresh "$tree" "$src"
    t0=$(now)
    "$ts" build "$src" --torch "$py" --out "$src.out" "${opts[@]}" >"$src.log" 2>&1 ||
      { echo "torchsmith build failed for $tree (round $r):" >&2; tail -30 "$src.log" >&2; exit 1; }
    t1=$(now); wt=$(secs "$t0" "$t1")
    printf '  round %d  torchsmith %7.1f s wall (%s), wheel verified\n' "$r" "$wt" "$(phases "$src.out" "$wt")"
    [ -n "$keep" ] && printf '      compiles: %s\n' "$(edges "$src.out")"
    if [ "${VERIFY_GPU:-0}" = 1 ]; then  # after the timing: torchsmith's wheel on the GPUs, against its lock
      twhl=$(ls "$src.out"/dist/*.whl | head -1)
      tlib=$("$py" -c 'import os, torch; print(os.path.join(os.path.dirname(torch.__file__), "lib"))')
      vrc=0
      "$ts" verify "$twhl" --python "$py" --gpu --plan "$src.out/plan.lock.json" --preload "$tlib" >"$src.gpu.log" 2>&1 || vrc=$?
      printf '  round %d  verify --gpu of torchsmith'"'"'s wheel: exit %d, %s\n' "$r" "$vrc" "$(grep -E 'checks, [0-9]+ failed' "$src.gpu.log" | tail -1)"
      [ "$vrc" = 0 ] || grep -E '^ *(FAIL|fail)' "$src.gpu.log" | head -5 | sed 's/^/      /'
    fi
    sum_pip=$(awk -v a="$sum_pip" -v b="$wp" 'BEGIN{print a + b}')
    sum_ts=$(awk -v a="$sum_ts" -v b="$wt" 'BEGIN{print a + b}')
  done
  awk -v p="$sum_pip" -v t="$sum_ts" -v r="$rounds" -v name="$(basename "$tree")" \
    'BEGIN{printf "%s: mean pip %.1f s, mean torchsmith %.1f s: ratio torchsmith/pip %.2f (target <= 1.0)\n", name, p / r, t / r, t / p}'
done
