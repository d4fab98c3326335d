#!/usr/bin/env bash
# Packs the built fuzz targets into one archive that runs on another Linux machine (a 16-core box
# for the long campaign): fuzz_<t> binaries (ASan+UBSan, libstdc++ static, glibc dynamic), their
# .options, their seed corpora and fuzz_campaign.sh. Refuses a binary that needs another shared
# library. Usage (the fuzz_bundle target runs it): bench/fuzz_bundle.sh SRC BUILD OUT.tar.gz
# Then, there: tar xf fuzz-bundle.tar.gz && fuzz-bundle/fuzz_campaign.sh fuzz-bundle 10000000 /tmp/fz
set -euo pipefail
src=$1 build=$2 archive=$3
stage="$build/fuzz-bundle"
rm -rf "$stage"
mkdir -p "$stage"
shopt -s nullglob
n=0
for f in "$build"/fuzz_*; do
  [[ -f $f && -x $f && $f != *.options ]] || continue
  name=${f##*/fuzz_}
  # glibc's own libraries only: anything else would be missing on a box without our -dev packages.
  others=$(ldd "$f" | awk '{print $1}' | grep -vE '^(linux-vdso\.so|/lib64/ld-linux-x86-64\.so|lib(c|m|dl|rt|pthread|util|resolv)\.so)' || true)
  if [[ -n $others ]]; then
    echo "fuzz_bundle: $f needs $(echo $others) at run time; link it statically" >&2
    exit 1
  fi
  cp "$f" "$stage/"
  cp "$src/tests/fuzz/$name.options" "$stage/fuzz_$name.options"  # the source's, current even before a rebuild
  [[ -d $src/tests/fuzz/corpus_$name ]] && cp -r "$src/tests/fuzz/corpus_$name" "$stage/"
  n=$(( n + 1 ))
done
(( n > 0 )) || { echo "fuzz_bundle: no fuzz_* binaries in $build" >&2; exit 1; }
cp "$src/bench/fuzz_campaign.sh" "$stage/"
tar -C "$build" -czf "$archive.tmp" fuzz-bundle
mv "$archive.tmp" "$archive"
echo "fuzz_bundle: $n targets in $archive ($(du -h "$archive" | cut -f1)); run: tar xf $(basename "$archive") && fuzz-bundle/fuzz_campaign.sh fuzz-bundle"
