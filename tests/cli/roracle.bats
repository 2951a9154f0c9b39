#!/usr/bin/env bats
# roracle: a test over a corpus, failures grouped by signature (masked first/last lines or stack
# frames), the table, --json, timeouts, -j determinism, usage errors.

load signal_helpers
load rfuzz_helpers

setup() {
  ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
  RFMT=${RFMT:-$ROOT/bin/rfmt}
  BIN=$(dirname "$RFMT")
  RORACLE=$BIN/roracle
  RREDUCE=$BIN/rreduce
  T=$BATS_TEST_TMPDIR
  mkdir -p "$T/corpus"
  # relu: 3 files, dense: 2, softmax: 2, passing: 2 (the sizes differ inside each group)
  prog() { # name op extra-comment
    printf '#[version = "0.0.5"]\ndef @main(%%x: Tensor[(1, 4), float32], %%w: Tensor[(3, 4), float32]) {\n  %s /* %s */\n}\n' "$2" "$3" > "$T/corpus/$1.relay"
  }
  prog r1 'nn.relu(%x)' 'a longer comment here'
  prog r2 'nn.relu(%x)' 's'
  prog r3 'nn.relu(%x)' 'medium one'
  prog d1 'nn.dense(%x, %w)' 'x'
  prog d2 'nn.dense(%x, %w)' 'xxxxxxxxxxxxxxxxxxxxx'
  prog s1 'nn.softmax(%x)' 'yyyyyyyyyyyyyyyy'
  prog s2 'nn.softmax(%x)' 'y'
  prog p1 'add(%x, %x)' ''
  prog p2 'exp(%x)' ''
  # Three ways to fail; every message varies from run to run: an address and numbers (from the
  # pid and the size), the candidate's temporary path ($1, $PWD, $TMPDIR).
  cat > "$T/oracle.sh" <<'EOF'
#!/bin/sh
n=$(wc -c < "$1")
a=$(printf '0x7f%08x' $(( $$ * 7919 + n )))
case "$(cat "$1")" in
*nn.relu*) echo "error: relu kernel crashed at $a"; echo "  while compiling $1 in $PWD ($n bytes)"; echo "Aborted at $a (pid $$)"; exit 134;;
*nn.dense*) printf 'Traceback (most recent call last):\n  File "%s/gen_%s.py", line %s, in <module>\n  File "/opt/tvm/relay/strategy.py", line %s, in dense_strategy\nValueError: bad units at %s\n' "$TMPDIR" $$ "$n" $((n % 97)) "$a"; exit 1;;
*nn.softmax*) echo "Stack trace:"; echo "  1: tvm::relay::SoftmaxRel(int) at $a"; echo "  0: tvm::runtime::LogFatal::Finalize() in $PWD/$(basename "$1"):$n"; exit 6;;
esac
echo "ok $1"
EOF
  chmod +x "$T/oracle.sh"
}

@test "three failure signatures whose messages vary give exactly three groups" {
  run "$RORACLE" "$T/corpus" "$T/oracle.sh"
  [ "$status" -eq 1 ]
  [[ "$output" == *"9 files: 2 passed, 7 failed (0 timed out), 3 groups"* ]]
  [ "$(grep -c '^ *[0-9]\+ \+bug \+[0-9]\+ \+\/' <<<"$output")" -eq 3 ]
  # count desc, then signature; the smallest file of each group
  row1=$(grep -m1 '^ *3 ' <<<"$output")
  [[ "$row1" == *"/corpus/r2.relay  error: relu kernel crashed at <addr>" ]]
  [[ "$output" == *"/corpus/s2.relay  stack: tvm::relay::SoftmaxRel | tvm::runtime::LogFatal::Finalize"* ]]
  [[ "$output" == *"/corpus/d1.relay  ValueError: bad units at <addr>"* ]]
  [[ "$output" == *"rreduce --match "*"fails.sh"* ]]
  [[ "$output" == *"fails.sh: printf"* ]]
  ! grep -q 'relaykit\.' <<<"$output" || false   # the candidates' directories are masked
}

@test "--json is a list of groups with signature, class, rule, count, smallest, bytes, match and files" {
  run "$RORACLE" --json "$T/corpus" "$T/oracle.sh"
  [ "$status" -eq 1 ]
  python3 - "$output" "$T/corpus" <<'EOF'
import json, sys
groups = json.loads(sys.argv[1])
corpus = sys.argv[2]
assert [g["count"] for g in groups] == [3, 2, 2], groups
for g in groups:
    assert set(g) == {"signature", "class", "rule", "count", "smallest", "bytes", "match", "files"}, g
    assert g["class"] == "bug" and g["rule"] == "no rule names it a limitation or a rejected input", g
    assert len(g["files"]) == g["count"] and g["files"] == sorted(g["files"])
    assert g["smallest"] in g["files"] and isinstance(g["match"], str) and g["match"]
    import os
    assert g["bytes"] == os.path.getsize(g["smallest"]) == min(os.path.getsize(f) for f in g["files"])
assert [os.path.basename(g["smallest"]) for g in groups] == ["r2.relay", "d1.relay", "s2.relay"], groups
EOF
}

@test "a group's match finds its failure in a fresh run, and rreduce takes it with the wrapper" {
  run "$RORACLE" --json "$T/corpus" "$T/oracle.sh"
  [ "$status" -eq 1 ]
  for k in 0 1 2; do
    m=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])[int(sys.argv[2])]["match"])' "$output" "$k")
    f=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])[int(sys.argv[2])]["smallest"])' "$output" "$k")
    d=$(mktemp -d "$T/fresh.XXXXXX")
    cp "$f" "$d/"
    (cd "$d" && TMPDIR=$d "$T/oracle.sh" "$d/$(basename "$f")" > out.txt 2>&1) || true
    grep -Eq -- "$m" "$d/out.txt"
    # another group's output does not match
    o=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])[(int(sys.argv[2]) + 1) % 3]["smallest"])' "$output" "$k")
    (cd "$d" && "$T/oracle.sh" "$o" > other.txt 2>&1) || true
    ! grep -Eq -- "$m" "$d/other.txt" || false
  done
  # the recipe printed with the table: fails.sh, then rreduce --match on the smallest file
  m=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])[0]["match"])' "$output")
  printf '%s\n' '#!/bin/sh' "! '$T/oracle.sh' \"\$1\"" > "$T/fails.sh"
  chmod +x "$T/fails.sh"
  cp "$T/corpus/r2.relay" "$T/r2.relay"
  run "$RREDUCE" --tidy --match "$m" "$T/r2.relay" "$T/fails.sh"
  [ "$status" -eq 0 ]
  grep -q 'nn.relu(' "$T/r2.relay"
}

@test "a passing corpus exits 0" {
  mkdir "$T/good"
  cp "$T/corpus/p1.relay" "$T/corpus/p2.relay" "$T/good/"
  run "$RORACLE" "$T/good" "$T/oracle.sh"
  [ "$status" -eq 0 ]
  [ "$output" = "2 files: 2 passed, 0 failed (0 timed out), 0 groups" ]
  run "$RORACLE" --json "$T/good" "$T/oracle.sh"
  [ "$status" -eq 0 ]
  [ "$output" = "[]" ]
}

@test "a hanging test is the timeout group and leaves no process behind" {
  printf '#!/bin/sh\ncase "$(cat "$1")" in *nn.relu*) sleep 1000.7373 & sleep 1000.7373;; esac\necho "fails: $1"; exit 1\n' > "$T/hang.sh"
  chmod +x "$T/hang.sh"
  start=$(date +%s)
  run "$RORACLE" -j2 --timeout 1 "$T/corpus" "$T/hang.sh"
  [ "$status" -eq 1 ]
  [ $(( $(date +%s) - start )) -lt 20 ]
  [[ "$output" == *"9 files: 0 passed, 9 failed (3 timed out), 2 groups"* ]]
  grep -q '^ *3 .*r2.relay  timeout$' <<<"$output"
  grep -q '^ *6 .*fails: <tmp>/<file>$' <<<"$output"
  [[ "$output" == *"hangs.sh: printf"* ]]
  sleep 0.3
  ! pgrep -f 'sleep 1000[.]7373'
}

@test "-j1 and -j2 print the same table and the same JSON" {
  "$RORACLE" -j1 "$T/corpus" "$T/oracle.sh" > "$T/j1.txt" || [ $? -eq 1 ]
  "$RORACLE" -j2 "$T/corpus" "$T/oracle.sh" > "$T/j2.txt" || [ $? -eq 1 ]
  cmp "$T/j1.txt" "$T/j2.txt"
  "$RORACLE" -j1 --json "$T/corpus" "$T/oracle.sh" > "$T/j1.json" || [ $? -eq 1 ]
  "$RORACLE" -j2 --json "$T/corpus" "$T/oracle.sh" > "$T/j2.json" || [ $? -eq 1 ]
  cmp "$T/j1.json" "$T/j2.json"
}

@test "--max-files, -r and --fail-fast" {
  run "$RORACLE" --max-files 2 "$T/corpus" "$T/oracle.sh"   # d1, d2
  [ "$status" -eq 1 ]
  [[ "$output" == *"2 files: 0 passed, 2 failed (0 timed out), 1 group"* ]]
  mkdir -p "$T/tree/sub"
  cp "$T/corpus/p1.relay" "$T/tree/"
  cp "$T/corpus/r1.relay" "$T/tree/sub/"
  run "$RORACLE" "$T/tree" "$T/oracle.sh"
  [ "$status" -eq 0 ]
  [[ "$output" == "1 file: 1 passed"* ]]
  run "$RORACLE" -r "$T/tree" "$T/oracle.sh"
  [ "$status" -eq 1 ]
  [[ "$output" == *"2 files: 1 passed, 1 failed"* ]]
  for j in 1 2; do
    run "$RORACLE" -j$j --fail-fast "$T/corpus" "$T/oracle.sh"   # d1 fails first
    [ "$status" -eq 1 ]
    [[ "$output" == *"1 file: 0 passed, 1 failed (0 timed out), 1 group"* ]]
  done
}

@test "usage and I/O errors exit 2; --help shows the rreduce recipe" {
  run "$RORACLE"
  [ "$status" -eq 2 ]
  [[ "$output" == *usage:* ]]
  run "$RORACLE" "$T/corpus"
  [ "$status" -eq 2 ]
  run "$RORACLE" -j 0 "$T/corpus" "$T/oracle.sh"
  [ "$status" -eq 2 ]
  run "$RORACLE" --timeout abc "$T/corpus" "$T/oracle.sh"
  [ "$status" -eq 2 ]
  run "$RORACLE" --no-such-option "$T/corpus" "$T/oracle.sh"
  [ "$status" -eq 2 ]
  run "$RORACLE" "$T/missing" "$T/oracle.sh"
  [ "$status" -eq 2 ]
  [[ "$output" == *"not a directory"* ]]
  chmod -x "$T/oracle.sh"
  run "$RORACLE" "$T/corpus" "$T/oracle.sh"
  [ "$status" -eq 2 ]
  [[ "$output" == *"not an executable"* ]]
  chmod +x "$T/oracle.sh"
  mkdir "$T/empty"
  run "$RORACLE" "$T/empty" "$T/oracle.sh"
  [ "$status" -eq 2 ]
  [[ "$output" == *"no .relay files"* ]]
  run "$RORACLE" --help
  [ "$status" -eq 0 ]
  [[ "$output" == *"rreduce --match REGEX FILE"* ]]
}

@test "--server: the same groups from a persistent oracle server, its answer 0 the failure (PROTOCOL.md)" {
  # a server built on the command test, answering as the protocol says: 0 and the signature where
  # the failure is there (the test exits non-zero), 1 where it is not
  cat > "$T/server.sh" <<EOF2
#!/bin/sh
while IFS= read -r path; do
  if out=\$("$T/oracle.sh" "\$path" 2>&1); then echo 1; continue; fi
  printf '0 %s | %s\n' "\$(printf '%s\n' "\$out" | head -1)" "\$(printf '%s\n' "\$out" | tail -1)"
done
EOF2
  chmod +x "$T/server.sh"
  run "$RORACLE" --json --server "$T/server.sh" "$T/corpus"
  [ "$status" -eq 1 ]
  python3 -c 'import json,sys; g=json.loads(sys.argv[1]); assert len(g) == 3 and sorted(x["count"] for x in g) == [2, 2, 3], g' "$output"
  run "$RORACLE" --server "$T/server.sh" "$T/corpus" "$T/oracle.sh"
  [ "$status" -eq 2 ]
  # an answer 1 with a signature is a failure too (an earlier stage broke); 2 could not check it
  printf '#!/bin/sh\nwhile IFS= read -r p; do case "$p" in *p1*) echo "1 frontend refused it";; *p2*) echo "2 cannot read";; *) echo 1;; esac; done\n' > "$T/s2.sh"
  chmod +x "$T/s2.sh"
  run "$RORACLE" --server "$T/s2.sh" "$T/corpus"
  [ "$status" -eq 1 ]
  [[ "$output" == *"9 files: 7 passed, 2 failed (0 timed out), 2 groups"* ]]
  [[ "$output" == *"/corpus/p1.relay  frontend refused it"* ]]
}

@test "--server interestingness/tvm-server build: TVM's build failures are failures, grouped and classed, each with its rule" {
  # the fake TVM: 'not supported' inside a pass is a bug; 'Please run QNN Canonicalize' in
  # lowering a limitation; one cause met at two dtypes and through two programs is one group
  use_fake_tvm
  export PYTHONPYCACHEPREFIX=$T/pycache
  export FAKE_TVM_PLANTED='words:FuseOps:nn.softmax:Algebraic Data Types (ADT) are not supported yet for mixed precision pass.;words:codegen:nn.relu:qnn.add is currently only supported with Hexagon. Please run QNN Canonicalize pass to decompose this op into supported ops.'
  mkdir "$T/tvm"
  for spec in "nn.softmax float32 2, 3" "nn.softmax int8 4" "nn.relu float32 2, 3" "sigmoid float32 5"; do
    set -- $spec
    op=$1 dt=$2; shift 2
    printf '#[version = "0.0.5"]\ndef @main(%%x: Tensor[(%s), %s]) {\n  %s(%%x)\n}\n' "$*" "$dt" "$op" > "$T/tvm/$op-$dt.relay"
  done
  run "$RORACLE" -j 1 --server "$ROOT/interestingness/tvm-server build" "$T/tvm"
  [ "$status" -eq 1 ]
  [[ "$output" == *"4 files: 1 passed, 3 failed (0 timed out), 2 groups; the failures: 2 bugs, 1 limitations, 0 rejected"* ]]
  grep -q '^ *2  bug .*compile: Check failed: Algebraic Data Types (ADT) are not supported yet for mixed precision pass' <<<"$output"
  grep -q 'why: failed inside the optimization pass FuseOps: a pass that fails is a bug' <<<"$output"
  grep -q '^ *1  limitation .*Please run QNN Canonicalize' <<<"$output"
  grep -q 'why: tvm-limitations.txt:[0-9]*: limitation is currently only supported with' <<<"$output"
}

@test "--args-beside: each file goes to the server with its own check (FILE.args); a missing one stops the run first" {
  use_fake_tvm
  export PYTHONPYCACHEPREFIX=$T/pycache
  mkdir "$T/mixed"
  # wrong results at opt level 3 only: found by a diff check, invisible to a build
  printf '#[version = "0.0.5"]\ndef @main(%%x: Tensor[(2, 2), float32]) {\n  add(%%x, %%x) /* FAKE_DIFF_GRAPH_3 */\n}\n' > "$T/mixed/a.relay"
  printf 'diff\n--configs\ngraph:0,graph:3\n' > "$T/mixed/a.relay.args"
  # a build failure, under its own build check
  printf '#[version = "0.0.5"]\ndef @main(%%x: Tensor[(2, 2), float32]) {\n  add(%%x, %%x) /* FAKE_BUILD_ERROR_b */\n}\n' > "$T/mixed/b.relay"
  printf 'build\n' > "$T/mixed/b.relay.args"
  run "$RORACLE" -j 1 --json --args-beside --log-dir "$T/log" --server "$ROOT/interestingness/tvm-server --args-beside" "$T/mixed"
  echo "$output"
  [ "$status" -eq 1 ]
  "$RELAYKIT_PYTHON" - "$output" <<'PY'
import json, sys
groups = json.loads(sys.argv[1])
sigs = sorted(g["signature"] for g in groups)
assert len(groups) == 2 and all(g["count"] == 1 for g in groups), groups
assert "fake build error b" in sigs[1] and sigs[0].startswith("compare: results differ between graph"), sigs
PY
  # the log keeps each failure's own check
  [ "$(cat "$T/log/00001-a.relay/args")" = "$(cat "$T/mixed/a.relay.args")" ]
  # one check for all (a build): the wrong results are not seen
  run "$RORACLE" -j 1 --server "$ROOT/interestingness/tvm-server build" "$T/mixed"
  [ "$status" -eq 1 ]
  [[ "$output" == *"2 files: 1 passed, 1 failed (0 timed out), 1 group"* ]]
  # a file without its check: said, and no test runs
  rm "$T/mixed/b.relay.args"
  run "$RORACLE" -j 1 --args-beside --server "$ROOT/interestingness/tvm-server --args-beside" "$T/mixed"
  [ "$status" -eq 2 ]
  [ "$output" = "roracle: $T/mixed/b.relay.args: no such file (--args-beside: each file's check beside it)" ]
  run "$RORACLE" --args-beside "$T/mixed" "$T/oracle.sh"
  [ "$status" -eq 2 ]
  [[ "$output" == "roracle: --args-beside needs --server"* ]]
}

@test "--tvm: each bug group's smallest file checked on every TVM given, server or command test; a bad TVM refused" {
  use_fake_tvm # (a Python with numpy; each TVM below brings its own PYTHONPATH)
  for v in 0.13.0 0.19.0; do # the fake tvm laid out as TVM builds of two releases
    mkdir -p "$T/tvm$v/python" "$T/tvm$v/build"
    cp -r "$ROOT/tests/cli/fake_tvm/tvm" "$T/tvm$v/python/"
    mkdir -p "$T/tvm$v/python/tvm/_ffi"
    printf '__version__ = "%s"\n' $v > "$T/tvm$v/python/tvm/_ffi/libinfo.py"
    : > "$T/tvm$v/build/libtvm.so"
  done
  export PYTHONPATH=$T/tvm0.13.0/python PYTHONPYCACHEPREFIX=$T/pycache RELAYKIT_TVM_VERSION=0.13
  export FAKE_TVM_PLANTED='build-segv:nn.softmax' FAKE_TVM_FIXED_IN=0.19
  run "$RORACLE" -j 1 --server "$ROOT/interestingness/tvm-server build" --tvm "$T/tvm0.19.0" "$T/corpus"
  [ "$status" -eq 1 ]
  grep -q '^ *2  bug .*compile: signal SIGSEGV' <<<"$output"
  grep -q '  on v0.19.0: passes (fixed by v0.19.0)$' <<<"$output"
  # a command test, roracle's way round (non-zero: this program fails)
  printf '#!/bin/sh\n! "%s" "$1"\n' "$ROOT/interestingness/tvm-build" > "$T/fails.sh"
  chmod +x "$T/fails.sh"
  run "$RORACLE" -j 1 --json --tvm "$T/tvm0.19.0" "$T/corpus" "$T/fails.sh"
  [ "$status" -eq 1 ]
  python3 -c 'import json,sys; g=json.loads(sys.argv[1]); assert [x["tvm_verdicts"] for x in g] == ["v0.19.0: passes (fixed by v0.19.0)"], g' "$output"
  export FAKE_TVM_FIXED_IN=0.20
  run "$RORACLE" -j 1 --server "$ROOT/interestingness/tvm-server build" --tvm "$T/tvm0.19.0" "$T/corpus"
  grep -q '  on v0.19.0: fails$' <<<"$output"
  run "$RORACLE" --tvm "$T/nowhere" "$T/corpus" "$T/oracle.sh"
  [ "$status" -eq 2 ] && [[ "$output" == *"--tvm $T/nowhere:"*"not a directory"* ]]
  run "$RORACLE" --tvm "$T/tvm0.19.0" --tvm "$T/tvm0.19.0" "$T/corpus" "$T/oracle.sh"
  [ "$status" -eq 2 ] && [[ "$output" == *"TVM 0.19.0 twice"* ]]
}

@test "interrupted (SIGINT, SIGTERM, SIGHUP, SIGQUIT), roracle still reports the files whose test ended (exit 130)" {
  # the files in path order: d1 d2 p1 p2 r1 ...; r1 hangs, so SIGINT comes while it runs
  printf '#!/bin/sh\ncase "$(cat "$1")" in *nn.relu*) sleep 60;; *nn.dense*) echo "bad dense"; exit 1;; esac\n' > "$T/slow.sh"
  chmod +x "$T/slow.sh"
  for sig in INT TERM HUP QUIT; do
    "$RORACLE" -j 1 "$T/corpus" "$T/slow.sh" > "$T/out" 2> "$T/err" &
    pid=$!
    sleep 2
    stop_with $sig $pid
    [ "$rc" -eq 130 ]
    grep -q 'interrupted after 4 of 9 files' "$T/err"
    grep -q '4 files: 2 passed, 2 failed (0 timed out), 1 group' "$T/out"
    grep -q 'bad dense' "$T/out"
  done
}

@test "-r follows symlinks but takes each file and directory once: a loop back up the tree adds nothing" {
  mkdir -p "$T/loop/sub"
  cp "$T/corpus/p1.relay" "$T/loop/a.relay"
  cp "$T/corpus/p2.relay" "$T/loop/sub/b.relay"
  ln -s .. "$T/loop/sub/up"
  ln -s ../sub "$T/loop/sub/again"
  ln -s a.relay "$T/loop/same.relay"
  printf '#!/bin/sh\nexit 0\n' > "$T/pass.sh"
  chmod +x "$T/pass.sh"
  run timeout 30 "$RORACLE" -r "$T/loop" "$T/pass.sh"
  [ "$status" -eq 0 ]
  [[ "$output" == *"2 files: 2 passed, 0 failed"* ]]
}

@test "classes, --known and --log-dir: a limitation apart from bugs, a known bug not grouped, each failure kept" {
  # the softmax failure states a limitation in the test's own outcome (the outcome side file)
  cat > "$T/lim.sh" <<'SH'
#!/bin/sh
case "$(cat "$1")" in
*nn.softmax*) echo "softmax is currently only supported with Hexagon"
  printf '{"stage": "compile", "kind": "check", "signature": "softmax is currently only supported with Hexagon"}' > "$1.outcome"
  exit 1;;
*nn.relu*) echo "Check failed: relu at 0x7f001"; exit 1;;
*nn.dense*) echo "Check failed: known dense bug"; exit 1;;
esac
SH
  chmod +x "$T/lim.sh"
  printf '# ours\nknown dense\n' > "$T/known"
  run "$RORACLE" -j 2 --known "$T/known" --log-dir "$T/logs" "$T/corpus" "$T/lim.sh"
  echo "$output"
  [ "$status" -eq 1 ]
  [[ "$output" == *"7 failed (0 timed out), 2 groups; the failures: 3 bugs, 2 limitations, 0 rejected, 2 known"* ]]
  grep -E '^ +2  limitation' <<< "$output"
  grep -E '^ +3  bug' <<< "$output"
  # every failure logged: its program, check, output and (when there was one) its outcome
  [ "$(ls "$T/logs" | wc -l)" -eq 7 ]
  d=$(ls -d "$T"/logs/*-s1.relay)
  [ -f "$d/s1.relay" ] && [ -f "$d/outcome.json" ] && grep -q 'only supported with Hexagon' "$d/output"
  grep -qx "$T/lim.sh" "$d/check"
  # bad inputs: a located error and exit 2 before any test runs
  printf 'fine\n(unclosed\n' > "$T/bad-known"
  run "$RORACLE" --known "$T/bad-known" "$T/corpus" "$T/lim.sh"
  [ "$status" -eq 2 ] && [[ "$output" == *"bad-known:2: "* ]]
  printf 'limitation  x\nsomething else\n' > "$T/bad-lim"
  run "$RORACLE" --limitations "$T/bad-lim" "$T/corpus" "$T/lim.sh"
  [ "$status" -eq 2 ] && [[ "$output" == *"bad-lim:2: "* ]]
  mkdir "$T/ro" && chmod 500 "$T/ro"
  if [ "$(id -u)" -ne 0 ]; then
    run "$RORACLE" --log-dir "$T/ro/x" "$T/corpus" "$T/lim.sh"
    [ "$status" -eq 2 ] && [[ "$output" == *"--log-dir"* ]]
  fi
  run "$RORACLE" --log-dir /dev/null/x "$T/corpus" "$T/lim.sh"
  [ "$status" -eq 2 ] && [[ "$output" == *"--log-dir /dev/null/x"* ]]
}
