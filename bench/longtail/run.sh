#!/usr/bin/env bash
# The long-tail bench (corpus.toml) on this machine: the sources packed from the fetched mirrors
# (pack_device.sh, sha256 checked; nothing is cloned), then run_device.sh for one split, one package
# at a time: torchsmith build and plain `pip wheel --no-build-isolation` on a fresh copy of the same
# source, each wheel verified. Results (results.tsv, summary.txt, logs/) go to --work; a package
# whose results are there is skipped, so an interrupted bench resumes. Hours on 2 cores: run it in
# the background. On a GPU machine with no network, copy .device/longtail and run run_device.sh.
#
#   bench/longtail/run.sh --split dev --python /opt/venv/bin/python --mirrors DIR [--arch 8.6|native]
#       [--torchsmith build/torchsmith] [--work DIR] [--timeout SECONDS] [--jobs N] [--batch N]
#
# --batch: only corpus.toml's batch N (default: all batches); its results go to their own --work
# (default ...-batchN), so one batch's summary never counts another's rows.
# --mirrors: the fetched bare repositories, DIR/OWNER+NAME/repo (default $TORCHSMITH_MIRRORS).
# --arch: torchsmith's --arch, and pip's TORCH_CUDA_ARCH_LIST unless native (default 8.6: a machine
# with no GPU); verify runs with --gpu only where nvidia-smi sees one.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
split="" py="" arch=8.6 ts="$here/../../build/torchsmith" work=${XDG_CACHE_HOME:-$HOME/.cache}/torchsmith-longtail
timeout_s=1200 jobs=$(nproc) mirrors=${TORCHSMITH_MIRRORS:-} batch=all work_set=0
while [ $# -gt 0 ]; do
  case "$1" in
    --split) split=$2; shift 2 ;;
    --python) py=$2; shift 2 ;;
    --arch) arch=$2; shift 2 ;;
    --torchsmith) ts=$2; shift 2 ;;
    --work) work=$2; work_set=1; shift 2 ;;
    --batch) batch=$2; shift 2 ;;
    --timeout) timeout_s=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --mirrors) mirrors=$2; shift 2 ;;
    *) echo "run.sh: unknown argument '$1' (see the comment at the top)" >&2; exit 2 ;;
  esac
done
[ "$split" = dev ] || [ "$split" = held-out ] || { echo "run.sh: --split dev|held-out" >&2; exit 2; }
[ -x "$py" ] || { echo "run.sh: --python: the target Python (with torch)" >&2; exit 2; }
# The packages' smoke imports numpy (few declare it) and verify installs no runtime dependency: a
# target Python without it fails their verify for a reason that is the venv's, not the build's.
"$py" -c 'import numpy' 2>/dev/null ||
  { echo "run.sh: $py cannot import numpy, which the packages' smoke imports; install it first: $py -m pip install numpy" >&2; exit 2; }
[[ "$batch" = all || "$batch" =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: --batch N (1, 2, ...), not '$batch'" >&2; exit 2; }
[ "$batch" = all ] || [ "$work_set" = 1 ] || work=$work-batch$batch
dest=$here/../../.device/longtail
bash "$here/pack_device.sh" --mirrors "$mirrors" --dest "$dest" --batch "$batch" --split "$split"
gpu=0
nvidia-smi -L >/dev/null 2>&1 && gpu=1
TORCHSMITH=$(cd "$(dirname "$ts")" && pwd)/$(basename "$ts") TORCH_PY=$py WORK=$work PAR=1 JOBS=$jobs \
  LIMIT=$timeout_s DEADLINE=$((1 << 30)) SPLIT=$split ARCH=$arch VERIFY_GPU=$gpu ORDER=small \
  exec bash "$dest/run_device.sh"
