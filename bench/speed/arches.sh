#!/usr/bin/env bash
# P1b on any extension tree: `torchsmith build` for the native GPU's arch alone, then for all of
# torch's arches (--arch torch), the two runs taking turns ROUNDS times on the same machine (so drift
# falls on both). Prints each run's wall time, build step, arches verified, peak memory and the
# machine's CPU seconds, then the ratio of the means (issue 9 acceptance: all arches <= 1.5 x one).
# Usage: bench/speed/arches.sh TREE [TORCHSMITH] [PYTHON] [-- more torchsmith build options]
#   (the options after -- go to both builds, e.g. --compile-cache none)
#   ROUNDS=2 bench/speed/arches.sh ~/src/pytorch_scatter build/torchsmith /opt/torch/.venv/bin/python
# torchsmith builds a copy of TREE under each run's --out: TREE itself is not touched.
set -euo pipefail
usage() { sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 1 ] || usage
here=$(cd "$(dirname "$0")/../.." && pwd)
[ -d "$1" ] || { echo "no such tree: $1" >&2; exit 2; }
tree=$(realpath "$1")
shift
ts=$here/build/torchsmith
py=python3
[ $# -gt 0 ] && [ "$1" != "--" ] && { ts=$1; shift; }
[ $# -gt 0 ] && [ "$1" != "--" ] && { py=$1; shift; }
[ $# -gt 0 ] && [ "$1" = "--" ] && shift
[ -x "$ts" ] && ts=$(realpath "$ts") || { echo "torchsmith not found at $ts: build it or name it as the second argument" >&2; exit 2; }
rounds=${ROUNDS:-1}
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "ROUNDS must be a whole number >= 1, not '$rounds'" >&2; exit 2; }
work=$(mktemp -d /tmp/ts-bench-arches.XXXXXX)
trap 'rm -rf "$work"' EXIT

cpu_s() { awk -v hz="$(getconf CLK_TCK)" '/^cpu /{printf "%.0f", ($2+$3+$4+$7+$8) / hz}' /proc/stat; }
summary() {  # OUT: build step seconds, peak used GiB, the arches verify found
  /usr/bin/env python3 - "$1" <<'PY'
import glob, json, os, sys
out = sys.argv[1]
rec = json.load(open(sorted(glob.glob(os.path.join(out, "runs", "*", "run.json")), key=os.path.getmtime)[-1]))
step = {s["name"]: s for s in rec.get("steps", [])}.get("build", {}).get("seconds", 0)
peak = max((m.get("used_bytes", 0) for m in rec.get("memory", [])), default=0) / 2**30
env = json.load(open(os.path.join(out, "plan.lock.json"))).get("env", {})
print("%.1f %.1f %s" % (float(step), peak, env.get("TORCH_CUDA_ARCH_LIST", "?").replace(" ", "")))
PY
}
one() {  # NAME ROUND [build options]: prints "wall build_step peak arches cpu"
  local name=$1 round=$2 out=$work/$1-$2; shift 2
  local t0 c0 t1 c1
  t0=$(date +%s.%N); c0=$(cpu_s)
  if ! "$ts" build "$tree" --torch "$py" --out "$out" "$@" >"$work/$name-$round.log" 2>&1; then
    echo "torchsmith build failed ($name, round $round):" >&2; tail -30 "$work/$name-$round.log" >&2; exit 1
  fi
  t1=$(date +%s.%N); c1=$(cpu_s)
  grep -q " 0 failed" "$work/$name-$round.log" || { echo "verify did not pass ($name):" >&2; tail -20 "$work/$name-$round.log" >&2; exit 1; }
  read -r step peak arches < <(summary "$out")
  printf '%s %s %s %s %s\n' "$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", b - a}')" "$step" "$peak" "$arches" "$((c1 - c0))"
}

printf 'torchsmith %s; %s; %s; %s cores\n' "$("$ts" --version 2>/dev/null | head -1)" \
  "$("$py" -c 'import torch; print("torch", torch.__version__)')" \
  "$(nvidia-smi --query-gpu=name,compute_cap --format=csv,noheader 2>/dev/null | head -1 || echo 'no nvidia-smi')" "$(nproc)"
# Both plans first: the bench means something only when they compile CUDA, and for more than one
# arch. Planned without the extra options: some of those (--compile-cache, ...) are build's alone.
arch_list() {  # [--arch torch]: the plan's TORCH_CUDA_ARCH_LIST, "" for none
  "$ts" plan "$tree" --torch "$py" --json "$@" 2>/dev/null |
    /usr/bin/env python3 -c 'import json, sys; print(json.load(sys.stdin)["plan"].get("env", {}).get("TORCH_CUDA_ARCH_LIST", ""))' ||
    { echo "torchsmith plan failed for $tree (run: $ts plan $tree --torch $py $*)" >&2; exit 1; }
}
native=$(arch_list) || exit 1
portable=$(arch_list --arch torch) || exit 1
[ -n "$native" ] || { echo "the plan for $tree compiles no CUDA code (no TORCH_CUDA_ARCH_LIST): P1b needs a CUDA torch, nvcc and a GPU here" >&2; exit 2; }
[ "$native" != "$portable" ] || { echo "native and --arch torch plan the same arches ($native): nothing to compare" >&2; exit 2; }
echo "native: $native; --arch torch: $portable"
sum_native=0 sum_torch=0
for ((r = 1; r <= rounds; r++)); do
  res=$(one native "$r" "$@") || exit 1
  read -r w s p a c <<<"$res"
  printf 'round %d  native     %7.1f s wall, build step %6.1f s, peak %5.1f GiB, %5d CPU-s, arches %s\n' "$r" "$w" "$s" "$p" "$c" "$a"
  sum_native=$(awk -v a="$sum_native" -v b="$w" 'BEGIN{print a + b}')
  res=$(one torch "$r" --arch torch "$@") || exit 1
  read -r w s p a c <<<"$res"
  printf 'round %d  --arch torch %5.1f s wall, build step %6.1f s, peak %5.1f GiB, %5d CPU-s, arches %s\n' "$r" "$w" "$s" "$p" "$c" "$a"
  sum_torch=$(awk -v a="$sum_torch" -v b="$w" 'BEGIN{print a + b}')
done
awk -v n="$sum_native" -v t="$sum_torch" -v r="$rounds" \
  'BEGIN{printf "mean native %.1f s, mean --arch torch %.1f s: ratio %.2f (P1b: <= 1.5)\n", n / r, t / r, t / n}'
