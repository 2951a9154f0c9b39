#!/usr/bin/env bash
# bench/nesting.sh: time against nesting depth (issue 29): closures nested `fn () { ... }` and
# `if`s nested in their then-branches, 500, 1,000 and 1,998 deep (the parser's limit is 2,000).
# Type inference (parse + lower + infer, bench_parse --check, repeated for a second) should take
# about twice as long when the depth doubles: the "x" columns, which once grew as the depth cubed
# (1,998 closures: 6-9 s).  rmutate -n 5 beside it should too: it once took 77 s on 1,998 ifs
# (x3.8 per doubling), printing 12.8 MB mutants (26 MB for closures) at every attempt; the printer
# now stops indenting at 64 columns, types of over 1 KB are left out of a mutant, and an if's value
# is a site the mutators that replace or wrap a value may change (it was nobody's: only `shape`
# applied).  At 1,998 (the parser's limit is 2,000) most changes would nest too deep and are tried
# again, which costs a few attempts more than at 1,000.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
make -s -j2 build/rel/bench/bench_parse bin/rmutate >&2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rknest.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
secs() { local s e; s=$(date +%s.%N); "$@" > /dev/null 2>&1 || true; e=$(date +%s.%N); awk -v s="$s" -v e="$e" 'BEGIN {printf "%.3f", e - s}'; }
printf '%-8s %6s %8s %12s %6s %16s %6s %14s\n' shape depth bytes "infer ms" x "rmutate -n 5 s" x "mutant bytes"
for shape in fn if; do
  prev_infer="" prev_mutate=""
  for depth in 500 1000 1998; do
    f=$tmp/$shape$depth.relay
    python3 - "$shape" "$depth" > "$f" <<'EOF'
import sys
shape, d = sys.argv[1], int(sys.argv[2])
print('#[version = "0.0.5"]')
if shape == "fn":
    print("def @main() {\n" + "fn () { " * d + "1f" + " }" * d + "\n}")
else:
    print("def @main(%c: bool, %x: Tensor[(2), float32]) {\n" + "if (%c) { " * d + "%x" + " } else { %x }" * d + "\n}")
EOF
    infer=$(build/rel/bench/bench_parse --check "$f" | awk '{printf "%.3f", $4 * 1000}')
    # the median of three seeds: a run takes well under a second now, and the seed decides how
    # many attempts it makes
    mutate=$(for seed in 1 2 3; do secs bin/rmutate "$f" -n 5 --seed $seed -j 1 -q -o "$tmp/m$shape$depth.$seed"; echo; done |
      sort -n | sed -n 2p)
    size=$(cat "$tmp/m$shape$depth.1"/0*.relay 2>/dev/null | wc -c)
    ratio() { [ -n "$2" ] && awk -v a="$1" -v b="$2" 'BEGIN {printf "%.1f", a / b}' || echo -; }
    printf '%-8s %6d %8d %12s %6s %16s %6s %14d\n' "$shape" "$depth" "$(wc -c < "$f")" "$infer" \
      "$(ratio "$infer" "$prev_infer")" "$mutate" "$(ratio "$mutate" "$prev_mutate")" $((size / 5))
    prev_infer=$infer prev_mutate=$mutate
  done
done
