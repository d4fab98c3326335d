#!/usr/bin/env bash
# bench/fuzz_campaign.sh itself: a real target's executions are summed over its processes and
# reach RUNS with no crash (exit 0); a target that crashes is counted and makes the campaign exit 1.
# Usage (ctest): tests/fuzz/campaign_test.sh SRC BUILD
set -u
src=$1 build=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ts-fuzz-campaign-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

mkdir "$tmp/ok" "$tmp/bad"
cp "$build/fuzz_verify_fatbin" "$build/fuzz_verify_fatbin.options" "$tmp/ok/"
# As in the bundle (bench/fuzz_bundle.sh): the campaign script sits beside the targets and is not one.
cp "$src/bench/fuzz_campaign.sh" "$tmp/ok/"
FUZZ_JOBS=2 FUZZ_NICE=0 "$src/bench/fuzz_campaign.sh" "$tmp/ok" 4000 "$tmp/out-ok" >"$tmp/ok.txt" 2>&1
rc=$?
cat "$tmp/ok.txt"
(( rc == 0 )) || fail "a clean campaign exited $rc"
read -r name execs crashes _ < <(grep '^verify_fatbin ' "$tmp/ok.txt")
[[ $name == verify_fatbin ]] || fail "no row for verify_fatbin"
(( execs >= 4000 )) || fail "executions $execs below RUNS 4000 (two processes of 2000 each)"
(( crashes == 0 )) || fail "crashes $crashes on a clean run"
grep -q '^campaign' "$tmp/ok.txt" && fail "fuzz_campaign.sh was run as a fuzz target"

# A stand-in for a libFuzzer binary that finds a crash at once, as libFuzzer reports it.
cat >"$tmp/bad/fuzz_crashes" <<'SH'
#!/bin/sh
for a in "$@"; do case $a in -artifact_prefix=*) prefix=${a#-artifact_prefix=} ;; esac; done
printf 'x' >"${prefix}crash-0000"
echo "==1==ERROR: AddressSanitizer: heap-buffer-overflow"
echo "stat::number_of_executed_units: 7"
exit 1
SH
chmod +x "$tmp/bad/fuzz_crashes"
FUZZ_JOBS=2 FUZZ_NICE=0 "$src/bench/fuzz_campaign.sh" "$tmp/bad" 100 "$tmp/out-bad" >"$tmp/bad.txt" 2>&1
rc=$?
cat "$tmp/bad.txt"
(( rc == 1 )) || fail "a crashing campaign exited $rc, not 1"
read -r name execs crashes _ < <(grep '^crashes ' "$tmp/bad.txt")
(( execs == 14 )) || fail "executions $execs, not 7 from each of two processes"
(( crashes >= 1 )) || fail "the crash was not counted"
echo "PASS"
