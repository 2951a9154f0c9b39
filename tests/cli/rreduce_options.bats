#!/usr/bin/env bats
# rreduce's options beyond the basics: -j determinism, --match, --also-interesting, --history,
# --report, --trivial-is-error, --keep-comments, the stuck guard.

load rreduce_helpers

@test "-j1, -j2 and -j4 give byte-identical results" {
  for j in 1 2 4; do
    cp "$CORPUS/models/squeezenet_v1.1.relay" "$T/s$j.relay"
    run "$RREDUCE" -j$j --tidy "$T/s$j.relay" "$T/keep.sh"
    [ "$status" -eq 0 ]
  done
  cmp "$T/s1.relay" "$T/s2.relay"
  cmp "$T/s1.relay" "$T/s4.relay"
  grep -q 'nn.conv2d(' "$T/s1.relay"
}

@test "--progress-lines: the status as whole lines on a stderr that is no terminal, the same result" {
  cp "$CORPUS/models/squeezenet_v1.1.relay" "$T/a.relay"
  cp "$T/a.relay" "$T/b.relay"
  "$RREDUCE" --tidy "$T/a.relay" "$T/keep.sh" 2> "$T/plain"
  "$RREDUCE" --tidy --progress-lines "$T/b.relay" "$T/keep.sh" 2> "$T/lines"
  cmp "$T/a.relay" "$T/b.relay"
  ! grep -q '^progress ' "$T/plain"
  grep -Eq '^progress [a-z-]+ +[0-9]+ -> [0-9]+ bytes \([0-9.]+% removed\)  [0-9]+ ops  tests [0-9]+  accepted [0-9]+  [0-9]+s$' "$T/lines"
  ! grep -q $'\r' "$T/lines"
}

@test "-j2 tests the first candidate beside the input's own test; an input found uninteresting ends both" {
  cp "$CORPUS/models/mlp.relay" "$T/orig.relay"
  cp "$T/orig.relay" "$T/m.relay"
  mkdir "$T/running"
  export SLOW_DIR=$T
  # each test: its pid in running/ while it sleeps; the input's test logs how many run beside it
  # (those started beside it sleep longer: still running then; later ones do not sleep)
  cat > "$T/slow.sh" << 'EOF'
#!/bin/sh
echo $$ > "$SLOW_DIR/running/$$"
echo $$ >> "$SLOW_DIR/pids"
if cmp -s "$1" "$SLOW_DIR/orig.relay"; then
  sleep 1
  ls "$SLOW_DIR/running" | wc -l >> "$SLOW_DIR/beside_input"
  touch "$SLOW_DIR/input_done"
elif [ ! -e "$SLOW_DIR/input_done" ]; then
  sleep 2
fi
rm -f "$SLOW_DIR/running/$$"
grep -q "${OP:-nn.dense}(" "$1"
EOF
  chmod +x "$T/slow.sh"
  run "$RREDUCE" -j2 --tidy "$T/m.relay" "$T/slow.sh"
  [ "$status" -eq 0 ]
  [ "$(head -1 "$T/beside_input")" -eq 2 ]
  grep -q 'nn.dense(' "$T/m.relay"
  # an uninteresting input: exit 1, nothing written, the candidate's test started beside it killed
  rm -f "$T/pids" "$T/beside_input" "$T/input_done"
  cp "$T/orig.relay" "$T/m.relay"
  OP=no_such_op run "$RREDUCE" -j2 "$T/m.relay" "$T/slow.sh"
  [ "$status" -eq 1 ]
  [[ "$output" == *"does not find"*"interesting (exit status 1)"* ]]
  cmp "$T/m.relay" "$T/orig.relay"
  [ ! -e "$T/m.relay.orig" ] && [ ! -e "$T/m.relay.rreduce-last" ]
  [ "$(wc -l < "$T/pids")" -eq 2 ]
  while read -r pid; do
    if kill -0 "$pid" 2> /dev/null; then echo "test $pid still runs"; false; fi
  done < "$T/pids"
}

@test "--match keeps the test's error signature; a mismatch on the input is refused with a recipe" {
  printf '#!/bin/sh\nif grep -q "nn.dense(" "$1"; then echo "error: dense here"; else echo "error: something else"; fi\nexit 0\n' > "$T/sig.sh"
  chmod +x "$T/sig.sh"
  cp "$CORPUS/models/mlp.relay" "$T/m.relay"
  run "$RREDUCE" --tidy --match 'dense here' "$T/m.relay" "$T/sig.sh"
  [ "$status" -eq 0 ]
  grep -q 'nn.dense(' "$T/m.relay"
  cp "$CORPUS/models/mlp.relay" "$T/m2.relay"
  run "$RREDUCE" --tidy --match 'no such error' "$T/m2.relay" "$T/sig.sh"
  [ "$status" -eq 1 ]
  [[ "$output" == *"does not match --match"* ]]
  [[ "$output" == *mktemp* ]]
  cmp "$T/m2.relay" "$CORPUS/models/mlp.relay"
  run "$RREDUCE" --match '(' "$T/m2.relay" "$T/sig.sh"
  [ "$status" -eq 2 ]
}

@test "--match is a Perl/Python regex (\\d, \\s, lazy), searched past NUL bytes in the output" {
  # the signature comes after a NUL byte, and only the dense call's error has the number 2
  printf '#!/bin/sh\nprintf "binary\\000junk\\n"\nif grep -q "nn.dense(" "$1"; then echo "Check failed: (ndim == 2)"; else echo "Check failed: (ndim == x)"; fi\nexit 0\n' > "$T/nul.sh"
  chmod +x "$T/nul.sh"
  cp "$CORPUS/models/mlp.relay" "$T/n.relay"
  run "$RREDUCE" --tidy --match '^Check failed:\s+\(\w+ == \d+?\)$' "$T/n.relay" "$T/nul.sh"
  [ "$status" -eq 0 ]
  grep -q 'nn.dense(' "$T/n.relay"
  [ "$(wc -c < "$T/n.relay")" -lt 400 ]
}

@test "--also-interesting N saves the candidates on which the test exits N" {
  printf '#!/bin/sh\ngrep -q "nn.dense(" "$1" || exit 7\n"%s" "$1" >/dev/null 2>&1\n' "$RCHECK" > "$T/also.sh"
  chmod +x "$T/also.sh"
  cp "$CORPUS/models/mlp.relay" "$T/a.relay"
  run "$RREDUCE" --tidy --json --also-interesting 7 "$T/a.relay" "$T/also.sh"
  [ "$status" -eq 0 ]
  n=$(ls "$T/a.relay.also-interesting" | wc -l)
  [ "$n" -gt 0 ]
  for f in "$T"/a.relay.also-interesting/*.relay; do
    ! grep -q 'nn.dense(' "$f" || false
    "$RCHECK" "$f" >/dev/null
  done
  python3 -c 'import json,sys; assert json.loads(sys.argv[1].splitlines()[-1])["also_interesting"] == int(sys.argv[2])' "$output" "$n"
}

@test "--history records every accepted step as a git commit" {
  cp "$CORPUS/models/mlp.relay" "$T/h.relay"
  printf '#!/bin/sh\n"%s" "$1" >/dev/null 2>&1 && grep -q "nn.dense(" "$1"\n' "$RCHECK" > "$T/dense.sh"
  chmod +x "$T/dense.sh"
  run "$RREDUCE" --tidy --json --history "$T/hist.git" "$T/h.relay" "$T/dense.sh"
  [ "$status" -eq 0 ]
  accepted=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1].splitlines()[-1])["accepted"])' "$output")
  commits=$(git -C "$T/hist.git" rev-list --count HEAD)
  [ "$commits" -eq $((accepted + 1)) ]   # the input, then one commit per accepted step
  git -C "$T/hist.git" show HEAD:h.relay | cmp - "$T/h.relay"
  git -C "$T/hist.git" show "$(git -C "$T/hist.git" rev-list --max-parents=0 HEAD)":h.relay | cmp - "$CORPUS/models/mlp.relay"
  git -C "$T/hist.git" log --format=%s | grep -qE '^[a-z]+: [0-9]+ -> [0-9]+ bytes'
  git -C "$T/hist.git" fsck
}

@test "--report writes a paste-ready fragment with the program and the test's output" {
  printf '#!/bin/sh\necho "TVMError: Check failed: conv here" >&2\n"%s" "$1" >/dev/null 2>&1 && grep -q "nn.conv2d(" "$1"\n' "$RCHECK" > "$T/rep.sh"
  chmod +x "$T/rep.sh"
  cp "$CORPUS/models/resnet-18.relay" "$T/r.relay"
  run "$RREDUCE" --tidy --report "$T/report.md" "$T/r.relay" "$T/rep.sh"
  [ "$status" -eq 0 ]
  grep -q 'nn.conv2d(' "$T/report.md"
  grep -q 'TVMError: Check failed: conv here' "$T/report.md"
  grep -q "$(wc -c < "$CORPUS/models/resnet-18.relay" | tr -d ' ') bytes" "$T/report.md"
  grep -q '^- relaykit: ' "$T/report.md"
  grep -q '^### Environment' "$T/report.md"
  ! grep -q '^### Standalone Python repro' "$T/report.md" # a plain shell test writes none
}

@test "with -o, --report's recipe reproduces with the reduced program, and a plain test leaves no stray line" {
  # the test notes the size of what it was given, so the recipe's run shows which program it got
  printf '#!/bin/sh\nwc -c < "$1" > "%s/seen"\n"%s" "$1" >/dev/null 2>&1 && grep -q "nn.dense(" "$1"\n' "$T" "$RCHECK" > "$T/sz.sh"
  chmod +x "$T/sz.sh"
  cp "$CORPUS/models/mlp.relay" "$T/in.relay"
  cd "$T"
  run "$RREDUCE" -j1 --report rep.md -o out.relay in.relay ./sz.sh
  [ "$status" -eq 0 ]
  [[ "$output" != *"No such file"* ]]
  cmp in.relay "$CORPUS/models/mlp.relay" # -o leaves FILE alone
  grep -q 'rreduce wrote it to `out.relay`' rep.md
  recipe=$(grep '^    d=\$(mktemp -d)' rep.md)
  [[ "$recipe" == *"/out.relay' \"\$d/in.relay\""* ]]
  cd /
  run sh -c "$recipe; echo \$?"
  [ "$output" = 0 ]
  [ "$(cat "$T/seen")" -eq "$(wc -c < "$T/out.relay")" ]
  [ "$(wc -c < "$T/out.relay")" -lt "$(wc -c < "$T/in.relay")" ]
}

@test "a trivial result is a warning, or an error with --trivial-is-error" {
  printf '#!/bin/sh\nexit 0\n' > "$T/true.sh"
  chmod +x "$T/true.sh"
  cp "$CORPUS/models/mlp.relay" "$T/t.relay"
  run "$RREDUCE" --tidy "$T/t.relay" "$T/true.sh"
  [ "$status" -eq 0 ]
  [[ "$output" == *"warning"*"no operator call"* ]]
  cp "$CORPUS/models/mlp.relay" "$T/t.relay"
  run "$RREDUCE" --tidy --trivial-is-error "$T/t.relay" "$T/true.sh"
  [ "$status" -eq 3 ]
  "$RCHECK" "$T/t.relay"
}

@test "--keep-comments keeps TVM's type comments; by default they go" {
  cp "$CORPUS/models/resnet-18.relay" "$T/k.relay"
  run "$RREDUCE" --tidy --keep-comments "$T/k.relay" "$T/keep.sh"
  [ "$status" -eq 0 ]
  grep -q '/\* ty=' "$T/k.relay"
  cp "$CORPUS/models/resnet-18.relay" "$T/d.relay"
  run "$RREDUCE" --tidy "$T/d.relay" "$T/keep.sh"
  ! grep -q '/\*' "$T/d.relay"
}

@test "the stuck guard pauses a pass and the next round resumes it: same result as --slow" {
  cp "$CORPUS/models/squeezenet_v1.1.relay" "$T/g.relay"
  cp "$T/g.relay" "$T/s.relay"
  run "$RREDUCE" -j1 --tidy --json --stuck-after 2 "$T/g.relay" "$T/keep.sh"
  [ "$status" -eq 0 ]
  python3 -c 'import json,sys; d=json.loads(sys.argv[1].splitlines()[-1]); assert sum(p["paused"] for p in d["passes"].values()) > 0' "$output"
  run "$RREDUCE" -j1 --tidy --slow "$T/s.relay" "$T/keep.sh"
  [ "$status" -eq 0 ]
  [ "$(grep -c '(' "$T/g.relay")" -le "$(grep -c '(' "$T/s.relay")" ]
  grep -q 'nn.conv2d(' "$T/g.relay"
}

@test "with the stuck guard pausing passes, the result is still 1-minimal: --slow finds nothing more" {
  for m in squeezenet_v1.1 resnet-18 mobilenet; do
    cp "$CORPUS/models/$m.relay" "$T/m.relay"
    run "$RREDUCE" -j1 --tidy --stuck-after 1 "$T/m.relay" "$T/keep.sh"
    [ "$status" -eq 0 ]
    run "$RREDUCE" -j1 --tidy --slow --json "$T/m.relay" "$T/keep.sh"
    [ "$status" -eq 0 ]
    python3 -c 'import json,sys; d=json.loads(sys.argv[1].splitlines()[-1]); assert d["accepted"] == 0, d' "$output"
  done
}

@test "bad option values are usage errors" {
  run "$RREDUCE" -j 0 a b
  [ "$status" -eq 2 ]
  run "$RREDUCE" --also-interesting 300 a b
  [ "$status" -eq 2 ]
  run "$RREDUCE" --stuck-after x a b
  [ "$status" -eq 2 ]
  run "$RREDUCE" --version
  [ "$status" -eq 0 ]
  [[ "$output" == "rreduce (relaykit) "* ]]
}

@test "-o OUT is written even when nothing can be removed" {
  printf '#[version = "0.0.5"]\ndef @main(%%x: float32) {\n  %%x\n}\n' > "$T/tiny.relay"
  printf '#!/bin/sh\nexit 0\n' > "$T/true.sh"
  chmod +x "$T/true.sh"
  run "$RREDUCE" -o "$T/out.relay" "$T/tiny.relay" "$T/true.sh"
  [ "$status" -eq 0 ]
  "$RCHECK" "$T/out.relay"
  [ ! -e "$T/tiny.relay.orig" ]
}

@test "--stats prints the guard's rejections and each pass's successes and failures" {
  cp "$CORPUS/models/mlp.relay" "$T/st.relay"
  printf '#!/bin/sh\ngrep -q "nn.dense(" "$1"\n' > "$T/dense.sh"
  chmod +x "$T/dense.sh"
  run "$RREDUCE" -j1 --tidy --stats "$T/st.relay" "$T/dense.sh"
  [ "$status" -eq 0 ]
  [[ "$output" == *"guard rejections 0"* ]]
  [[ "$output" == *"ill-typed "* ]]
  # pass, tried, successes, failures, guard (none: every candidate parses), ill-typed, paused
  printf '%s\n' "$output" | grep -Eq '^  replace +[0-9]+ +[0-9]+ +[0-9]+ +0 +[0-9]+ +[0-9]+$'
  # the table agrees with --json (-j1: speculative runs vary with timing)
  cp "$CORPUS/models/mlp.relay" "$T/st2.relay"
  tests=$("$RREDUCE" -j1 --tidy --json "$T/st2.relay" "$T/dense.sh" | python3 -c 'import json,sys; print(json.load(sys.stdin)["tests_run"])')
  [[ "$output" == *"tests run $tests,"* ]]
}

@test "--print-diff shows each accepted step as a unified diff on stderr" {
  cp "$CORPUS/models/mlp.relay" "$T/m.relay"
  printf '#!/bin/sh\ngrep -q "nn.softmax(" "$1"\n' > "$T/sm.sh"
  chmod +x "$T/sm.sh"
  run "$RREDUCE" --tidy --print-diff --json "$T/m.relay" "$T/sm.sh"
  [ "$status" -eq 0 ]
  accepted=$(sed -n '/^{/,$p' <<<"$output" | python3 -c 'import json,sys; print(json.load(sys.stdin)["accepted"])')
  [ "$accepted" -gt 1 ]
  [ "$(grep -c '^--- a/m.relay$' <<<"$output")" -eq "$accepted" ]
  [ "$(grep -c '^+++ b/m.relay$' <<<"$output")" -eq "$accepted" ]
  grep -q '^@@ ' <<<"$output"
  grep -q '^-  %1 = nn.dense(%0, %fc1_weight' <<<"$output" # a line the first steps remove
}

@test "--no-verify does not test the input, and reduces from it" {
  cp "$CORPUS/models/mlp.relay" "$T/m.relay"
  # the test logs the hash of every file it sees
  printf '#!/bin/sh\nmd5sum < "$1" >> "%s/seen"\ngrep -q "nn.softmax(" "$1"\n' "$T" > "$T/sm.sh"
  chmod +x "$T/sm.sh"
  run "$RREDUCE" --tidy --no-verify -j1 "$T/m.relay" "$T/sm.sh"
  [ "$status" -eq 0 ]
  [[ "$output" == *"--no-verify: $T/m.relay is taken as interesting without testing it"* ]]
  ! grep -q "$(md5sum < "$CORPUS/models/mlp.relay")" "$T/seen" || false
  grep -q 'nn.softmax(' "$T/m.relay"
  [ "$(wc -c < "$T/m.relay")" -lt "$(wc -c < "$CORPUS/models/mlp.relay")" ]
  # without it, the input is tested first
  cp "$CORPUS/models/mlp.relay" "$T/m2.relay"
  rm "$T/seen"
  run "$RREDUCE" --tidy -j1 "$T/m2.relay" "$T/sm.sh"
  [ "$(head -1 "$T/seen")" = "$(md5sum < "$CORPUS/models/mlp.relay")" ]
}

@test "on a terminal, s skips the rest of the current pass" {
  command -v script >/dev/null || skip "no script(1) for a terminal"
  cp "$CORPUS/models/mlp.relay" "$T/m.relay"
  printf '#!/bin/sh\nsleep 0.2\ngrep -q "nn.softmax(" "$1"\n' > "$T/slow.sh"
  chmod +x "$T/slow.sh"
  # script(1) gives rreduce a terminal; the s arrives while the first pass runs, and the terminal's
  # input stays open until the reduction ends (a fixed `sleep 60` made this test a minute long)
  { sleep 1; printf s; for _ in $(seq 600); do [ -e "$T/done" ] && break; sleep 0.2; done; } |
    { timeout 120 script -qec "'$RREDUCE' --tidy -j1 '$T/m.relay' '$T/slow.sh'" /dev/null > "$T/out" 2>&1; touch "$T/done"; } || true
  tr '\r' '\n' < "$T/out" | grep -aq "rreduce: s: skipping the rest of pass [a-z]* for this round"
  grep -q 'nn.softmax(' "$T/m.relay"
  "$RCHECK" "$T/m.relay"
}

@test "two passes cannot hand the same two programs back and forth (truncate writes a type, annot drops it)" {
  printf '#[version = "0.0.5"]\ndef @main(%%x: Tensor[(2), float32]) {\n  %%0 = add(%%x, %%x);\n  multiply(%%0, %%0) /* MARK */\n}\n' > "$T/c.relay"
  printf '#!/bin/sh\ngrep -q MARK "$1"\n' > "$T/mark.sh"
  chmod +x "$T/mark.sh"
  # it used to run for ever on cache hits, rewriting FILE
  run timeout 60 "$RREDUCE" --tidy --keep-comments --json "$T/c.relay" "$T/mark.sh"
  [ "$status" -eq 0 ]
  grep -q MARK "$T/c.relay"
  accepted=$(sed -n '/^{/,$p' <<<"$output" | python3 -c 'import json,sys; print(json.load(sys.stdin)["accepted"])')
  [ "$accepted" -lt 20 ]
}
