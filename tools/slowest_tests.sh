#!/usr/bin/env bash
# The N slowest tests (default 10) from ctest's output (the "Test #k: NAME ... X sec" lines), slowest
# first, as "seconds  name  status". Usage: slowest_tests.sh CTEST_OUTPUT [N]
set -euo pipefail
n=${2:-10}
# A parameterised test's line carries "# GetParam() = ..." between its name and the dots.
sed -nE 's/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: ([^ ]+) (.* )?\.+ *(\**[A-Za-z][A-Za-z ]*[a-z]) +([0-9.]+) sec$/\4 \1 \3/p' "$1" |
  sort -k1,1 -rn |
  # awk reads to the end: `head` would close the pipe early and sort's SIGPIPE fails the script under pipefail.
  awk -v n="$n" 'NR <= n { s=$3; for (i=4; i<=NF; i++) s=s" "$i; printf "%9.2f s  %s  %s\n", $1, $2, s }'
