#!/usr/bin/env bash
# bench/reduce.sh: rreduce beside C-Vise and C-Reduce (both with --not-c), the same interestingness
# test on the same input for every tool.  Per case and tool it records the final size in bytes and
# tokens, the number of test runs (the test counts itself) and the wall time, prints the table and
# rewrites the section "## Reduction vs C-Vise and C-Reduce" of bench/RESULTS.md in place (the
# other sections are kept; rerunning replaces the section, so the command is idempotent).
#
#   bash bench/reduce.sh          (also the last part of `make bench`; about 25 minutes on 2 cores)
#
# Environment: RBENCH_CAP  wall-clock cap per tool run in seconds (default 210; a run that hits it
#                          is recorded as "timed out" with the best file it had reached)
#              RBENCH_MODELS  the model directory (default ../shared/corpus/models); never modified
# A peer that is not installed is skipped with a note (apt-get install -y cvise creduce).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
models=${RBENCH_MODELS:-$root/../shared/corpus/models}
cap=${RBENCH_CAP:-210}
results=$root/bench/RESULTS.md
heading='## Reduction vs C-Vise and C-Reduce'
# Tokens: an identifier, %var, @global or dotted op name is one token, a number is one, every
# other non-blank character is one; whitespace and layout count nothing.
token_re='[A-Za-z_%@][A-Za-z0-9_.]*|[0-9.]+|[^[:space:]]'

# Cases: id|input model|what the test needs ("ops" = rcheck accepts and each op( occurs; "false" =
# exit 1)|the ops.  Peers need minutes per kilobyte, so the larger inputs hit the cap.
cases=(
  "keep-op|mlp.relay|ops|nn.dense("
  "keep-op|dqn.relay|ops|nn.dense("
  "keep-op|resnet-18.relay|ops|nn.conv2d("
  "signature|resnet-18.relay|ops|nn.batch_norm( nn.relu("
  "always-false|dqn.bound.fused.relay|false|"
)
tools=(rreduce-j1 rreduce cvise creduce)

make -s -j2 bin/rreduce bin/rcheck >&2

t0=$(date +%s)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rbench.XXXXXX")
child=
cleanup() { rm -rf "$tmp"; }
on_signal() {
  # timeout(1) runs in a process group of its own: stop it, and it stops the reducer's group.
  if [[ -n $child ]]; then kill -TERM "$child" 2>/dev/null || true; wait "$child" 2>/dev/null || true; fi
  echo "bench/reduce.sh: interrupted; $results left unchanged" >&2
  exit 130
}
trap cleanup EXIT
trap on_signal INT TERM HUP

tokens() { { grep -oE "$token_re" "$1" || true; } | wc -l; }
now() { date +%s.%N; }

# write_test FILE NAME KIND OPS COUNTER: a POSIX sh test that reads NAME in its working directory
# (all three tools run it in a directory holding the candidate under that name; rreduce also passes
# it as $1, which the test ignores) and appends one line to COUNTER per run (a 2-byte O_APPEND
# write, atomic under the peers' parallel runs; RBENCH_COUNTER overrides it for the re-check).
write_test() {
  local file=$1 name=$2 kind=$3 ops=$4 counter=$5 op
  {
    echo '#!/bin/sh'
    echo "echo x >> \"\${RBENCH_COUNTER:-$counter}\""
    if [[ $kind == false ]]; then
      echo 'exit 1'
    else
      echo "'$root/bin/rcheck' '$name' >/dev/null 2>&1 || exit 1"
      for op in $ops; do echo "grep -qF '$op' '$name' || exit 1"; done
      echo 'exit 0'
    fi
  } > "$file"
  chmod +x "$file"
}

version_of() {
  case $1 in
    rreduce*) echo "rreduce $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- reduce typegen parser support interestingness 2>/dev/null || echo '+changes')" ;;
    *) local v d
       v=$("$1" --version 2>/dev/null | head -1)
       d=$(dpkg-query -W -f '${Version}' "$1" 2>/dev/null || true)
       echo "$v${d:+ (Debian $d)}" ;;
  esac
}

rows=$tmp/rows.md
: > "$rows"
declare -A have
for t in cvise creduce; do
  if command -v "$t" >/dev/null 2>&1; then have[$t]=1; else have[$t]=0; echo "bench/reduce.sh: $t is not installed; skipping it (apt-get install -y $t)" >&2; fi
done

n=0
for spec in "${cases[@]}"; do
  IFS='|' read -r case input kind ops <<< "$spec"
  n=$((n + 1))
  src=$models/$input
  [[ -r $src ]] || { echo "bench/reduce.sh: missing $src" >&2; exit 2; }
  bytes0=$(wc -c < "$src")
  tokens0=$(tokens "$src")
  if [[ $kind == false ]]; then
    label="$case (\`exit 1\`)"
  else
    label="$case \`${ops// /\` + \`}\`"
  fi
  for tool in "${tools[@]}"; do
    if [[ $tool == cvise || $tool == creduce ]] && [[ ${have[$tool]} == 0 ]]; then
      printf '| %s | %s | %s | not installed, skipped | %s | - | %s | - | - | - |\n' "$label" "$input" "$tool" "$bytes0" "$tokens0" >> "$rows"
      continue
    fi
    dir=$tmp/$n-$tool
    mkdir -p "$dir/work" "$dir/tmp"
    cp "$src" "$dir/work/$input"
    chmod u+w "$dir/work/$input"
    : > "$dir/count"
    write_test "$dir/test.sh" "$input" "$kind" "$ops" "$dir/count"
    case $tool in
      rreduce-j1) cmd=("$root/bin/rreduce" -j1 --tidy "$input" "$dir/test.sh") ;;
      rreduce) cmd=("$root/bin/rreduce" --tidy "$input" "$dir/test.sh") ;;
      cvise | creduce) cmd=("$tool" --not-c --n 2 --tidy "$dir/test.sh" "$input") ;;
    esac
    echo "bench/reduce.sh: $label on $input: $tool (cap ${cap}s) ..." >&2
    start=$(now)
    rc=0
    (cd "$dir/work" && exec env TMPDIR="$dir/tmp" timeout -k 10 "$cap" "${cmd[@]}" > "$dir/log" 2>&1 < /dev/null) &
    child=$!
    wait "$child" || rc=$?
    child=
    end=$(now)
    out=$dir/work/$input
    case $rc in
      0) status=reduced ;;
      124 | 137) status="timed out" ;;
      *) status="exit $rc" ;;
    esac
    if [[ $kind == false ]]; then
      # The peers say so in prose (cvise even exits 0); rreduce exits 1.
      [[ $rc == 124 || $rc == 137 ]] || status="gave up (exit $rc)"
      if cmp -s "$src" "$out"; then status="$status, input unchanged"; else status="$status, INPUT CHANGED"; fi
    elif (cd "$dir/work" && RBENCH_COUNTER=/dev/null "$dir/test.sh" "$input"); then
      status="$status, result interesting"
    else
      status="$status, RESULT NOT INTERESTING"
    fi
    if [[ $kind != false && $rc != 0 && $rc != 124 && $rc != 137 ]]; then
      echo "bench/reduce.sh: $tool exited $rc; last lines of its output:" >&2
      tail -3 "$dir/log" | sed 's/^/  /' >&2
    fi
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %.2f |\n' "$label" "$input" "${tool/-j1/ -j1}" "$status" \
      "$bytes0" "$(wc -c < "$out")" "$tokens0" "$(tokens "$out")" "$(wc -l < "$dir/count")" \
      "$(awk -v s="$start" -v e="$end" 'BEGIN {print e - s}')" >> "$rows"
    rm -rf "$dir/tmp"
  done
done

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
section=$tmp/section.md
{
  echo "$heading"
  echo
  echo "Measured $(date -u +%Y-%m-%d) with \`bash bench/reduce.sh\` (the last part of \`make bench\`) on $(nproc) cores"
  echo "(${cpu:-unknown CPU}), load average $(cut -d' ' -f1-3 /proc/loadavg) at the end; other jobs shared the"
  echo "machine, so wall times are noisy; the whole run took $(( ($(date +%s) - t0 + 30) / 60 )) minutes.  Tools: $(version_of rreduce); $(version_of cvise); $(version_of creduce)."
  echo
  echo '| case | input | tool | result | bytes before | bytes after | tokens before | tokens after | tests | wall s |'
  echo '|---|---|---|---|---:|---:|---:|---:|---:|---:|'
  cat "$rows"
  echo
  echo "How to read it: every tool gets a fresh copy of the same input and the same test script"
  echo "(POSIX sh, reading the candidate by name in its working directory).  keep-op: interesting while"
  echo "\`bin/rcheck\` accepts the file and it still contains the op call; signature: rcheck accepts and"
  echo "both calls occur (a two-op crash signature); always-false: the test is \`exit 1\`, so the row"
  echo "measures how long a tool takes to give up (parse, type check, one test).  The rcheck condition"
  echo "is what makes the comparison fair: the peers cannot know that a candidate is ill-formed, rreduce"
  echo "checks every candidate itself before the test sees it.  *tests* counts the test script's runs"
  echo "(one line appended per run, including runs a peer starts in parallel and then kills; rreduce's"
  echo "built-in parse + type-check guard is not counted).  *tokens*: \`grep -oE '$token_re' | wc -l\`"
  echo "(an identifier, %var, @global, dotted op name or number is one token, any other non-blank"
  echo "character one; whitespace is free, so the peers' leftover blanks cost them nothing).  Options:"
  echo "rreduce \`--tidy\`, once with \`-j1\` and once by default; peers \`--not-c --n 2 --tidy\` (both cores)."
  echo "Every tool run is capped at ${cap} s of wall time (RBENCH_CAP): *timed out* rows give the size of the"
  echo "best file the tool had written when it was stopped.  *result interesting* means the final file"
  echo "passed the test again afterwards."
} > "$section"

cat "$section"
new=$tmp/RESULTS.md
if [[ -f $results ]]; then
  awk -v sec="$section" -v h="$heading" '
    BEGIN { while ((getline l < sec) > 0) s = s l "\n" }
    $0 == h { printf "%s", s; skip = 1; done = 1; next }
    skip && /^## / { skip = 0; print "" }
    !skip { print }
    END { if (!done) { print ""; printf "%s", s } }' "$results" > "$new"
else
  { echo '# Benchmarks'; echo; cat "$section"; } > "$new"
fi
cat "$new" > "$results"
echo "bench/reduce.sh: wrote the section \"${heading#\#\# }\" of bench/RESULTS.md" >&2
