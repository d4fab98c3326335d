#!/usr/bin/env bash
# long_functions.py on a fixture whose functions' lengths are known: a lambda, a character and a raw
# string with braces inside a function, a member function, a signature over two lines; initializers
# and a lambda at namespace scope are not functions.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
fixture=$1
fail() { echo "FAIL: $*"; exit 1; }
out=$(python3 "$here/long_functions.py" --min 0 "$fixture") || fail "exit $?"
want="    6  $fixture:8  six_lines
    6  $fixture:16  member_of_six
    4  $fixture:26  Outer_qualified"
[ "$out" = "$want" ] || fail "got:
$out
want:
$want"
[ -z "$(python3 "$here/long_functions.py" --min 6 "$fixture")" ] || fail "--min 6 lists a function of 6 lines"
python3 "$here/long_functions.py" --check --min 6 "$fixture" >/dev/null || fail "--check fails with nothing listed"
python3 "$here/long_functions.py" --check --min 5 "$fixture" >/dev/null 2>&1 && fail "--check passes with two functions listed"
echo "long_functions: ok"
