#!/usr/bin/env bash
# The long fuzz campaign: every libFuzzer target in DIR (fuzz_*) runs RUNS executions in all,
# spread over JOBS processes at once (one per core); prints a table of executions, crashes, exec/s,
# CPU seconds, executions per CPU second and seconds per parser and exits 1 when any target crashed (or left a timeout/leak/oom input).
# Usage: bench/fuzz_campaign.sh [DIR=build] [RUNS=10000000] [OUT=~/.cache/ts-fuzz]
#   DIR: a build directory, or an unpacked build/fuzz-bundle.tar.gz (`cmake --build build --target
#   fuzz_bundle`): fuzz_<t> binaries, fuzz_<t>.options (max_len) and corpus_<t>/ seeds beside them.
# Environment: FUZZ_JOBS=C processes per target (default: all cores); FUZZ_TARGETS="tar elf ..."
# runs only those (names without fuzz_, as a suffix match); FUZZ_MAX_SECONDS=S stops each target
# after S seconds when RUNS cannot finish in the time there is (the table then says how far it
# got); FUZZ_TIMEOUT=S (default 10) is the per-input limit; FUZZ_NICE (default 19) the niceness.
# Crash inputs and per-process logs are kept under OUT/<target>/ (keep OUT outside the repository).
set -u
dir=${1:-build}
runs=${2:-10000000}
out=${3:-${XDG_CACHE_HOME:-$HOME/.cache}/ts-fuzz}
jobs=${FUZZ_JOBS:-$(nproc)}
max_seconds=${FUZZ_MAX_SECONDS:-0}
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
shopt -s nullglob

[[ $runs =~ ^[0-9]+$ && $jobs =~ ^[1-9][0-9]*$ && $max_seconds =~ ^[0-9]+$ ]] ||
  { echo "fuzz_campaign: RUNS, FUZZ_JOBS and FUZZ_MAX_SECONDS must be whole numbers" >&2; exit 2; }
targets=()
for f in "$dir"/fuzz_*; do
  # Targets are fuzz_<name> with no extension: the bundle also holds fuzz_campaign.sh itself and .options.
  [[ -x $f && -f $f && ${f##*/} != *.* ]] || continue
  if [[ -n ${FUZZ_TARGETS:-} ]]; then
    keep=0
    for n in $FUZZ_TARGETS; do [[ ${f##*/fuzz_} == *"$n" ]] && keep=1; done
    (( keep )) || continue
  fi
  targets+=("$f")
done
if (( ${#targets[@]} == 0 )); then
  echo "fuzz_campaign: no fuzz_* targets in $dir${FUZZ_TARGETS:+ matching '$FUZZ_TARGETS'} (build them:" \
       "cmake --build build --target fuzz_bundle, or the <group>_fuzz targets)" >&2
  exit 2
fi
mkdir -p "$out" || { echo "fuzz_campaign: cannot create $out" >&2; exit 2; }
out=$(cd "$out" && pwd)

# A target's max_len from its .options file (beside the binary, else tests/fuzz/); 4096 without one.
max_len_of() {
  local name=$1 opt
  for opt in "$dir/fuzz_$name.options" "$src/tests/fuzz/$name.options"; do
    if [[ -f $opt ]]; then
      awk -F'=' '/^max_len *=/ {gsub(/ /, "", $2); print $2; exit}' "$opt"
      return
    fi
  done
  echo 4096
}

# CPU seconds of the finished children (the second line of bash's `times`, run in this shell, not a
# subshell): executions per CPU second is the per-core rate even on a machine shared with others.
children_cpu() { awk 'NR == 2 {
  split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%.2f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$1"; }

printf '%-22s %12s %8s %9s %8s %12s %8s %7s\n' parser executions crashes exec/s cpu_s exec/cpu_s seconds corpus
total_crashes=0
short=0
for f in "${targets[@]}"; do
  name=${f##*/fuzz_}
  work="$out/$name"
  mkdir -p "$work/corpus"
  rm -f "$work"/job-*.log
  seeds=()
  if [[ -d $dir/corpus_$name ]]; then seeds=("$dir/corpus_$name")
  elif [[ -d $src/tests/fuzz/corpus_$name ]]; then seeds=("$src/tests/fuzz/corpus_$name"); fi
  limit=()
  (( max_seconds > 0 )) && limit=(-max_total_time="$max_seconds")
  per_job=$(( (runs + jobs - 1) / jobs ))
  max_len=$(max_len_of "$name")
  start=$(date +%s.%N)
  times >"$work/times-before"
  pids=()
  for (( j = 0; j < jobs; j++ )); do
    # Each process its own seed and log; they share the corpus directory, so what one finds the
    # others read when they next reload it.
    nice -n "${FUZZ_NICE:-19}" "$f" -runs="$per_job" "${limit[@]}" -max_len="$max_len" \
      -timeout="${FUZZ_TIMEOUT:-10}" -seed=$(( 1000 + j )) -print_final_stats=1 \
      -artifact_prefix="$work/" "$work/corpus" "${seeds[@]}" >"$work/job-$j.log" 2>&1 &
    pids+=($!)
  done
  failed=0
  for p in "${pids[@]}"; do wait "$p" || failed=$(( failed + 1 )); done
  secs=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN {printf "%.1f", e - s}')
  times >"$work/times-after"
  cpu=$(awk -v a="$(children_cpu "$work/times-before")" -v b="$(children_cpu "$work/times-after")" \
        'BEGIN {printf "%.1f", b - a}')
  # Every process ends with "stat::number_of_executed_units: N" (-print_final_stats, crashes too);
  # a process killed before that counts its last "#N" status line.
  execs=0
  for log in "$work"/job-*.log; do
    n=$(awk '/^stat::number_of_executed_units:/ {print $2}' "$log" | tail -1)
    [[ -z $n ]] && n=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#')
    execs=$(( execs + ${n:-0} ))
  done
  artifacts=$(find "$work" -maxdepth 1 \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \
              -o -name 'oom-*' \) -newermt "@${start%.*}" | wc -l)
  crashes=$(( artifacts > failed ? artifacts : failed ))
  total_crashes=$(( total_crashes + crashes ))
  (( execs < runs )) && short=1
  corpus=$(find "$work/corpus" -type f | wc -l)
  rate=$(awk -v n="$execs" -v s="$secs" 'BEGIN {printf "%d", (s > 0 ? n / s : 0)}')
  per_cpu=$(awk -v n="$execs" -v c="$cpu" 'BEGIN {printf "%d", (c > 0 ? n / c : 0)}')
  printf '%-22s %12s %8s %9s %8s %12s %8s %7s\n' "$name" "$execs" "$crashes" "$rate" "$cpu" "$per_cpu" "$secs" "$corpus"
done
echo "($jobs processes per target; RUNS=$runs; logs and any crash inputs under $out)"
(( short )) && echo "note: a target ran fewer than RUNS executions (FUZZ_MAX_SECONDS or a crash stopped it)"
if (( total_crashes > 0 )); then
  echo "fuzz_campaign: $total_crashes crash(es): see $out/<parser>/job-*.log and the crash-* inputs" >&2
  exit 1
fi
exit 0
