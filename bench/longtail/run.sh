#!/usr/bin/env bash
# The long-tail bench (corpus.toml): each package of one split built against the target torch with
# torchsmith, and with plain `pip wheel --no-build-isolation` on a fresh copy of the same source for
# comparison, compile-only for one arch. Results go to a TSV file; a package already there is
# skipped, so an interrupted bench resumes. It takes hours on 2 cores: run it in the background.
#
#   bench/longtail/run.sh --split dev --python /opt/venv/bin/python --cuda-home DIR [--arch 8.6]
#       [--torchsmith build/torchsmith] [--results FILE] [--timeout SECONDS] [--pin]
#
# --python: the interpreter whose torch is the target (the newest on PyPI); --cuda-home: a toolkit of
# that torch's CUDA (torchsmith toolkit provisions one), given to pip's build and to torchsmith's
# (--toolkit DIR); --pin: write the sha256 of each fetched source into a copy of the manifest
# (FILE.pinned) instead of refusing an unpinned entry. Sources go to ~/.cache/torchsmith-longtail.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
split="" py="" cuda_home="" arch="8.6" ts="$here/../../build/torchsmith" timeout_s=1200 pin=0
results="$here/results.tsv"
while [ $# -gt 0 ]; do
  case "$1" in
    --split) split=$2; shift 2 ;;
    --python) py=$2; shift 2 ;;
    --cuda-home) cuda_home=$2; shift 2 ;;
    --arch) arch=$2; shift 2 ;;
    --torchsmith) ts=$2; shift 2 ;;
    --results) results=$2; shift 2 ;;
    --timeout) timeout_s=$2; shift 2 ;;
    --pin) pin=1; shift ;;
    *) echo "run.sh: unknown argument '$1' (see the comment at the top)" >&2; exit 2 ;;
  esac
done
[ "$split" = dev ] || [ "$split" = held-out ] || { echo "run.sh: --split dev|held-out" >&2; exit 2; }
[ -x "$py" ] || { echo "run.sh: --python: the target Python (with torch)" >&2; exit 2; }
[ -x "$cuda_home/bin/nvcc" ] || { echo "run.sh: --cuda-home: a directory with bin/nvcc" >&2; exit 2; }
cache=${XDG_CACHE_HOME:-$HOME/.cache}/torchsmith-longtail
mkdir -p "$cache/src" "$cache/work"
[ -f "$results" ] || printf 'name\tsplit\ttool\toutcome\tseconds\tdetail\n' > "$results"
torch_version=$("$py" -c 'import torch; print(torch.__version__)')

# name repo commit subdir split sha256, one package a line, from the manifest.
packages() {
  "$py" - "$here/corpus.toml" <<'PY'
import sys, tomllib
for p in tomllib.load(open(sys.argv[1], "rb"))["package"]:
    print("\t".join([p["name"], p["repo"], p["commit"], p["subdir"] or ".", p["split"], p["sha256"] or "-"]))
PY
}

record() { printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$split" "$2" "$3" "$4" "$5" >> "$results"; }
done_already() { awk -F'\t' -v n="$1" -v t="$2" '$1 == n && $3 == t { f = 1 } END { exit !f }' "$results"; }

packages | while IFS=$'\t' read -r name repo commit subdir psplit sha; do
  [ "$psplit" = "$split" ] || continue
  repo_dir="$cache/src/$name"
  if [ ! -d "$repo_dir/.git" ]; then
    git clone --quiet --filter=blob:none --no-checkout -- "$repo" "$repo_dir"
  fi
  git -C "$repo_dir" fetch --quiet origin "$commit" 2>/dev/null || true
  got=$(git -C "$repo_dir" archive --format=tar "$commit" -- "$subdir" | sha256sum | cut -d' ' -f1)
  if [ "$sha" = "-" ]; then
    if [ "$pin" = 1 ]; then echo "$name $got" >> "$here/corpus.toml.pinned"
    else record "$name" fetch unpinned 0 "sha256 $got not in the manifest (--pin writes it)"; continue; fi
  elif [ "$sha" != "$got" ]; then
    record "$name" fetch sha256-mismatch 0 "manifest $sha, fetched $got"; continue
  fi
  for tool in torchsmith pip; do
    done_already "$name" "$tool" && continue
    work="$cache/work/$name-$tool"
    rm -rf "$work" && mkdir -p "$work"
    git -C "$repo_dir" archive --format=tar "$commit" -- "$subdir" | tar -x -C "$work"
    src="$work/$subdir"
    log="$cache/work/$name-$tool.log"
    start=$(date +%s)
    if [ "$tool" = torchsmith ]; then
      cmd=("$ts" build "$src" --torch "$py" --arch "$arch" --toolkit "$cuda_home" --out "$work/out")
    else
      cmd=(env "CUDA_HOME=$cuda_home" "TORCH_CUDA_ARCH_LIST=$arch" "PATH=$cuda_home/bin:$PATH"
           "$py" -m pip wheel --no-build-isolation --no-deps -w "$work/dist" "$src")
    fi
    if timeout "$timeout_s" "${cmd[@]}" > "$log" 2>&1; then outcome=built
    elif [ $? = 124 ]; then outcome=timeout
    else outcome=failed; fi
    record "$name" "$tool" "$outcome" "$(( $(date +%s) - start ))" "torch $torch_version, arch $arch, log $log"
  done
done
echo "results: $results"
awk -F'\t' -v s="$split" 'NR > 1 && $2 == s && $3 != "fetch" { n[$3]++; b[$3] += ($4 == "built") }
  END { for (t in n) printf "%s: %d/%d built (%s)\n", t, b[t], n[t], s }' "$results"
