#!/bin/bash
# Build one already-fetched extension tree with torchsmith against a chosen torch, under GNU time.
# Usage: bench/real/build_one.sh NAME SRC_DIR [OUT_DIR] [-- extra torchsmith build args]
# Env: TORCHSMITH (default build-real/torchsmith), TORCH_PY (default /usr/bin/python3),
#      WORK (default the source tree's parent): OUT_DIR defaults to WORK/out-NAME, LOG_DIR to WORK/logs. Never fetches anything: SRC_DIR must already exist.
set -u
if [ $# -lt 2 ]; then
  echo "usage: $0 NAME SRC_DIR [OUT_DIR] [-- torchsmith build args...]" >&2
  exit 2
fi
name=$1 src=$2
shift 2
work=${WORK:-$(dirname "$(realpath -m "$src")")}
out=$work/out-$name
if [ $# -gt 0 ] && [ "$1" != "--" ]; then out=$1; shift; fi
[ "${1:-}" = "--" ] && shift
ts=${TORCHSMITH:-build-real/torchsmith}
py=${TORCH_PY:-/usr/bin/python3}
logs=${LOG_DIR:-$work/logs}
if [ ! -x "$ts" ]; then echo "$0: no torchsmith binary at $ts (set TORCHSMITH)" >&2; exit 2; fi
if [ ! -d "$src" ]; then echo "$0: no source tree at $src (clone it from a fetched mirror first)" >&2; exit 2; fi
if [ ! -x /usr/bin/time ]; then echo "$0: GNU time missing: apt-get install time" >&2; exit 2; fi
mkdir -p "$logs"
log=$logs/$name.log tlog=$logs/$name.time
start=$(date +%s)
/usr/bin/time -v -o "$tlog" "$ts" build "$src" --torch "$py" --out "$out" "$@" >"$log" 2>&1
rc=$?
end=$(date +%s)
# ru_maxrss of waited-for children: the largest single process (a compiler), not the tree's sum.
peak_kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tlog")
echo "$name rc=$rc wall=$((end - start))s peak_rss_single_process=$((${peak_kb:-0} / 1024))MiB log=$log out=$out"
exit $rc
