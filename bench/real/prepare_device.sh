#!/bin/bash
# Puts the GPU run's inputs under .device/ (git-ignored, copied to the GPU machine): `git archive`
# tarballs of already-fetched mirrors and gpu_real.sh. It never fetches: pass mirror git dirs.
# Usage: bench/real/prepare_device.sh SCATTER_GIT[@REV] EXTCPP_GIT[@REV]
#   e.g. $MIRRORS/rusty1s+pytorch_scatter/repo@HEAD $MIRRORS/pytorch+extension-cpp/repo
set -eu
[ $# -eq 2 ] || { echo "usage: $0 SCATTER_GIT[@REV] EXTCPP_GIT[@REV]" >&2; exit 2; }
root=$(cd "$(dirname "$0")/../.." && pwd)
dev=$root/.device
mkdir -p "$dev"
pack() {  # GIT[@REV] PREFIX
  local git=${1%@*} rev=HEAD
  [ "$git" != "$1" ] && rev=${1##*@}
  git -C "$git" rev-parse --verify -q "$rev^{commit}" >/dev/null ||
    { echo "$0: no commit $rev in $git (fetch the mirror first)" >&2; exit 2; }
  local short out
  short=$(git -C "$git" rev-parse --short=7 "$rev")
  out=$dev/$2-$short.tar.gz
  rm -f "$dev/$2"-*.tar.gz  # gpu_real.sh takes the first match: keep one
  git -C "$git" archive --prefix="$2/" -o "$out" "$rev"
  local size
  size=$(stat -c %s "$out")
  [ "$size" -lt $((20 << 20)) ] || { echo "$0: $out is $size bytes (> 20 MiB)" >&2; exit 1; }
  echo "$out $size bytes"
}
pack "$1" pytorch_scatter
pack "$2" extension-cpp
install -m 755 "$root/bench/real/gpu_real.sh" "$dev/gpu_real.sh"
echo "$dev/gpu_real.sh (run there: bash .device/gpu_real.sh [all|extension-cpp|torch_scatter])"
