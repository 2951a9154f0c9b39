#!/usr/bin/env bash
# bench/server.sh: the persistent oracle protocol's pay-off.  The same reduction (resnet-18, keep
# nn.dense) with a test that costs one second to start (as `import tvm` does, twice over), run
# once as a command per candidate and once as an `rreduce --server` that starts once per job.
# Prints the times and the ratio; the results must be byte-identical.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
make -s -j2 bin/rreduce bin/rcheck >&2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rserver.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
rcheck=$root/bin/rcheck
cat > "$tmp/slow.sh" <<T
#!/bin/sh
sleep 1
"$rcheck" "\$1" >/dev/null 2>&1 && grep -q 'nn.dense(' "\$1"
T
cat > "$tmp/server.sh" <<T
#!/bin/sh
sleep 1
while IFS= read -r path; do
  if "$rcheck" "\$path" >/dev/null 2>&1 && grep -q 'nn.dense(' "\$path"; then echo 0; else echo 1; fi
done
T
chmod +x "$tmp/slow.sh" "$tmp/server.sh"
src=../shared/corpus/models/resnet-18.relay
for j in 1 2; do
  cp "$src" "$tmp/a.relay"
  cp "$src" "$tmp/b.relay"
  s=$(date +%s.%N); bin/rreduce -j$j --tidy --json "$tmp/a.relay" "$tmp/slow.sh" > "$tmp/a.json"; e=$(date +%s.%N)
  t_cmd=$(awk -v s="$s" -v e="$e" 'BEGIN {print e - s}')
  s=$(date +%s.%N); bin/rreduce -j$j --tidy --json --server "$tmp/server.sh" "$tmp/b.relay" > "$tmp/b.json"; e=$(date +%s.%N)
  t_srv=$(awk -v s="$s" -v e="$e" 'BEGIN {print e - s}')
  same=$(cmp -s "$tmp/a.relay" "$tmp/b.relay" && echo yes || echo NO)
  tests=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["tests_run"])' "$tmp/a.json")
  printf 'resnet-18 keep nn.dense, -j%s: %s tests; command test %.1f s, --server %.1f s: %.1fx faster; same result: %s\n' \
    "$j" "$tests" "$t_cmd" "$t_srv" "$(awk -v a="$t_cmd" -v b="$t_srv" 'BEGIN {print a / b}')" "$same"
done
