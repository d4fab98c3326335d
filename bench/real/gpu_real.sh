#!/bin/bash
# GPU machine (torch 2.11+cu130, 16 cores, no network): real CUDA extensions built by torchsmith for
# the native arch vs the package's default build with the GPU hidden, then `verify --gpu`.
# Run from the repository root: bash .device/gpu_real.sh [all|extension-cpp|torch_scatter]
# Results also go to $OUT. torch_scatter's three builds may pass the device's 10-minute command
# limit: start it detached (setsid nohup bash .device/gpu_real.sh torch_scatter >/tmp/gr.out 2>&1 &)
# and read /tmp/gpu_real/summary.txt in the next call while the machine is still held.
# Env: TORCHSMITH (.device/torchsmith), TORCH_PY (/opt/torch/.venv/bin/python), WORK (/tmp/gpu_real),
#      JOBS (16), LIMIT (280 s per build), GPU_REAL_PREFLIGHT=0 skips the CUDA/GPU checks (dry tests).
# Uses only the tarballs next to this script; never touches the network.
set -u
which=${1:-all}
case $which in all | extension-cpp | torch_scatter) ;; *)
  echo "usage: $0 [all|extension-cpp|torch_scatter]" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
ts=${TORCHSMITH:-$here/torchsmith}
py=${TORCH_PY:-/opt/torch/.venv/bin/python}
work=${WORK:-/tmp/gpu_real}
jobs=${JOBS:-16}
limit=${LIMIT:-280}
summary=$work/summary.txt

die() { echo "gpu_real: error: $*" >&2; exit 2; }

[ -x "$ts" ] || die "no torchsmith binary at $ts (copy build/torchsmith there or set TORCHSMITH)"
[ -x "$py" ] || die "no Python at $py (set TORCH_PY to the CUDA torch's interpreter)"
ext_tar=$(ls "$here"/extension-cpp-*.tar.gz 2>/dev/null | head -1)
sc_tar=$(ls "$here"/pytorch_scatter-*.tar.gz 2>/dev/null | head -1)
[ -n "$ext_tar" ] || die "no extension-cpp-*.tar.gz in $here"
[ -n "$sc_tar" ] || die "no pytorch_scatter-*.tar.gz in $here"
export PATH=/usr/local/cuda/bin:$PATH

if [ "${GPU_REAL_PREFLIGHT:-1}" != 0 ]; then
  # Everything below needs a CUDA torch, a visible GPU and nvcc: say which one is missing, then stop.
  "$py" - <<'PY' || die "this script needs a CUDA build of torch and a visible GPU (see the line above)"
import sys
try:
    import torch
except Exception as e:
    sys.exit(f"gpu_real: cannot import torch: {e}")
if not torch.version.cuda:
    sys.exit(f"gpu_real: torch {torch.__version__} has no CUDA (torch.version.cuda is None)")
if not torch.cuda.is_available():
    sys.exit(f"gpu_real: torch {torch.__version__}+cu{torch.version.cuda} sees no GPU")
cc = torch.cuda.get_device_capability(0)
print(f"gpu_real: torch {torch.__version__} CUDA {torch.version.cuda}, "
      f"{torch.cuda.get_device_name(0)} sm_{cc[0]}{cc[1]}, torch arch list {torch.cuda.get_arch_list()}")
PY
  command -v nvcc >/dev/null || die "no nvcc on PATH (looked in /usr/local/cuda/bin too)"
fi

# torch's own arch list as TORCH_CUDA_ARCH_LIST ("7.5;8.0;...;12.0"); empty for a CPU torch.
torch_arches=$("$py" -c 'import re, torch
m = [re.fullmatch(r"sm_(\d+)(\d)([a-z]?)", a) for a in torch.cuda.get_arch_list()]
print(";".join(f"{x[1]}.{x[2]}{x[3]}" for x in m if x))' 2>/dev/null)
mkdir -p "$work/logs" "$work/src" || die "cannot create $work"
say() { echo "$*" | tee -a "$summary"; }
say "# gpu_real $(date -u +%FT%TZ) host=$(hostname) cores=$(nproc) jobs=$jobs limit=${limit}s"
say "# torch arches=${torch_arches:-none} torchsmith=$ts python=$py nvcc=$(nvcc --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\).*/\1/p')"

# Fresh tree per build: pip writes build/ and egg-info into the tree it builds.
unpack() {  # TARBALL NAME -> prints the tree's path
  local dir=$work/src/$2
  mkdir -p "$dir" && tar -xzf "$1" -C "$dir" && echo "$dir/$(ls "$dir" | head -1)"
}

# The SASS/PTX arches inside a wheel's shared objects (cuobjdump when present, else "unknown").
wheel_arches() {  # WHEEL
  local whl=$1 tmp
  [ -f "$whl" ] || { echo none; return; }
  command -v cuobjdump >/dev/null || { echo unknown; return; }
  tmp=$(mktemp -d) && (cd "$tmp" && "$py" -m zipfile -e "$whl" . >/dev/null 2>&1)
  local a
  a=$(find "$tmp" -name '*.so' -exec cuobjdump --list-elf --list-ptx {} \; 2>/dev/null |
    grep -oE '(sm|compute)_[0-9]+[af]?' | sort -u | tr '\n' ',' | sed 's/,$//')
  rm -rf "$tmp"
  echo "${a:-none}"
}

# After a timeout: stop, by pid, what still runs in this build's directories (a compile step in its
# own process group outlives `timeout`'s signal to ours and would skew the next measurement).
reap() {
  local p cwd d
  for p in /proc/[0-9]*; do
    cwd=$(readlink "$p/cwd" 2>/dev/null) || continue
    for d in "$@"; do
      case $cwd/ in "$d"/*) kill -9 "${p#/proc/}" 2>/dev/null && echo "gpu_real: stopped pid ${p#/proc/} in $cwd" >&2 ;; esac
    done
  done
}

# MEASURE PKG HOW LOG CMD... : runs CMD under `timeout $limit`, records rc and wall seconds.
declare -A wall rcs
measure() {
  local pkg=$1 how=$2 log=$3
  shift 3
  local t0 t1 rc
  t0=$(date +%s.%N)
  timeout -k 10 "$limit" "$@" >"$log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  [ "$rc" = 124 ] || [ "$rc" = 137 ] && reap "$work/src" "$work/ts-$pkg" "$work/$how-$pkg"
  wall[$pkg/$how]=$("$py" -c "print($t1 - $t0)")
  rcs[$pkg/$how]=$rc
  [ "$rc" = 124 ] && echo "gpu_real: $pkg/$how hit the ${limit}s cap" >&2
}

# DEFAULT_BUILD PKG TARBALL HOW ENV-CMD... : pip wheel in a fresh tree, timed, with its RESULT and
# its RATIO to torchsmith's build of the same package.
default_build() {
  local pkg=$1 tar=$2 how=$3
  shift 3
  local tree dflt=$work/$how-$pkg
  rm -rf "$dflt" && mkdir -p "$dflt"
  tree=$(unpack "$tar" "$how-$pkg") || die "cannot unpack $tar"
  measure "$pkg" "$how" "$work/logs/$pkg-$how.log" "$@" \
    bash -c 'cd "$1" && exec "$2" -m pip wheel --no-build-isolation --no-deps -w "$3" .' _ \
    "$tree" "$py" "$dflt"
  local dwhl gencode
  dwhl=$(ls "$dflt"/*.whl 2>/dev/null | head -1)
  gencode=$(grep -oE 'arch=compute_[0-9]+[af]?,code=sm_[0-9]+[af]?' "$work/logs/$pkg-$how.log" |
    sed 's/.*code=//' | sort -u | tr '\n' ',' | sed 's/,$//')
  say "RESULT $pkg $how rc=${rcs[$pkg/$how]} wall_s=$(printf %.1f "${wall[$pkg/$how]}")" \
    "arches=$(wheel_arches "$dwhl") gencode_in_log=${gencode:-none} wheel=${dwhl:-none}" \
    "log=$work/logs/$pkg-$how.log"
  local t=${rcs[$pkg/torchsmith]} d=${rcs[$pkg/$how]}
  local r
  r=$("$py" -c "print(f'{${wall[$pkg/$how]} / ${wall[$pkg/torchsmith]}:.2f}')")
  if [ "$t" = 0 ] && [ "$d" = 0 ]; then
    say "RATIO $pkg $how/torchsmith = $r"
  elif [ "$t" = 0 ] && { [ "$d" = 124 ] || [ "$d" = 137 ]; }; then
    say "RATIO $pkg $how/torchsmith >= $r (the default build hit the ${limit}s cap)"
  else
    say "RATIO $pkg $how none: a build failed (rc torchsmith $t, $how $d); see the logs"
    tail -n 8 "$work/logs/$pkg-$how.log" >&2
  fi
}

run_pair() {  # PKG TARBALL [VAR=VALUE ...] (extra env for both builds)
  local pkg=$1 tar=$2
  shift 2
  local tree whl ts_out=$work/ts-$pkg
  rm -rf "$work/src/"*"-$pkg" "$ts_out"  # a rerun starts clean
  # (a) torchsmith: plan, native arch, no compile cache so the figure is compile work, verify.
  tree=$(unpack "$tar" "ts-$pkg") || die "cannot unpack $tar"
  measure "$pkg" torchsmith "$work/logs/$pkg-torchsmith.log" \
    env "$@" "$ts" build "$tree" --torch "$py" --out "$ts_out" --arch native --compile-cache none
  whl=$(ls "$ts_out"/dist/*.whl 2>/dev/null | head -1)
  # Its compile step alone (run.json), since the wall time also holds repair and verify.
  local steps
  steps=$("$py" -c 'import json, glob, sys
r = sorted(glob.glob(sys.argv[1] + "/runs/*/run.json"))
d = json.load(open(r[-1])) if r else {}
print(" ".join("%s_s=%.1f" % (s["name"], s["seconds"]) for s in d.get("steps", [])) or "steps=none")' \
    "$ts_out" 2>/dev/null)
  say "RESULT $pkg torchsmith-native rc=${rcs[$pkg/torchsmith]} wall_s=$(printf %.1f "${wall[$pkg/torchsmith]}")" \
    "${steps:-steps=none} arches=$(wheel_arches "$whl") wheel=${whl:-none} log=$work/logs/$pkg-torchsmith.log"
  # (b) the package's default, as issue 8 states it: GPU hidden, no TORCH_CUDA_ARCH_LIST.
  default_build "$pkg" "$tar" default-gpu-hidden \
    env -u TORCH_CUDA_ARCH_LIST CUDA_VISIBLE_DEVICES= MAX_JOBS="$jobs" "$@"
  # (c) every arch torch carries, GPU visible: what (b) means when torch has no arch default
  # without a GPU, and the only CUDA build of extension-cpp (it compiles CUDA only with a GPU seen).
  if [ -n "$torch_arches" ]; then
    default_build "$pkg" "$tar" default-torch-arches \
      env TORCH_CUDA_ARCH_LIST="$torch_arches" MAX_JOBS="$jobs" "$@"
  else
    say "RESULT $pkg default-torch-arches skipped: this torch lists no CUDA arches"
  fi
  # verify --gpu on torchsmith's wheel, against the lock it was built from.
  if [ -n "$whl" ]; then
    # torch/lib is preloaded as `import torch` does: the wheel's NEEDED libc10*/libtorch* live there.
    local tlib
    tlib=$("$py" -c 'import os, torch; print(os.path.join(os.path.dirname(torch.__file__), "lib"))')
    # The wheel goes first: --preload takes every path after it.
    "$ts" verify "$whl" --python "$py" --gpu --plan "$ts_out/plan.lock.json" --preload "$tlib" \
      >"$work/logs/$pkg-verify.log" 2>&1
    say "VERIFY $pkg --gpu rc=$? log=$work/logs/$pkg-verify.log"
    tail -n 20 "$work/logs/$pkg-verify.log"
  else
    say "VERIFY $pkg skipped: torchsmith built no wheel"
  fi
}

[ "$which" = torch_scatter ] || run_pair extension-cpp "$ext_tar"
[ "$which" = extension-cpp ] || run_pair torch_scatter "$sc_tar" FORCE_CUDA=1

if [ -n "${OUT:-}" ] && [ -d "${OUT:-}" ]; then
  cp "$summary" "$OUT/gpu_real_summary.txt"
  tar -czf "$OUT/gpu_real_logs.tar.gz" -C "$work" logs $(cd "$work" && ls -d ts-*/runs 2>/dev/null)
fi
echo "== summary ($summary)"
cat "$summary"
