#!/usr/bin/env bash
# bench/untyped.sh: reduction below the type checker.  For each of three corpus models, N
# `rmutate --ill-typed` mutants (one controlled type error each), reduced by rreduce under a test
# that keeps relaykit's own error message (rcheck still rejects the candidate with the same
# "error: <op or kind>" prefix).  Records tokens before and after, tests and wall time per mutant,
# prints the table and rewrites the section "## Reduction below the type checker" of
# bench/RESULTS.md (the other sections are kept).
#
#   bash bench/untyped.sh            (N=20 per model; about 15 minutes on 2 cores)
# Environment: RBENCH_N mutants per model, RBENCH_UNTYPED_MODELS the models (corpus names).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
models_dir=$root/../shared/corpus/models
n=${RBENCH_N:-20}
models=${RBENCH_UNTYPED_MODELS:-resnet-18 mobilenet dcgan}
results=$root/bench/RESULTS.md
heading='## Reduction below the type checker'
make -s -j2 bin/rreduce bin/rcheck bin/rmutate >&2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/runtyped.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
tokens() { { grep -oE '[%@]?[A-Za-z_][A-Za-z0-9_.]*|[0-9]+(\.[0-9]+)?[a-z0-9]*|[^[:space:][:alnum:]]' "$1" || true; } | wc -l; }
rcheck=$root/bin/rcheck
table=$tmp/table
: > "$table"
for m in $models; do
  "$root/bin/rmutate" "$models_dir/$m.relay" --ill-typed -n "$n" --seed 2 -q -o "$tmp/$m" > /dev/null
  for f in "$tmp/$m"/*.relay; do
    msg=$({ "$rcheck" "$f" 2>&1 || true; } | grep -m1 -oE 'error: [^:]+' | head -1)
    printf '#!/bin/sh\n"%s" "$1" 2>&1 | grep -qF "%s"\n' "$rcheck" "$msg" > "$tmp/test.sh"
    chmod +x "$tmp/test.sh"
    cp "$f" "$tmp/r.relay"
    before=$(tokens "$f")
    start=$(date +%s.%N)
    "$root/bin/rreduce" -j 1 --json "$tmp/r.relay" "$tmp/test.sh" > "$tmp/json" 2> /dev/null || true
    wall=$(echo "$(date +%s.%N) - $start" | bc)
    tests=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["tests_run"])' "$tmp/json" 2>/dev/null || echo "-")
    printf '%s\t%s\t%s\t%s\t%s\t%.1f\n' "$m" "$(basename "$f")" "$msg" "$before" "$(tokens "$tmp/r.relay")" "$wall" >> "$table"
    sed -i "\$s/\$/\t$tests/" "$table"
  done
done
python3 - "$table" "$results" "$heading" "$n" "$models" <<'PY'
import sys, statistics, datetime, os
table, results, heading, n, models = sys.argv[1:]
rows = [l.rstrip('\n').split('\t') for l in open(table) if l.strip()]
out = [heading + ", " + datetime.date.today().isoformat(), "",
       f"`bash bench/untyped.sh`: {n} `rmutate --ill-typed --seed 2` mutants of each model, each reduced by",
       "`rreduce -j 1` under a test that keeps relaykit's own error (rcheck still rejects the candidate",
       "with the same `error: <what>` prefix).  The input does not type-check, so rreduce reduces under",
       "the weaker guard (every candidate parses and binds its names, or only parses when the input has",
       "an unbound name).  Tokens: names, numbers and punctuation.",
       f"Measured on {os.cpu_count()} cores with other work beside it (tests and tokens do not depend on load; wall times do).", "",
       "| model | mutants | tokens before (median) | tokens after: median / max | at most 40 tokens | tests (median) | wall s (median) |",
       "|---|---:|---:|---:|---:|---:|---:|"]
for m in models.split():
    r = [x for x in rows if x[0] == m]
    if not r: continue
    after = [int(x[4]) for x in r]; before = [int(x[3]) for x in r]
    tests = [int(x[6]) for x in r if x[6].isdigit()]; wall = [float(x[5]) for x in r]
    out.append(f"| {m} | {len(r)} | {statistics.median(before):.0f} | {statistics.median(after):.0f} / {max(after)} | "
               f"{sum(a <= 40 for a in after)} of {len(r)} | {statistics.median(tests) if tests else '-'} | {statistics.median(wall):.1f} |")
out += ["", "Per mutant (model, mutant, the error kept, tokens before, after, wall s, tests):", "", "```"]
out += ["\t".join(x) for x in rows] + ["```", ""]
section = "\n".join(out) + "\n"
text = open(results).read() if os.path.exists(results) else ""
start = text.find(heading)
if start < 0:
    text = text.rstrip("\n") + "\n\n" + section
else:
    end = text.find("\n## ", start + len(heading))
    text = text[:start] + section + (text[end + 1:] if end >= 0 else "")
open(results, "w").write(text)
print(section)
PY
