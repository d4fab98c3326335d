#!/usr/bin/env bash
# The long-tail bench on a GPU machine with no network (pack_device.sh put it, packages.tsv and the
# sources in this directory). Each package, several at a time: torchsmith build (native arch) then
# `torchsmith verify WHEEL --gpu --plan OUT/plan.lock.json`, and plain `pip wheel
# --no-build-isolation --no-deps` on a fresh copy of the same source, its wheel verified the same
# way (no plan); each build under a timeout, with the same compile jobs (torchsmith's nvcc
# --split-compile off, so neither gets more threads than pip's MAX_JOBS). Results: results.tsv (name, split, tool, outcome,
# seconds, diagnosis) and summary.txt (built and verified, per split and tool) in WORK and $OUT.
#
#   bash .device/longtail/run_device.sh            (from the repository root on the device)
#
# Env: TORCHSMITH (default: torchsmith here, else .device/torchsmith), TORCH_PY
# (/opt/torch/.venv/bin/python), WORK (/tmp/longtail), PAR (8 builds at once), JOBS (2 compile
# jobs each), LIMIT (240 s a build), DEADLINE (500 s: no build starts after it, a running one is cut
# there, a verify after it gets 40 s more; what did not run is "not-run"; the device's 600 s command
# limit stays clear), SPLIT (all|dev|held-out), ONLY (names, space-separated),
# ARCH (native: torchsmith's --arch; another value, e.g. 8.6, is pip's TORCH_CUDA_ARCH_LIST too, for a
# machine with no GPU), VERIFY_GPU (1; 0 verifies on the CPU), ORDER (big: largest source first; small),
# TOOLS ("torchsmith pip"; one of them alone for a partial run), WHEELHOUSE (default: the wheelhouse/
# pack_device.sh --wheelhouse put here, if any; "none" for none): both tools take Python requirements
# from it alone, the same way: torchsmith `build --wheelhouse` (its build overlay, pybind11 for
# FetchContent) and pip PIP_FIND_LINKS (with PIP_NO_INDEX, as always), and verify installs each wheel's
# runtime dependencies from it (`--wheelhouse`; without one, `--no-runtime-deps`: there is no index).
# A declared dependency the wheelhouse lacks then fails verify, for both tools alike; VERIFY_DEPS=none
# verifies with --no-runtime-deps as earlier runs did (the builds still take the wheelhouse).
# A verify whose every FAIL is a runtime dependency that could not be had (`needs NAME`: a module the
# smoke imports that nothing installed, pytorch3d for VoGE; `dependency NAME`: a Requires-Dist the
# wheelhouse lacks) is the outcome built-needs-deps, counted as built and never as verified; its
# detail names them and the compiled modules verify loaded by their files. pip's wheel, verified with
# no plan, is asked what torchsmith's is with its plan: its Requires-Dist installed from the
# wheelhouse, each top-level and compiled module imported (or loaded by its file), and the generic
# smoke (an import of each top-level package that holds compiled code); a torch module the torch
# lacks (torch._six) is no dependency, so such a wheel is built-not-verified.
# SYSROOT (default: the sysroot/ pack_device.sh --system put here, if any; "none" for none): its
# usr/include goes on CPATH for both tools alike (header-only libraries a package's README asks for).
# header-sources/ (pack_device.sh --system): TORCHSMITH_HEADER_SOURCE_MIRROR, torchsmith's alone.
# A package both of whose results are already in WORK/results.tsv is skipped (a second call resumes).
# summary.txt's first line names the binary's commit (`torchsmith --version`): ledger.py --merge reads it.
set -u
here=$(cd "$(dirname "$0")" && pwd)
ts=${TORCHSMITH:-}
[ -n "$ts" ] || { [ -x "$here/torchsmith" ] && ts=$here/torchsmith; } || ts=$here/../torchsmith
py=${TORCH_PY:-/opt/torch/.venv/bin/python}
work=${WORK:-/tmp/longtail}
par=${PAR:-8} jobs=${JOBS:-2} limit=${LIMIT:-240} deadline=${DEADLINE:-500}
split=${SPLIT:-all} only=${ONLY:-} arch=${ARCH:-native} order=${ORDER:-big} tools=${TOOLS:-torchsmith pip}
gpu=(--gpu)
[ "${VERIFY_GPU:-1}" = 0 ] && gpu=()
house=${WHEELHOUSE:-}
[ -z "$house" ] && [ -d "$here/wheelhouse" ] && house=$here/wheelhouse
[ "$house" = none ] && house=""
ts_house=() pip_house=() deps=(--no-runtime-deps)
if [ -n "$house" ]; then
  house=$(cd "$house" && pwd) || { echo "run_device: error: WHEELHOUSE $house is no directory" >&2; exit 2; }
  ts_house=(--wheelhouse "$house") pip_house=("PIP_FIND_LINKS=$house") deps=(--wheelhouse "$house")
  [ "${VERIFY_DEPS:-wheelhouse}" = none ] && deps=(--no-runtime-deps)
fi
sysroot=${SYSROOT:-}
[ -z "$sysroot" ] && [ -d "$here/sysroot" ] && sysroot=$here/sysroot
[ "$sysroot" = none ] && sysroot=""
if [ -n "$sysroot" ]; then
  sysroot=$(cd "$sysroot" && pwd) || { echo "run_device: error: SYSROOT $sysroot is no directory" >&2; exit 2; }
  export CPATH=$sysroot/usr/include${CPATH:+:$CPATH}
fi
# build.header-source's folders pack_device.sh --system put here: torchsmith's repair brings them from
# this mirror instead of the network (pip has no such remedy).
[ -d "$here/header-sources" ] && export TORCHSMITH_HEADER_SOURCE_MIRROR=$here/header-sources
pip_arch=()
[ "$arch" != native ] && pip_arch=("TORCH_CUDA_ARCH_LIST=$arch")
start=$(date +%s)
die() { echo "run_device: error: $*" >&2; exit 2; }
[ -x "$ts" ] || die "no torchsmith at $ts (set TORCHSMITH, or copy the binary to $here/torchsmith)"
[ -x "$py" ] || die "no Python at $py (set TORCH_PY)"
[ -f "$here/packages.tsv" ] || die "no packages.tsv in $here (run bench/longtail/pack_device.sh)"
export PATH=/usr/local/cuda/bin:$PATH
command -v nvcc >/dev/null || die "no nvcc on PATH (looked in /usr/local/cuda/bin too)"
tlib=$("$py" -c 'import os, torch; print(os.path.join(os.path.dirname(torch.__file__), "lib"))') ||
  die "$py cannot import torch"
mkdir -p "$work/logs" "$work/rows" || die "cannot create $work"
results=$work/results.tsv
echo "# $(date -u +%FT%TZ) $(hostname) cores=$(nproc) par=$par jobs=$jobs arch=$arch limit=${limit}s deadline=${deadline}s" \
  "torch=$("$py" -c 'import torch; print(torch.__version__)') torchsmith=$ts ($("$ts" --version 2>/dev/null | head -1))" \
  "wheelhouse=${house:-none}${house:+ ($(ls "$house" | wc -l) wheels)} verify=${deps[*]} sysroot=${sysroot:-none}" | tee "$work/header.txt"
"$py" -c 'import torch; print("# gpu:", torch.cuda.get_device_name(0) if torch.cuda.is_available() else "none")' |
  tee -a "$work/header.txt"
# numpy: the packages' smoke imports it and verify installs no runtime dependency (no index here).
"$py" -c 'import numpy; print("# numpy:", numpy.__version__)' 2>/dev/null | tee -a "$work/header.txt" | grep -q . ||
  echo "# numpy: none (warning: a package whose smoke imports numpy fails its verify for the venv's sake)" |
  tee -a "$work/header.txt" >&2

left() { echo $((deadline - ($(date +%s) - start))); }
one_line() { tr '\t\n\r' '   ' | cut -c1-300; }

# After a timeout: stop, by pid, what still runs in DIR (a step in its own process group outlives
# timeout's signal to ours and would slow the builds still running).
reap() {
  local p cwd
  for p in /proc/[0-9]*; do
    cwd=$(readlink "$p/cwd" 2>/dev/null) || continue
    case $cwd/ in "$1"/*) kill -9 "${p#/proc/}" 2>/dev/null ;; esac
  done
}

# ROW NAME SPLIT TOOL OUTCOME SECONDS DETAIL
row() { printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "$(printf '%s' "$6" | one_line)" > "$work/rows/$1.$3"; }

# torchsmith's diagnosis of its last run in OUT: the root finding's id and line, else the error.
diagnosis() {
  "$py" - "$1" <<'PY' 2>/dev/null
import glob, json, sys
runs = sorted(glob.glob(sys.argv[1] + "/runs/*/run.json"))
r = json.load(open(runs[-1])) if runs else {}
d = r.get("diagnosis") or {}
f = (d.get("root_cause") or {}) if isinstance(d, dict) else {}
ev = [e.get("text", "") for e in f.get("evidence") or []][:1]
parts = [str(x) for x in [f.get("id"), f.get("cause")] + ev if x]
ports = [x for x in r.get("retries") or [] if x.get("remedy") == "source-port"]
print("; ".join(parts) or r.get("error", "") or r.get("outcome", ""), "| ported" if ports else "")
PY
}

# RUN_ONE NAME SPLIT SUBDIR TARBALL TOOL
run_one() {
  local name=$1 psplit=$2 subdir=$3 tar=$4 tool=$5
  local dir=$work/$tool-$name t0 rc t whl outcome detail=""
  t=$(left)
  if [ "$t" -lt 30 ]; then row "$name" "$psplit" "$tool" not-run 0 "the ${deadline}s deadline came first"; return; fi
  [ "$t" -gt "$limit" ] && t=$limit
  rm -rf "$dir" && mkdir -p "$dir/src" && tar -xzf "$here/$tar" -C "$dir/src" ||
    { row "$name" "$psplit" "$tool" unpack-failed 0 "$tar"; return; }
  local tree=$dir/src/$subdir log=$work/logs/$name-$tool.log
  t0=$(date +%s)
  if [ "$tool" = torchsmith ]; then
    timeout -k 10 "$t" "$ts" build "$tree" --torch "$py" --arch "$arch" --jobs "$jobs" --split-compile off \
      --compile-cache none "${ts_house[@]}" --out "$dir/out" > "$log" 2>&1
    rc=$?
    whl=$(ls "$dir"/out/dist/*.whl 2>/dev/null | head -1)
  else
    (cd "$tree" && env "${pip_arch[@]}" "${pip_house[@]}" MAX_JOBS=$jobs CUDA_HOME=/usr/local/cuda PIP_NO_INDEX=1 \
      PIP_DISABLE_PIP_VERSION_CHECK=1 timeout -k 10 "$t" "$py" -m pip wheel -v --no-build-isolation --no-deps -w "$dir/dist" .) > "$log" 2>&1
    rc=$?
    whl=$(ls "$dir"/dist/*.whl 2>/dev/null | head -1)
  fi
  local secs=$(( $(date +%s) - t0 ))
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
    reap "$dir"
    outcome=timeout detail="cut at ${t}s"
  elif [ -z "$whl" ]; then
    outcome=failed detail="exit $rc"
  else
    # The wheel goes first: --preload takes every path after it (torch/lib: the wheel's NEEDED libs).
    # Runtime dependencies from the wheelhouse only, the same for both tools; without one, none (no
    # index here: an import that needs one warns).
    local plan=() vt=$(( $(left) + 40 ))
    [ "$vt" -gt 180 ] && vt=180
    [ "$vt" -lt 15 ] && vt=15
    [ "$tool" = torchsmith ] && plan=(--plan "$dir/out/plan.lock.json")
    [ "$rc" = 0 ] || detail="build exit $rc with a wheel; "
    local vlog=$work/logs/$name-$tool-verify.log
    if timeout -k 5 "$vt" "$ts" verify "$whl" --python "$py" "${gpu[@]}" "${plan[@]}" "${deps[@]}" \
      --preload "$tlib" > "$vlog" 2>&1; then
      outcome=verified
    else
      local vrc=$?
      outcome=built-not-verified
      # Every FAIL a runtime dependency that could not be had (a module the smoke needs and nothing
      # installed: `needs NAME`; a Requires-Dist the wheelhouse lacks: `dependency NAME`): an outcome
      # of its own, never "verified" (the package's code was not exercised).
      if [ "$vrc" = 1 ] && grep -qE '^ *FAIL ' "$vlog" && ! grep -E '^ *FAIL ' "$vlog" | grep -qvE '^ *FAIL +(needs|dependency) '; then
        outcome=built-needs-deps
        detail="${detail}verify: $(grep -E '^ *FAIL ' "$vlog" | awk '{print $2 " " $3}' | paste -sd, -)$(grep -qE '^ *ok +load ' "$vlog" && echo "; compiled modules load: $(grep -E '^ *ok +load ' "$vlog" | awk '{print $3}' | paste -sd, -)")"
      else
        detail="${detail}verify exit $vrc: $(grep -m1 -iE '^ *fail ' "$vlog")"
      fi
    fi
  fi
  if [ "$tool" = torchsmith ] && [ "$outcome" != verified ]; then detail="$detail; $(diagnosis "$dir/out")"; fi
  if [ "$tool" = pip ] && [ "$outcome" = failed ]; then
    detail="$detail; $(grep -m1 -E 'error:|Error:|fatal error' "$log")"
  fi
  row "$name" "$psplit" "$tool" "$outcome" "$secs" "$detail"
  echo "run_device: $name $tool $outcome ${secs}s (left $(left)s)"
}

# The queue: largest source first (the long builds start early), torchsmith and pip side by side.
queue=$(awk -F'\t' -v s="$split" -v only=" $only " '
  (s == "all" || $2 == s) && (only == "  " || index(only, " " $1 " ")) { print }' "$here/packages.tsv" |
  while IFS=$'\t' read -r name psplit subdir sha tar; do
    case $tar in *.tar.gz) printf '%s\t%s\n' "$(stat -c %s "$here/$tar")" "$name	$psplit	$subdir	$tar" ;;
      *) row "$name" "$psplit" torchsmith unavailable 0 "$tar"; row "$name" "$psplit" pip unavailable 0 "$tar" ;; esac
  done | if [ "$order" = small ]; then sort -n; else sort -rn; fi | cut -f2-)
while IFS=$'\t' read -r name psplit subdir tar; do
  [ -n "$name" ] || continue
  for tool in $tools; do
    [ -f "$work/rows/$name.$tool" ] && ! grep -q $'\tnot-run\t' "$work/rows/$name.$tool" && continue
    while [ "$(jobs -rp | wc -l)" -ge "$par" ]; do wait -n; done
    run_one "$name" "$psplit" "$subdir" "$tar" "$tool" &
  done
done <<< "$queue"
wait

{ printf 'name\tsplit\ttool\toutcome\tseconds\tdiagnosis\n'; cat "$work"/rows/* 2>/dev/null | sort; } > "$results"
{
  cat "$work/header.txt"
  awk -F'\t' 'NR > 1 && $4 != "unavailable" {
      k = $2 " " $3; n[k]++; v[k] += ($4 == "verified")
      b[k] += ($4 == "verified" || $4 == "built-not-verified" || $4 == "built-needs-deps")
      d[k] += ($4 == "built-needs-deps"); nr[k] += ($4 == "not-run") }
    NR > 1 && $4 == "unavailable" { u[$2 " " $3]++ }
    END { for (k in n) printf "%-22s built %2d, built and verified %2d of %2d = %5.1f%% (built, a runtime dependency missing %d; not run %d, unavailable %d)\n",
            k, b[k], v[k], n[k], 100 * v[k] / n[k], d[k], nr[k], u[k] }' "$results" | sort
  echo "# wall $(( $(date +%s) - start ))s; rows: $results"
} > "$work/summary.txt"
cat "$work/summary.txt"
if [ -n "${OUT:-}" ] && [ -d "${OUT:-}" ]; then
  cp "$results" "$work/summary.txt" "$OUT/"
  # The logs' last 300 lines each (a full nvcc log can be megabytes).
  mkdir -p "$work/tails" && for f in "$work"/logs/*.log; do tail -n 300 "$f" > "$work/tails/${f##*/}"; done
  tar -czf "$OUT/longtail_logs.tar.gz" -C "$work" tails
  for d in "$work"/torchsmith-*/out/runs/*/; do [ -f "$d/ports.diff" ] && cp "$d/ports.diff" "$OUT/$(basename "$(dirname "$(dirname "$(dirname "$d")")")").ports.diff"; done
fi
