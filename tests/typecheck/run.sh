#!/usr/bin/env bash
# Runs the typing cases in *.cases: each case is a program rcheck must reject (or accept) with
# the expected message.  A case starts with a header line
#   === NAME | error: FRAGMENT        (rcheck exits 1; stderr has FILE:LINE:COL: error: ...FRAGMENT...)
#   === NAME | ok                     (rcheck exits 0)
# followed by the program (the #[version] header is added).  Prints one line per failure and a
# closing "N passed, N failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
RCHECK=${RCHECK:-$here/../../bin/rcheck}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() { # name expectation file
  local name=$1 want=$2 file=$3 rc
  "$RCHECK" "$file" > "$tmp/out" 2> "$tmp/err"; rc=$?
  if [ "$want" = ok ]; then
    if [ $rc -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $name: expected acceptance, got exit $rc: $(head -1 "$tmp/err")"; fi
    return
  fi
  local frag=${want#error: }
  if [ $rc -eq 1 ] && grep -qE "^$file:[0-9]+:[0-9]+: error: " "$tmp/err" && grep -qF -- "$frag" "$tmp/err"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1)); echo "FAIL $name: expected '$frag', got exit $rc: $(head -1 "$tmp/err")"
  fi
}
for cases in "$here"/*.cases; do
  name="" want="" n=0
  while IFS= read -r line || [ -n "$line" ]; do
    if [[ $line == "=== "* ]]; then
      [ -n "$name" ] && check "$name" "$want" "$tmp/$n.relay"
      n=$((n + 1))
      rest=${line#=== }
      name=${rest%% | *}; want=${rest#* | }
      printf '#[version = "0.0.5"]\n' > "$tmp/$n.relay"
    elif [ -n "$name" ]; then
      printf '%s\n' "$line" >> "$tmp/$n.relay"
    fi
  done < "$cases"
  [ -n "$name" ] && check "$name" "$want" "$tmp/$n.relay"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
