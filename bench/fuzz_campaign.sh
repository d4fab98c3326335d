#!/usr/bin/env bash
# A long fuzz campaign: each libFuzzer target in BUILD (fuzz_*) runs RUNS executions, one at a time
# and under nice -n 19 so it never starves the machine; prints executions, crashes and time per
# parser. Crash inputs are kept under OUT/<target>/.
# Usage: bench/fuzz_campaign.sh [BUILD=build] [RUNS=10000000] [OUT=BUILD/fuzz-campaign]
set -u
build=${1:-build}
runs=${2:-10000000}
out=${3:-$build/fuzz-campaign}
src=$(cd "$(dirname "$0")/.." && pwd)
shopt -s nullglob
targets=()
for f in "$build"/fuzz_*; do [[ -x $f && -f $f ]] && targets+=("$f"); done
if (( ${#targets[@]} == 0 )); then
  echo "fuzz_campaign: no fuzz_* targets in $build (build them: cmake --build $build --target verify_fuzz formats_fuzz triage_fuzz)" >&2
  exit 2
fi
printf '%-24s %14s %8s %10s\n' parser executions crashes seconds
total_crashes=0
for f in "${targets[@]}"; do
  name=${f##*/fuzz_}
  mkdir -p "$out/$name/corpus"
  start=$(date +%s)
  log="$out/$name/log.txt"
  nice -n 19 "$f" -runs="$runs" -max_len=65536 -timeout=10 -artifact_prefix="$out/$name/" \
    "$out/$name/corpus" "$src/tests/fuzz/corpus_$name" >"$log" 2>&1
  rc=$?
  secs=$(( $(date +%s) - start ))
  done_line=$(grep -E '^Done [0-9]+ runs' "$log" | tail -1)
  execs=$(awk '{print $2}' <<<"$done_line")
  crashes=$(find "$out/$name" -maxdepth 1 -name 'crash-*' -o -maxdepth 1 -name 'leak-*' -o -maxdepth 1 -name 'timeout-*' | wc -l)
  (( rc != 0 && crashes == 0 )) && crashes=1
  total_crashes=$(( total_crashes + crashes ))
  printf '%-24s %14s %8s %10s\n' "$name" "${execs:-?}" "$crashes" "$secs"
done
exit $(( total_crashes > 0 ))
