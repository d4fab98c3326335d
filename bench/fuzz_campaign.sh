#!/usr/bin/env bash
# A long fuzz campaign: each libFuzzer target in BUILD (fuzz_*) runs RUNS executions, one at a time
# and under nice -n 19 so it never starves the machine; prints executions, exec/s, crashes, time and
# corpus size per parser. Crash inputs are kept under OUT/<target>/ (keep OUT outside the repo).
# Usage: bench/fuzz_campaign.sh [BUILD=build] [RUNS=10000000] [OUT=~/.cache/ts-fuzz]
# Environment: FUZZ_TARGETS="tar elf ..." runs only those (names without fuzz_); FUZZ_MAX_SECONDS=N
# stops each target after N seconds when RUNS cannot finish in the time there is (the table then
# shows how far it got); FUZZ_TIMEOUT=S (default 60) is the per-input limit: a one-time start-up
# (loading the built-in signatures) runs on the first input, at nice 19 on a loaded machine.
set -u
build=${1:-build}
runs=${2:-10000000}
out=${3:-${XDG_CACHE_HOME:-$HOME/.cache}/ts-fuzz}
max_seconds=${FUZZ_MAX_SECONDS:-0}
src=$(cd "$(dirname "$0")/.." && pwd)
shopt -s nullglob
targets=()
if [[ -n ${FUZZ_TARGETS:-} ]]; then
  for n in $FUZZ_TARGETS; do
    f="$build/fuzz_$n"
    [[ -x $f && -f $f ]] || { echo "fuzz_campaign: $f is not built (cmake --build $build --target <group>_fuzz)" >&2; exit 2; }
    targets+=("$f")
  done
else
  for f in "$build"/fuzz_*; do [[ -x $f && -f $f ]] && targets+=("$f"); done
fi
if (( ${#targets[@]} == 0 )); then
  echo "fuzz_campaign: no fuzz_* targets in $build (build them: cmake --build $build --target verify_fuzz formats_fuzz triage_fuzz kb_fuzz plan_fuzz package_fuzz)" >&2
  exit 2
fi
printf '%-24s %12s %9s %8s %8s %8s\n' parser executions exec/s crashes seconds corpus
total_crashes=0
for f in "${targets[@]}"; do
  name=${f##*/fuzz_}
  mkdir -p "$out/$name/corpus"
  start=$(date +%s)
  log="$out/$name/log.txt"
  limit=()
  (( max_seconds > 0 )) && limit=(-max_total_time="$max_seconds")
  seeds=()
  [[ -d $src/tests/fuzz/corpus_$name ]] && seeds=("$src/tests/fuzz/corpus_$name")
  nice -n 19 "$f" -runs="$runs" "${limit[@]}" -max_len=65536 -timeout="${FUZZ_TIMEOUT:-60}" -print_final_stats=1 \
    -artifact_prefix="$out/$name/" "$out/$name/corpus" "${seeds[@]}" >"$log" 2>&1
  rc=$?
  secs=$(( $(date +%s) - start ))
  # "Done N runs in S second(s)" when -runs ends it; stat::number_of_executed_units otherwise.
  execs=$(awk '/^stat::number_of_executed_units:/ {print $2}' "$log" | tail -1)
  [[ -z $execs ]] && execs=$(grep -E '^Done [0-9]+ runs' "$log" | tail -1 | awk '{print $2}')
  crashes=$(find "$out/$name" -maxdepth 1 \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
  (( rc != 0 && crashes == 0 )) && crashes=1
  total_crashes=$(( total_crashes + crashes ))
  corpus=$(find "$out/$name/corpus" -type f | wc -l)
  rate=?
  [[ -n $execs ]] && (( secs > 0 )) && rate=$(( execs / secs ))
  printf '%-24s %12s %9s %8s %8s %8s\n' "$name" "${execs:-?}" "$rate" "$crashes" "$secs" "$corpus"
done
exit $(( total_crashes > 0 ))
