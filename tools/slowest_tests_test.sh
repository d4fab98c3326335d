#!/usr/bin/env bash
# slowest_tests.sh: exit 0 and the right lines, on the recorded output and on one as long as the whole
# suite's (a short input never filled the pipe, so a reader that stopped early passed before).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
fixture=$1
fail() { echo "FAIL: $*"; exit 1; }
out=$(bash "$here/slowest_tests.sh" "$fixture" 3) || fail "exit $? on the recorded output"
printf '%s\n' "$out" | grep -qE '^ +2400.05 s  RealPackagesNet[.][A-Za-z]+  [*]+Timeout$' || fail "no timeout line: $out"
[ "$(printf '%s\n' "$out" | wc -l)" -eq 3 ] || fail "not 3 lines: $out"
big=$(mktemp); trap 'rm -f "$big"' EXIT
for i in $(seq 1 5000); do
  printf '%d/5000 Test #%d: Some/Suite.A_long_parameterised_name_%d  # GetParam() = x ........   Passed    %d.%02d sec\n' \
    "$i" "$i" "$i" $((i % 97)) $((i % 100))
done > "$big"
out=$(bash "$here/slowest_tests.sh" "$big" 10) || fail "exit $? on 5000 tests"
[ "$(printf '%s\n' "$out" | wc -l)" -eq 10 ] || fail "not 10 lines on 5000 tests"
printf '%s\n' "$out" | head -n 1 | grep -qE '^ +96\.' || fail "slowest first: $(printf '%s\n' "$out" | head -n 1)"
echo "slowest_tests: ok"
