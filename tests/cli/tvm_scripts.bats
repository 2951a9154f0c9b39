#!/usr/bin/env bats
# interestingness/: the TVM tests (tvm-*), tvm-server and server-adapter, without TVM. The
# stages, signals, --match and the server protocol run against tests/cli/fake_tvm, a stand-in
# `tvm` package driven by FAKE_<STAGE>_<HOW> markers in the candidate, and by the bugs that
# FAKE_TVM_PLANTED plants for programs without markers.

SCRIPTS="tvm-parse tvm-typecheck tvm-build tvm-pass tvm-diff tvm-roundtrip tvm-check tvm-bisect"

load release_pass

setup() {
  release_pass_only
  ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
  I=$ROOT/interestingness
  T=$BATS_TEST_TMPDIR
  FAKE=$ROOT/tests/cli/fake_tvm
  unset TVM_HOME RELAYKIT_PYTHON RELAYKIT_TVM_REEXEC
  export PYTHONPATH=
  export PYTHONPYCACHEPREFIX=$T/pycache
  printf '#[version = "0.0.5"]\ndef @main() { 0 }\n' > "$T/ok.relay"
}

# expect STATUS TEXT COMMAND...: runs COMMAND; it must exit STATUS and print TEXT (may be "").
expect() {
  local want=$1 text=$2
  shift 2
  run "$@"
  if [ "$status" -ne "$want" ] || [[ "$output" != *"$text"* ]]; then
    echo "exit $status (want $want), output: $output (want: $text)"
    return 1
  fi
}

tvm_importable() { python3 -c 'import tvm' >/dev/null 2>&1; }

fake() { # candidate text -> $T/c.relay
  printf '#[version = "0.0.5"]\ndef @main() { 0 } /* %s */\n' "$1" > "$T/c.relay"
}

@test "every Python script compiles (py_compile) and is executable" {
  for f in $SCRIPTS tvm-server relaykit_repro.py relaykit_outcome.py $(cd "$I" && echo relaykit_tvm/*.py); do
    python3 -m py_compile "$I/$f"
  done
  for f in $SCRIPTS tvm-server server-adapter; do
    [ -x "$I/$f" ]
    head -1 "$I/$f" | grep -q '^#!'
  done
  for f in $SCRIPTS tvm-server; do
    [ "$(head -1 "$I/$f")" = "#!/usr/bin/env python3" ]
  done
}

@test "each script's --help exits 0 without TVM" {
  for f in $SCRIPTS; do
    run "$I/$f" --help
    [ "$status" -eq 0 ]
    [[ "$output" == *"usage: $f"* ]]
    [[ "$output" == *"--match"* ]]
  done
  run "$I/tvm-server" --help
  [ "$status" -eq 0 ]
  [[ "$output" == *"usage: tvm-server CHECK"* ]]
  run "$I/tvm-server" build --help
  [ "$status" -eq 0 ]
  [[ "$output" == *"--opt-level"* ]]
}

@test "without TVM each script exits 2: TVM is not importable (set TVM_HOME / PYTHONPATH)" {
  if tvm_importable; then skip "TVM is importable here"; fi
  export TVM_HOME=$T/no-tvm
  for f in tvm-parse tvm-typecheck tvm-build tvm-diff tvm-roundtrip; do
    run "$I/$f" "$T/ok.relay"
    [ "$status" -eq 2 ]
    [[ "$output" == *"TVM is not importable (set TVM_HOME / PYTHONPATH)"* ]]
  done
  run "$I/tvm-pass" FoldConstant "$T/ok.relay"
  [ "$status" -eq 2 ]
  [[ "$output" == *"TVM is not importable (set TVM_HOME / PYTHONPATH)"* ]]
  run "$I/tvm-server" build < /dev/null
  [ "$status" -eq 2 ]
  [[ "$output" == *"TVM is not importable (set TVM_HOME / PYTHONPATH)"* ]]
}

@test "usage errors exit 2 before TVM is needed" {
  run "$I/tvm-build"
  [ "$status" -eq 2 ]
  run "$I/tvm-build" --match '(' "$T/ok.relay"
  [ "$status" -eq 2 ]
  [[ "$output" == *"--match"* ]]
  run "$I/tvm-pass" 'FuseOps(' "$T/ok.relay"
  [ "$status" -eq 2 ]
  run "$I/tvm-pass" "$T/ok.relay"
  [ "$status" -eq 2 ]
  run "$I/tvm-diff" --opt-levels 1 "$T/ok.relay"
  [ "$status" -eq 2 ]
  run "$I/tvm-diff" --opt-levels 0,3 --executors vm,graph "$T/ok.relay"
  [ "$status" -eq 2 ]
  run "$I/tvm-build" "$T/missing.relay"
  [ "$status" -eq 2 ]
  run "$I/tvm-server"
  [ "$status" -eq 2 ]
  run "$I/tvm-server" compile
  [ "$status" -eq 2 ]
}

@test "RELAYKIT_PYTHON: the scripts re-run themselves under it" {
  printf '#!/bin/sh\ntouch "%s/used"\nexec python3 "$@"\n' "$T" > "$T/py"
  chmod +x "$T/py"
  RELAYKIT_PYTHON=$T/py run "$I/tvm-build" --help
  [ "$status" -eq 0 ]
  [ -f "$T/used" ]
}

@test "fake TVM: tvm-build tells the bug, something else, and no bug apart" {
  export PYTHONPATH=$FAKE
  fake ""
  expect 1 "no bug" "$I/tvm-build" "$T/c.relay"
  fake FAKE_BUILD_ERROR_dtype
  expect 0 "interesting (in stage build): Check failed: fake build error dtype" "$I/tvm-build" --opt-level 3 "$T/c.relay"
  expect 0 "" "$I/tvm-build" --match 'Check failed: .*dtype' "$T/c.relay"
  expect 1 "a different error" "$I/tvm-build" --match 'Check failed: .*shape' "$T/c.relay"
  expect 3 "" "$I/tvm-build" --match 'shape' --other-status 3 "$T/c.relay"
  fake FAKE_PARSE_ERROR
  expect 1 "something else broke (in stage parse): error: fake parse error in c.relay" "$I/tvm-build" "$T/c.relay"
  fake FAKE_TYPE_ERROR
  expect 1 "something else broke (in stage typecheck)" "$I/tvm-build" "$T/c.relay"
  # the candidate may also come first (C-Reduce style $1)
  fake FAKE_BUILD_ERROR
  expect 0 "" "$I/tvm-build" "$T/c.relay" --opt-level 2
}

@test "--match is the dialect of rreduce and roracle (PCRE2): \\h, a flag inside the pattern, errors" {
  export PYTHONPATH=$FAKE
  fake FAKE_BUILD_ERROR_dtype
  # Python's re rejects \h and a global flag after the start; PCRE2 takes both
  expect 0 "interesting" "$I/tvm-build" --match 'fake\hbuild' "$T/c.relay"
  expect 0 "interesting" "$I/tvm-build" --match 'nothing|(?i)CHECK FAILED: FAKE BUILD' "$T/c.relay"
  expect 1 "a different error" "$I/tvm-build" --match 'fake\hshape' "$T/c.relay"
  # multi-line: ^ and $ at each line of TVM's output
  expect 0 "interesting" "$I/tvm-build" --match '^  Check failed: fake build error dtype$' "$T/c.relay"
  expect 2 "missing closing parenthesis" "$I/tvm-build" --match 'err(' "$T/c.relay"
  # rreduce takes the same pattern over the same text
  printf '#!/bin/sh\n%s --match "fake\\\\hbuild" "$1"\n' "$I/tvm-build" > "$T/t.sh"
  chmod +x "$T/t.sh"
  cp "$T/c.relay" "$T/r.relay"
  run "$ROOT/bin/rreduce" --match 'fake\hbuild error' --passes comments "$T/r.relay" "$T/t.sh"
  [ "$status" -eq 0 ]
}

@test "fake TVM: a crash by signal is an error of its stage, signature 'signal SIGSEGV'" {
  export PYTHONPATH=$FAKE
  fake FAKE_BUILD_SEGV
  expect 0 "interesting (in stage build): signal SIGSEGV" "$I/tvm-build" "$T/c.relay"
  expect 0 "" "$I/tvm-build" --match 'signal SIGSEGV' "$T/c.relay"
  fake FAKE_BUILD_ABORT_oops
  expect 0 "signal SIGABRT" "$I/tvm-build" "$T/c.relay"
  expect 0 "interesting (in stage build): Check failed: fake fatal oops" "$I/tvm-build" --match 'fatal oops' "$T/c.relay"
  fake FAKE_PARSE_SEGV
  expect 1 "something else broke (in stage parse): signal SIGSEGV" "$I/tvm-build" "$T/c.relay"
  fake FAKE_BUILD_HANG
  expect 0 "timeout after 1 s" "$I/tvm-build" --timeout 1 "$T/c.relay"
}

@test "fake TVM: tvm-parse, tvm-typecheck, tvm-pass and tvm-roundtrip" {
  export PYTHONPATH=$FAKE
  fake FAKE_PARSE_ERROR
  expect 0 "" "$I/tvm-parse" "$T/c.relay"
  expect 1 "" "$I/tvm-parse" "$T/ok.relay"
  fake FAKE_TYPE_ERROR
  expect 0 "" "$I/tvm-typecheck" "$T/c.relay"
  expect 1 "" "$I/tvm-typecheck" "$T/ok.relay"
  fake FAKE_PASS_ERROR
  expect 0 "in stage pass FoldConstant" "$I/tvm-pass" FoldConstant 'FuseOps(fuse_opt_level=2)' "$T/c.relay"
  expect 0 "" "$I/tvm-pass" "$T/c.relay" FuseOps
  expect 2 "unknown pass NoSuchPass" "$I/tvm-pass" NoSuchPass "$T/c.relay"
  fake FAKE_PRINTS_BAD
  expect 0 "in stage reparse" "$I/tvm-roundtrip" "$T/c.relay"
  fake FAKE_UNEQUAL
  expect 0 "not structurally equal" "$I/tvm-roundtrip" "$T/c.relay"
  expect 1 "" "$I/tvm-roundtrip" "$T/ok.relay"
}

@test "fake TVM: tvm-server answers one line each, survives crashes, keeps stdout clean" {
  export PYTHONPATH=$FAKE FAKE_TVM_NOISY=1
  mkdir "$T/a b"
  printf 'FAKE_BUILD_ERROR_dtype\n' > "$T/a b/bug 1.relay"
  printf 'FAKE_BUILD_SEGV\n' > "$T/segv.relay"
  printf 'FAKE_TYPE_ERROR\n' > "$T/type.relay"
  printf 'FAKE_BUILD_HANG\n' > "$T/hang.relay"
  printf '%s\n' "$T/a b/bug 1.relay" "$T/ok.relay" "$T/segv.relay" "$T/type.relay" "" \
    "$T/missing.relay" "$T/hang.relay" "$T/a b/bug 1.relay" > "$T/requests"
  "$I/tvm-server" build --opt-level 3 --timeout 1 < "$T/requests" > "$T/answers" 2> "$T/log"
  printf '%s\n' "0 Check failed: fake build error dtype" "1" "0 signal SIGSEGV" \
    "1 Check failed: fake type error" "2 empty path" "2 no such file" "0 timeout after 1 s" \
    "0 Check failed: fake build error dtype" > "$T/expected"
  diff "$T/expected" "$T/answers"
  grep -q 'noise on stdout' "$T/log"
  printf '%s\n' "$T/segv.relay" | "$I/tvm-server" build --match 'dtype' > "$T/answers"
  [ "$(cat "$T/answers")" = "1 signal SIGSEGV" ]
  printf '%s\n' "$T/type.relay" | "$I/tvm-server" pass FoldConstant FuseOps > "$T/answers"
  [ "$(cat "$T/answers")" = "1 Check failed: fake type error" ]
  # the echo extension: each answer starts with its request's path, byte for byte, and a tab
  cp "$T/ok.relay" "$T/$(printf 'na\377me.relay')"
  printf '%s\n' "$T/a b/bug 1.relay" "$T/$(printf 'na\377me.relay')" "" \
    | RELAYKIT_ORACLE_ECHO=1 "$I/tvm-server" build > "$T/answers"
  printf '%s\t%s\n' "$T/a b/bug 1.relay" "0 Check failed: fake build error dtype" \
    "$T/$(printf 'na\377me.relay')" 1 "" "2 empty path" > "$T/expected"
  cmp "$T/expected" "$T/answers"
}

# prog TEXT FILE: a module whose @main(%x: Tensor[(2, 2), float32]) returns TEXT, into FILE
# (no marker words: what a fuzzer generates, for the planted bugs of FAKE_TVM_PLANTED).
prog() {
  printf '#[version = "0.0.5"]\ndef @main(%%x: Tensor[(2, 2), float32]) {\n  %s\n}\n' "$1" > "$2"
}

@test "fake TVM: tvm-server --args-beside answers each candidate with the check in PATH.args" {
  export PYTHONPATH=$FAKE FAKE_TVM_NOISY=1 FAKE_TVM_PLANTED='build-segv:nn.softmax'
  prog 'nn.softmax(%x)' "$T/s1.relay"
  printf 'build\n--opt-level\n3\n' > "$T/s1.relay.args"
  cp "$T/s1.relay" "$T/s2.relay"
  printf 'typecheck\n' > "$T/s2.relay.args"            # the same text, another check: no bug
  fake FAKE_PASS_ERROR_x
  cp "$T/c.relay" "$T/p1.relay"
  printf 'pass\nFoldConstant\nFuseOps(fuse_opt_level=2)\n' > "$T/p1.relay.args"
  cp "$T/c.relay" "$T/p2.relay"
  printf 'build\r\n\n' > "$T/p2.relay.args"             # CRLF and an empty line: only "build"
  printf 'FAKE_TYPE_ERROR\n' > "$T/t1.relay"
  printf 'build\n' > "$T/t1.relay.args"                 # a typecheck error: --other-status 5
  printf 'FAKE_BUILD_HANG\n' > "$T/h1.relay"
  printf 'pass\n--build\nFoldConstant\n' > "$T/h1.relay.args"  # --timeout 1 from the command line
  printf '%s\n' "$T/s1.relay" "$T/s2.relay" "$T/p1.relay" "$T/p2.relay" "$T/t1.relay" \
    "$T/h1.relay" "$T/s1.relay" > "$T/requests"
  "$I/tvm-server" --args-beside --timeout 1 --other-status 5 -v < "$T/requests" > "$T/answers" 2> "$T/log"
  printf '%s\n' "0 signal SIGSEGV" "1" "0 Check failed: fake pass error x" "1" \
    "5 Check failed: fake type error" "0 timeout after 1 s" "0 signal SIGSEGV" > "$T/expected"
  diff "$T/expected" "$T/answers"
  grep -q 'noise on stdout' "$T/log"       # stdout carries answers only
  grep -q "tvm-server: $T/s2.relay: no bug: type-checks" "$T/log"   # -v, a common option
}

@test "fake TVM: tvm-server --args-beside answers a bad args file '2 bad arguments: ...' and goes on" {
  export PYTHONPATH=$FAKE
  cp "$T/ok.relay" "$T/a.relay"
  printf 'build\n' > "$T/a.relay.args"
  for n in 1 2 3 4 5 6 7 8 9; do cp "$T/ok.relay" "$T/b$n.relay"; done
  # b1 has no args file
  printf 'build\n--opt-level\n9\n' > "$T/b2.relay.args"
  printf 'compile\n--opt-level\n3\n' > "$T/b3.relay.args"
  printf 'pass\nNoSuchPass\n' > "$T/b4.relay.args"
  printf 'typecheck\n--help\n' > "$T/b5.relay.args"
  : > "$T/b6.relay.args"
  printf 'build\n\377\n' > "$T/b7.relay.args"
  printf -- '--check\n%s\n' "$T/missing.py" > "$T/b8.relay.args"
  printf 'pass\n--run\nFoldConstant\n' > "$T/b9.relay.args"
  printf '%s\n' "$T/a.relay" "$T/b1.relay" "$T/a.relay" "$T/b2.relay" "$T/b3.relay" "$T/b4.relay" \
    "$T/b5.relay" "$T/b6.relay" "$T/b7.relay" "$T/b8.relay" "$T/b9.relay" "$T/b2.relay" \
    "$T/a.relay" > "$T/requests"
  run sh -c '"$1" --args-beside < "$2" 2> "$3"' sh "$I/tvm-server" "$T/requests" "$T/log"
  [ "$status" -eq 0 ]
  printf '%s\n' "1" "2 bad arguments: $T/b1.relay.args: no such file" "1" \
    "2 bad arguments: argument --opt-level: invalid opt_level value: '9'" \
    "2 bad arguments: unknown check 'compile' (parse, typecheck, build, pass, bisect, diff, roundtrip, check, or --check SCRIPT.py)" \
    "2 bad arguments: unknown pass NoSuchPass (not in tvm.relay.transform)" \
    "2 bad arguments: --help is not a check's argument" \
    "2 bad arguments: $T/b6.relay.args: empty (the first line names the check)" \
    "2 bad arguments: $T/b7.relay.args: not UTF-8" \
    "2 bad arguments: $T/missing.py: no such file" \
    "2 bad arguments: --run needs --build" \
    "2 bad arguments: argument --opt-level: invalid opt_level value: '9'" "1" > "$T/expected"
  diff "$T/expected" <(printf '%s\n' "$output")
  grep -q "tvm-server: $T/b2.relay: bad arguments: argument --opt-level" "$T/log"
  ! grep -q '^usage:' "$T/log"     # argparse's usage text is caught, not printed
}

@test "fake TVM: tvm-server --args-beside runs --check SCRIPT.py from the file, loaded once per argument set" {
  export PYTHONPATH=$FAKE
  # relative SCRIPT.py: from the server's working directory; the check prints at load (stdout)
  printf 'open("%s/loads", "a").write("x")\nprint("loading on stdout")\ndef check(mod):\n    return "BUG" not in mod.text\n' "$T" > "$T/uc.py"
  fake BUG
  for n in 1 2 3; do
    cp "$T/c.relay" "$T/u$n.relay"
    printf -- '--check\nuc.py\n' > "$T/u$n.relay.args"
  done
  cp "$T/ok.relay" "$T/u4.relay"
  printf -- '--check\nuc.py\n' > "$T/u4.relay.args"
  printf -- '--check\n--match\nreturned\nuc.py\n' > "$T/u5.relay.args"   # another set: loads again
  cp "$T/c.relay" "$T/u5.relay"
  printf '%s\n' "$T/u1.relay" "$T/u2.relay" "$T/u4.relay" "$T/u3.relay" "$T/u5.relay" > "$T/requests"
  (cd "$T" && "$I/tvm-server" --args-beside --other-status 3 < requests > answers 2> log)
  printf '%s\n' "0 check(mod) returned False" "0 check(mod) returned False" "1" \
    "0 check(mod) returned False" "0 check(mod) returned False" > "$T/expected"
  diff "$T/expected" "$T/answers"
  [ "$(cat "$T/loads")" = xx ]
  grep -q 'loading on stdout' "$T/log"
}

@test "fake TVM: tvm-server --args-from FILE: every candidate gets FILE's check (rreduce --server)" {
  export PYTHONPATH=$FAKE FAKE_TVM_PLANTED='pass-error:FoldConstant>FuseOps'
  printf 'pass\nFoldConstant\n--build\nFuseOps\n' > "$T/check.args"
  fake FAKE_TYPE_ERROR
  printf 'typecheck\n' > "$T/c.relay.args"          # ignored: --args-from wins
  printf '%s\n' "$T/c.relay" "$T/ok.relay" "$T/missing.relay" > "$T/requests"
  "$I/tvm-server" --args-from "$T/check.args" --match 'pass order' < "$T/requests" > "$T/answers"
  printf '%s\n' "1 Check failed: fake type error" "0 Check failed: fake pass order FoldConstant>FuseOps" \
    "2 no such file" > "$T/expected"
  diff "$T/expected" "$T/answers"
  # a bad FILE stops the server before it reads anything
  printf 'build\n--opt-level\nthree\n' > "$T/bad.args"
  run sh -c '"$1" --args-from "$2" < "$3" 2> "$4"' sh "$I/tvm-server" "$T/bad.args" "$T/requests" "$T/log"
  [ "$status" -eq 2 ]
  [ -z "$output" ]   # no answer
  grep -qF -- "--args-from $T/bad.args: bad arguments: argument --opt-level: invalid opt_level value: 'three'" "$T/log"
  run sh -c '"$1" --args-from "$2" < /dev/null' sh "$I/tvm-server" "$T/none.args"
  [ "$status" -eq 2 ]
  [[ "$output" == *"$T/none.args: no such file"* ]]
  printf 'pass\nNoSuchPass\n' > "$T/nopass.args"      # found once TVM is imported, still before any request
  run sh -c '"$1" --args-from "$2" < /dev/null' sh "$I/tvm-server" "$T/nopass.args"
  [ "$status" -eq 2 ]
  [[ "$output" == *"unknown pass NoSuchPass"* ]]
  run "$I/tvm-server" --args-from
  [ "$status" -eq 2 ]
  # rreduce --server with the check a program was found with: the planted bug is kept
  prog '%0 = add(%x, %x);
  %1 = nn.relu(%0);
  %2 = nn.softmax(%1);
  multiply(%2, %2)' "$T/f.relay"
  printf 'build\n' > "$T/found.args"
  export FAKE_TVM_PLANTED='build-segv:nn.softmax'
  run "$ROOT/bin/rreduce" --tidy --server "'$I/tvm-server' --args-from '$T/found.args' --timeout 20" "$T/f.relay"
  [ "$status" -eq 0 ]
  grep -q 'nn.softmax(' "$T/f.relay"
  ! grep -q 'multiply(' "$T/f.relay" || false
  # two crashes with one message ("signal SIGSEGV"): --frame keeps the one the reduction began with
  prog '%0 = nn.dense(%x, %x);
  %1 = nn.softmax(%0);
  %2 = nn.relu(%1);
  add(%2, %0)' "$T/g.relay"
  export FAKE_TVM_PLANTED='build-segv:nn.softmax;build-segv:nn.dense'
  run "$ROOT/bin/rreduce" --tidy --match 'signal SIGSEGV' --frame 'tvm::relay::backend::FakeCodegen_nn_softmax' \
    --server "'$I/tvm-server' --args-from '$T/found.args' --timeout 20" "$T/g.relay"
  [ "$status" -eq 0 ]
  grep -q 'nn.softmax(' "$T/g.relay"
  # without a frame the same message lets it slip to the other crash (the smaller program)
  prog '%0 = nn.dense(%x, %x);
  %1 = nn.softmax(%0);
  %2 = nn.relu(%1);
  add(%2, %0)' "$T/h.relay"
  run "$ROOT/bin/rreduce" --tidy --match 'signal SIGSEGV' --server "'$I/tvm-server' --args-from '$T/found.args' --timeout 20" "$T/h.relay"
  [ "$status" -eq 0 ]
  ! grep -q 'nn.softmax(' "$T/h.relay" || false
  # a frame no candidate has: the input itself is not interesting
  prog 'nn.softmax(%x)' "$T/k.relay"
  run "$ROOT/bin/rreduce" --tidy --frame 'tvm::Nowhere' --server "'$I/tvm-server' --args-from '$T/found.args' --timeout 20" "$T/k.relay"
  [ "$status" -eq 1 ]
}

# A Python with numpy (tvm-diff's inputs), the fake tvm on its path: python3, else Debian's.
use_numpy_python() {
  export PYTHONPATH=$FAKE
  local py
  for py in python3 /usr/bin/python3; do
    if "$py" -c 'import numpy' 2>/dev/null; then export RELAYKIT_PYTHON=$py; return 0; fi
  done
  skip "no Python with numpy (apt-get install python3-numpy)"
}

@test "fake TVM: tvm-diff compares any number of configurations and names the two that differ" {
  use_numpy_python
  fake ""
  expect 1 "no bug: results agree across vm@0, vm@3" "$I/tvm-diff" "$T/c.relay"
  expect 1 "agree across vm@0, vm@1, vm@2, vm@3, vm@4" "$I/tvm-diff" --opt-levels 0,1,2,3,4 "$T/c.relay"
  expect 1 "agree across debug@2, graph@2, vm@2, aot@2" "$I/tvm-diff" --executors debug,graph,vm,aot --opt-level 2 "$T/c.relay"
  fake FAKE_DIFF_GRAPH_3
  expect 0 "interesting (in stage compare): results differ between vm@0 and graph@3 at output 0: max abs diff 0.5" \
    "$I/tvm-diff" --configs vm:0,vm:3,graph:3 "$T/c.relay"
  expect 1 "no bug" "$I/tvm-diff" --configs vm:0,vm:3,graph:2 "$T/c.relay"
  expect 0 "" "$I/tvm-diff" --executors vm,graph "$T/c.relay"
  expect 1 "no bug" "$I/tvm-diff" --executors vm,graph --opt-level 2 "$T/c.relay"
  # a tolerance wider than the difference hides it
  expect 1 "no bug" "$I/tvm-diff" --executors vm,graph --atol 1 "$T/c.relay"
  # NaN in both results is agreement, not a difference
  fake FAKE_NAN
  expect 1 "no bug" "$I/tvm-diff" "$T/c.relay"
  expect 2 "" "$I/tvm-diff" --configs vm:0 "$T/c.relay"
  expect 2 "" "$I/tvm-diff" --configs vm:5,vm:0 "$T/c.relay"
  expect 2 "unknown executor" "$I/tvm-diff" --executors vm,jit "$T/c.relay"
}

@test "fake TVM: tvm-diff gives an index operand values in range, so no undefined read differs" {
  use_numpy_python
  fake FAKE_INDEX
  expect 1 "no bug: results agree" "$I/tvm-diff" "$T/c.relay"
  expect 1 "no bug: results agree" "$I/tvm-diff" --seed 7 --opt-levels 1,3 "$T/c.relay"
}

@test "fake TVM: tvm-diff gives a sqrt's input positive values, so no NaN comes from the inputs" {
  use_numpy_python
  fake FAKE_POSITIVE
  expect 1 "no bug: results agree" "$I/tvm-diff" "$T/c.relay"
  expect 1 "no bug: results agree" "$I/tvm-diff" --seed 7 --opt-levels 1,2 "$T/c.relay"
}

@test "fake TVM: relay.transform has TVM's passes, with arguments, and the module keeps its pass history" {
  export PYTHONPATH=$FAKE
  fake ""
  expect 1 "no bug: passes run" "$I/tvm-pass" FoldConstant FuseOps SimplifyExpr EliminateCommonSubexpr \
    'DeadCodeElimination(inline_once=True)' FoldScaleAxis CanonicalizeOps SimplifyInference DynamicToStatic \
    ToANormalForm ToGraphNormalForm 'CombineParallelConv2D(min_num_branches=2)' 'FuseOps(fuse_opt_level=2)' \
    --infer-after "$T/c.relay"
  fake FAKE_PASS_ERROR_cse
  expect 0 "interesting (in stage pass EliminateCommonSubexpr): Check failed: fake pass error cse" \
    "$I/tvm-pass" EliminateCommonSubexpr "$T/c.relay"
  fake FAKE_PASS_SEGV
  expect 0 "in stage pass ToANormalForm): signal SIGSEGV" "$I/tvm-pass" ToANormalForm "$T/c.relay"
  expect 2 "unknown pass NoSuchPass" "$I/tvm-pass" NoSuchPass "$T/c.relay"
  PYTHONPATH=$FAKE python3 -c '
import tvm
from tvm import relay
t = relay.transform
m = relay.parse("def @main() { 0 }")
m = t.InferType()(m)
m = tvm.transform.Sequential([t.FoldConstant(), t.CombineParallelConv2D(min_num_branches=2)])(m)
assert m.pass_history == ["InferType", "FoldConstant", "CombineParallelConv2D"], m.pass_history
assert not hasattr(t, "NoSuchPass")
'
}

@test "fake TVM: FAKE_TVM_PLANTED build-segv:OP segfaults relay.build on OP( only, the exact op" {
  export PYTHONPATH=$FAKE FAKE_TVM_PLANTED='build-segv:nn.softmax'
  prog 'nn.softmax(%x, axis=1)' "$T/s.relay"
  expect 0 "interesting (in stage build): signal SIGSEGV" "$I/tvm-build" "$T/s.relay"
  expect 0 "signal SIGSEGV" "$I/tvm-build" --executor vm "$T/s.relay"
  expect 0 "in stage build): signal SIGSEGV" "$I/tvm-pass" --build FoldConstant "$T/s.relay"
  expect 1 "no bug: type-checks" "$I/tvm-typecheck" "$T/s.relay"
  expect 1 "no bug: passes run" "$I/tvm-pass" FoldConstant "$T/s.relay"
  prog 'nn.log_softmax(%x)' "$T/l.relay"
  expect 1 "no bug: builds" "$I/tvm-build" "$T/l.relay"
  prog 'nn.leaky_relu(%x)' "$T/r.relay"
  FAKE_TVM_PLANTED='build-segv:nn.relu' expect 1 "no bug" "$I/tvm-build" "$T/r.relay"
  FAKE_TVM_PLANTED='build-segv:relu' expect 1 "no bug" "$I/tvm-build" "$T/r.relay"
  FAKE_TVM_PLANTED='build-segv:softmax' expect 1 "no bug" "$I/tvm-build" "$T/s.relay"
  FAKE_TVM_PLANTED='build-segv:add;build-segv:nn.leaky_relu' expect 0 "signal SIGSEGV" "$I/tvm-build" "$T/r.relay"
  prog 'nn.bias_add(%x, %x)' "$T/b.relay"
  FAKE_TVM_PLANTED='build-segv:add' expect 1 "no bug" "$I/tvm-build" "$T/b.relay"
  # a marker-free program through the server too
  printf '%s\n' "$T/s.relay" "$T/l.relay" | "$I/tvm-server" build > "$T/answers"
  [ "$(cat "$T/answers")" = "$(printf '0 signal SIGSEGV\n1')" ]
}

@test "fake TVM: FAKE_TVM_PLANTED pass-error:A>B fails pass B only after pass A" {
  export PYTHONPATH=$FAKE FAKE_TVM_PLANTED='pass-error:FoldConstant>FuseOps'
  prog 'nn.relu(%x)' "$T/p.relay"
  expect 0 "interesting (in stage pass FuseOps): Check failed: fake pass order FoldConstant>FuseOps" \
    "$I/tvm-pass" FoldConstant FuseOps "$T/p.relay"
  expect 0 "fake pass order FoldConstant>FuseOps" "$I/tvm-pass" FoldConstant SimplifyExpr 'FuseOps(fuse_opt_level=2)' "$T/p.relay"
  expect 0 "" "$I/tvm-pass" --match 'Check failed: fake pass order' FoldConstant FuseOps "$T/p.relay"
  expect 1 "no bug: passes run" "$I/tvm-pass" FuseOps FoldConstant "$T/p.relay"
  expect 1 "no bug: passes run" "$I/tvm-pass" FuseOps "$T/p.relay"
  expect 1 "no bug: passes run" "$I/tvm-pass" FoldConstant SimplifyExpr "$T/p.relay"
  # with InferType as A: the typecheck stage runs it before every pass
  FAKE_TVM_PLANTED='pass-error:InferType>DeadCodeElimination' \
    expect 0 "in stage pass DeadCodeElimination" "$I/tvm-pass" DeadCodeElimination "$T/p.relay"
  FAKE_TVM_PLANTED='pass-error:FuseOps>InferType' \
    expect 0 "interesting (in stage infer-after): Check failed: fake pass order FuseOps>InferType" \
    "$I/tvm-pass" FuseOps --infer-after "$T/p.relay"
}

@test "fake TVM: FAKE_TVM_PLANTED typecheck-abort:OP aborts InferType on OP( only" {
  export PYTHONPATH=$FAKE FAKE_TVM_PLANTED='typecheck-abort:nn.dense'
  prog 'nn.dense(%x, %x)' "$T/d.relay"
  expect 0 "interesting (in stage typecheck): signal SIGABRT" "$I/tvm-typecheck" "$T/d.relay"
  expect 0 "interesting (in stage typecheck): Check failed: fake fatal" "$I/tvm-typecheck" --match 'Check failed: fake fatal' "$T/d.relay"
  expect 1 "something else broke (in stage typecheck): signal SIGABRT" "$I/tvm-build" "$T/d.relay"
  prog 'nn.batch_matmul(%x, %x)' "$T/m.relay"
  expect 1 "no bug: type-checks" "$I/tvm-typecheck" "$T/m.relay"
  prog 'nn.dense_pack(%x, %x)' "$T/p.relay"     # not an op of TVM, but not nn.dense either
  expect 1 "no bug: type-checks" "$I/tvm-typecheck" "$T/p.relay"
}

@test "a warning TVM logs before the type checker's diagnostics is never the failure's signature" {
  # as TVM v0.19.0 inside SimplifyExpr: ConvertLayout's warning, then the diagnostic, then a
  # DiagnosticError that says only that diagnostics were emitted (the warning named a group once)
  export PYTHONPATH=$FAKE FAKE_TVM_PLANTED='diagnostic:codegen:nn.dense:tensor type `Tensor[(1), float16]` has 1 dimensions, while `float16` has 0 dimensions'
  prog 'nn.dense(%x, %x)' "$T/d.relay"
  expect 0 'interesting (in stage build after ToANormalForm): tensor type `Tensor[(1), float16]` has 1 dimensions' "$I/tvm-build" "$T/d.relay"
  # the server's answer (the signature rfuzz and roracle group by) says the same
  printf '%s\n' "$T/d.relay" | "$I/tvm-server" build > "$T/answers"
  [[ "$(cat "$T/answers")" == '0 tensor type `Tensor[(1), float16]` has 1 dimensions'* ]] || { cat "$T/answers"; return 1; }
}

@test "fake TVM: FAKE_TVM_PLANTED diff:LEVEL:OP puts the runs at LEVEL off by 0.5 on OP( only" {
  use_numpy_python
  export FAKE_TVM_PLANTED='diff:3:nn.softmax'
  prog 'nn.softmax(%x)' "$T/s.relay"
  expect 0 "interesting (in stage compare): results differ between vm@0 and vm@3 at output 0: max abs diff 0.5" \
    "$I/tvm-diff" "$T/s.relay"
  expect 0 "results differ between graph@2 and vm@3" "$I/tvm-diff" --configs graph:2,vm:3 "$T/s.relay"
  expect 1 "no bug: results agree across vm@0, vm@2" "$I/tvm-diff" --opt-levels 0,2 "$T/s.relay"
  expect 1 "no bug: results agree across debug@3, graph@3" "$I/tvm-diff" --executors debug,graph "$T/s.relay"
  prog 'nn.log_softmax(%x)' "$T/l.relay"
  expect 1 "no bug: results agree" "$I/tvm-diff" "$T/l.relay"
  printf 'diff\n--opt-levels\n0,3\n' > "$T/s.relay.args"
  printf 'diff\n--opt-levels\n0,2\n' > "$T/l.relay.args"
  cp "$T/s.relay" "$T/l.relay"
  printf '%s\n' "$T/s.relay" "$T/l.relay" | "$I/tvm-server" --args-beside > "$T/answers"
  [ "$(cat "$T/answers")" = "$(printf '0 results differ between vm@0 and vm@3 at output 0: max abs diff 0.5 (rtol=0.001, atol=0.001)\n1')" ]
}

@test "fake TVM: tvm-build and tvm-pass --build hand PassContext options, target and executor to TVM" {
  export PYTHONPATH=$FAKE
  fake FAKE_ECHO_CONTEXT
  expect 0 "opt_level=2 required=FastMath disabled=AlterOpLayout,FoldScaleAxis config=relay.FuseOps.max_depth:10,tir.disable_vectorize:True target=llvm executor=aot" \
    "$I/tvm-build" --config relay.FuseOps.max_depth=10 --config tir.disable_vectorize=True \
    --disabled-pass AlterOpLayout,FoldScaleAxis --required-pass FastMath --executor aot --opt-level 2 "$T/c.relay"
  expect 0 "disabled=A,B config=k:'some text'" "$I/tvm-build" --disabled-pass A --disabled-pass B --config 'k=some text' "$T/c.relay"
  expect 0 "interesting (in stage build after ToANormalForm): TVMError: fake build: opt_level=3 required= " "$I/tvm-pass" FoldConstant --build "$T/c.relay"
  expect 1 "no bug: passes run" "$I/tvm-pass" FoldConstant "$T/c.relay"
  expect 2 "" "$I/tvm-build" --config novalue "$T/c.relay"
  expect 2 "" "$I/tvm-build" --executor jit "$T/c.relay"
  expect 2 "" "$I/tvm-build" --opt-level 9 "$T/c.relay"
  expect 2 "--run needs --build" "$I/tvm-pass" FoldConstant --run "$T/c.relay"
  expect 2 "no such file" "$I/tvm-build" --params "$T/none.npz" "$T/c.relay"
}

@test "fake TVM: tvm-check and tvm-server --check run the user's check(mod) in the child" {
  export PYTHONPATH=$FAKE
  printf 'def check(mod):\n    return "BUG" not in mod.text\n' > "$T/returns.py"
  printf 'def check(mod):\n    assert "BUG" not in mod.text, "the bug: BUG in the module"\n' > "$T/raises.py"
  printf 'import os, signal\ndef check(mod):\n    if "BUG" in mod.text:\n        os.kill(os.getpid(), signal.SIGSEGV)\n' > "$T/crashes.py"
  fake BUG
  cp "$T/c.relay" "$T/bug.relay"
  expect 0 "interesting (in stage check): check(mod) returned False" "$I/tvm-check" "$T/returns.py" "$T/bug.relay"
  expect 0 "AssertionError: the bug: BUG in the module" "$I/tvm-check" "$T/raises.py" "$T/bug.relay"
  expect 0 "signal SIGSEGV" "$I/tvm-check" "$T/crashes.py" "$T/bug.relay"
  expect 1 "a different error" "$I/tvm-check" --match 'other' "$T/raises.py" "$T/bug.relay"
  expect 1 "no bug: check(mod) passed" "$I/tvm-check" "$T/raises.py" "$T/ok.relay"
  fake FAKE_PARSE_ERROR
  expect 1 "something else broke (in stage parse)" "$I/tvm-check" "$T/raises.py" "$T/c.relay"
  printf '%s\n' "$T/bug.relay" "$T/ok.relay" "$T/bug.relay" | "$I/tvm-server" --check "$T/crashes.py" > "$T/answers"
  [ "$(cat "$T/answers")" = "$(printf '0 signal SIGSEGV\n1\n0 signal SIGSEGV')" ]
  printf 'def chek(mod):\n    pass\n' > "$T/nocheck.py"
  expect 2 "defines no function check(mod)" "$I/tvm-check" "$T/nocheck.py" "$T/ok.relay"
  printf 'def check(mod:\n' > "$T/syntax.py"
  run "$I/tvm-server" --check "$T/syntax.py" < /dev/null
  [ "$status" -eq 2 ]
  [[ "$output" == *"cannot load"*"SyntaxError"* ]]
  expect 2 "no such file" "$I/tvm-check" "$T/missing.py" "$T/ok.relay"
}

@test "make install: programs, TVM tests (links that find their module) and the Python module relaykit" {
  make -s -C "$ROOT" install DESTDIR="$T/root" PREFIX=/opt/rk PYTHONDIR=/opt/rk/py > "$T/log"
  for f in rfmt rcheck rgen rreduce roracle rmutate $SCRIPTS tvm-server server-adapter; do
    [ -x "$T/root/opt/rk/bin/$f" ]
  done
  [ -L "$T/root/opt/rk/bin/tvm-build" ]
  run "$T/root/opt/rk/bin/tvm-build" --help
  [ "$status" -eq 0 ]
  [[ "$output" == *"--disabled-pass"* ]]
  # the module imports without TVM (TVM is imported when a function is called)
  PYTHONPATH="$T/root/opt/rk/py" python3 -c 'import relaykit; assert callable(relaykit.save) and callable(relaykit.load)'
  grep -q "relaykit in /opt/rk/py" "$T/log"
  # a man page for each, made from its --help
  for f in rfmt rcheck rgen rreduce roracle rmutate $SCRIPTS tvm-server server-adapter; do
    page="$T/root/opt/rk/share/man/man1/$f.1"
    grep -q "^\.TH $(tr '[:lower:]' '[:upper:]' <<<"$f") 1" "$page"
    grep -q "^$f \\\\- [a-z]" "$page"
  done
  grep -q -- '--print-diff' "$T/root/opt/rk/share/man/man1/rreduce.1"
  if command -v man >/dev/null; then
    MANWIDTH=100 man -l "$T/root/opt/rk/share/man/man1/rreduce.1" 2>/dev/null | grep -q "rreduce - shrink a Relay program"
  fi
}

@test "server-adapter: one status line per path, spaces, missing files, no trailing newline" {
  printf '#!/bin/sh\necho "test output"\ngrep -q bug "$1" && exit 0\ngrep -q seven "$1" && exit 7\nexit 1\n' > "$T/t.sh"
  chmod +x "$T/t.sh"
  mkdir "$T/a b"
  echo bug > "$T/a b/x y.relay"
  echo nothing > "$T/n.relay"
  echo seven > "$T/s.relay"
  printf '%s\n' "$T/a b/x y.relay" "$T/n.relay" "$T/s.relay" "" "$T/missing.relay" > "$T/requests"
  printf '%s' "$T/a b/x y.relay" >> "$T/requests"
  run sh -c '"$1" "$2" < "$3" 2>/dev/null' sh "$I/server-adapter" "$T/t.sh" "$T/requests"
  [ "$status" -eq 0 ]
  [ "$output" = "$(printf '0\n1\n7\n2\n2\n0')" ]
}

@test "server-adapter: the test runs in a fresh directory holding the candidate under its basename" {
  printf '#!/bin/sh\n[ "$(basename "$1")" = "bug.relay" ] && [ -f "./bug.relay" ] && [ "$(ls | wc -l)" -eq 1 ] && [ "$2" = extra ] && [ -d "$TMPDIR" ]\n' > "$T/where.sh"
  chmod +x "$T/where.sh"
  echo x > "$T/bug.relay"
  printf '%s\n%s\n' "$T/bug.relay" "$T/bug.relay" > "$T/requests"
  run sh -c 'cd "$4" && "$1" ./where.sh extra < "$3"' sh "$I/server-adapter" x "$T/requests" "$T"
  [ "$status" -eq 0 ]
  [ "$output" = "$(printf '0\n0')" ]
  [ -f "$T/bug.relay" ]
  run "$I/server-adapter"
  [ "$status" -eq 2 ]
}

@test "server-adapter passes shellcheck" {
  if ! command -v shellcheck >/dev/null; then skip "no shellcheck"; fi
  shellcheck "$I/server-adapter"
}

@test "RELAYKIT_REPRO: each script writes a standalone Python repro of its check (for rreduce --report)" {
  export PYTHONPATH=$FAKE
  fake FAKE_BUILD_ERROR
  printf 'def check(mod):\n    return False\n' > "$T/uc.py"
  # CHECK ARGS... | what the repro must contain
  while IFS='|' read -r args want; do
    rm -f "$T/repro.py"
    RELAYKIT_REPRO=$T/repro.py run $args "$T/c.relay"
    [ -f "$T/repro.py" ] || { echo "no repro from: $args"; return 1; }
    python3 -c 'import sys; compile(open(sys.argv[1]).read(), sys.argv[1], "exec")' "$T/repro.py"
    grep -q 'FAKE_BUILD_ERROR' "$T/repro.py" # the candidate's text, embedded
    grep -qF -- "$want" "$T/repro.py" || { echo "$args: no '$want' in"; cat "$T/repro.py"; return 1; }
    ! grep -q relaykit_tvm "$T/repro.py" || false # standalone: plain TVM calls
  done <<LIST
$I/tvm-parse|tvm.relay.parse(TEXT)
$I/tvm-typecheck|relay.transform.InferType()(mod)
$I/tvm-build --opt-level 2 --disabled-pass AlterOpLayout --config relay.FuseOps.max_depth=3|PassContext(opt_level=2, disabled_pass=['AlterOpLayout'], config={'relay.FuseOps.max_depth': 3})
$I/tvm-build --executor vm --target-host llvm|relay.vm.compile(mod, target=tvm.target.Target('llvm', host='llvm'), params=params)
$I/tvm-build --run --inputs zeros|graph_executor.GraphModule(built["default"](dev))
$I/tvm-pass FoldConstant ToMixedPrecision("float16")|relay.transform.ToMixedPrecision('float16')
$I/tvm-diff --configs vm:0,graph:3|np.testing.assert_allclose
$I/tvm-roundtrip --infer|mod.astext(show_meta_data=True)
$I/tvm-check $T/uc.py|    return False
LIST
  # a pipeline rreduce reduced to no pass at all: an empty list, still Python
  printf '{"check":"pass","passes":[],"opt_level":0,"disabled_pass":[],"ran":[]}\n' > "$T/c.relay.pipeline"
  rm -f "$T/repro.py"
  RELAYKIT_REPRO=$T/repro.py RELAYKIT_ORACLE_OUTCOME=1 run "$I/tvm-pass" --build FoldConstant "$T/c.relay"
  rm -f "$T/c.relay.pipeline"
  python3 -c 'import sys; compile(open(sys.argv[1]).read(), sys.argv[1], "exec")' "$T/repro.py"
  grep -qx 'passes = \[\]' "$T/repro.py"
}

@test "rreduce --report holds the standalone repro that the TVM test wrote, and the environment" {
  export PYTHONPATH=$FAKE
  printf '#[version = "0.0.5"]\ndef @main(%%x: Tensor[(2), float32]) {\n  %%0 = add(%%x, %%x);\n  multiply(%%0, %%0) /* FAKE_BUILD_ERROR */\n}\n' > "$T/b.relay"
  printf '#!/bin/sh\nexec "%s" -q --opt-level 2 "$1"\n' "$I/tvm-build" > "$T/t.sh"
  chmod +x "$T/t.sh"
  # the pipeline as the test gives it (--no-pipeline: rreduce_pipeline.bats shows it reduced)
  run "$ROOT/bin/rreduce" --tidy --keep-comments --no-pipeline --report "$T/r.md" "$T/b.relay" "$T/t.sh"
  [ "$status" -eq 0 ]
  grep -q '^### Standalone Python repro' "$T/r.md"
  grep -q "with tvm.transform.PassContext(opt_level=2):" "$T/r.md"
  grep -q '^```python$' "$T/r.md"
  grep -q '^```sh$' "$T/r.md" # the test, fenced in its own language
  grep -q '^- OS: ' "$T/r.md"
  grep -q '^- relaykit: ' "$T/r.md"
  grep -q "^rreduce --tidy --keep-comments --no-pipeline --report $T/r.md $T/b.relay $T/t.sh\$" "$T/r.md"
  # the same with the oracle server, which is started afresh to write it
  cp "$T/b.relay" "$T/c.relay"
  run "$ROOT/bin/rreduce" --tidy --keep-comments --no-pipeline --report "$T/s.md" --server "'$I/tvm-server' build --opt-level 1" "$T/c.relay"
  [ "$status" -eq 0 ]
  grep -q "with tvm.transform.PassContext(opt_level=1):" "$T/s.md"
}

@test "fake TVM: tvm-diff draws other inputs when the reference traps or gives NaN; never a wrong result from them" {
  use_numpy_python
  # the reference traps (SIGFPE, an integer division by zero on those inputs) when the first input
  # is negative: other inputs are drawn (positive ones by the third), and the results agree
  export FAKE_TVM_PLANTED='trap:nn.relu'
  prog 'nn.relu(%x)' "$T/t.relay"
  for seed in 0 1 2 3 4 5; do
    expect 1 "no bug: results agree" "$I/tvm-diff" --seed "$seed" "$T/t.relay"
  done
  # NaN from the reference on some inputs: the same, with the note in the outcome
  export FAKE_TVM_PLANTED='nan:nn.relu' RELAYKIT_ORACLE_OUTCOME=1
  for seed in 0 1 2 3 4 5; do
    expect 1 "no bug: results agree" "$I/tvm-diff" --seed "$seed" "$T/t.relay"
  done
  # a wrong result still is one, with NaN beside it (the NaN positions are not compared)
  export FAKE_TVM_PLANTED='nan:nn.relu;diff:3:nn.relu'
  expect 0 "results differ between vm@0 and vm@3" "$I/tvm-diff" --positive "$T/t.relay"
  # always NaN: nothing to compare, said as no bug, and why in the outcome
  unset FAKE_TVM_PLANTED
  prog 'nn.relu(%x) /* FAKE_NAN */' "$T/n.relay"
  expect 1 "no bug: the reference vm@0 gives no finite result on any of 4 inputs drawn" "$I/tvm-diff" "$T/n.relay"
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["kind"] == "none" and "finite" in d["note"], d' "$T/n.relay.outcome"
}

@test "fake TVM: tvm-bisect names the pass after which the module is broken, or in which the build fails" {
  export PYTHONPATH=$FAKE
  prog '%0 = add(%x, %x);
  negative(%0)' "$T/b.relay"
  # a pass list: the second pass leaves a module that no longer type-checks; the IR diff beside
  export FAKE_TVM_PLANTED='break:CanonicalizeOps'
  run "$I/tvm-bisect" SimplifyExpr CanonicalizeOps FuseOps "$T/b.relay"
  [ "$status" -eq 0 ]
  [[ "$output" == *"interesting (in stage pass CanonicalizeOps): culprit: CanonicalizeOps (pass 2 of 3): it no longer type-checks"* ]]
  [[ "$output" == *"--- before CanonicalizeOps"*"+++ after CanonicalizeOps"* ]]
  # relay.build's own passes, watched by a pass instrument
  export FAKE_TVM_PLANTED='break:AlterOpLayout'
  expect 0 "(in stage build pass AlterOpLayout): culprit: AlterOpLayout (in relay.build)" "$I/tvm-bisect" -q "$T/b.relay"
  # a build that fails in a pass: that pass; --match as the other scripts
  export FAKE_TVM_PLANTED='build-order:FoldConstant>FuseOps'
  expect 0 "(in stage build pass FuseOps): Check failed: fake pass order" "$I/tvm-bisect" -q --match 'pass order' "$T/b.relay"
  expect 1 "" "$I/tvm-bisect" -q --match 'something else' "$T/b.relay"
  # passes, then --build (as tvm-pass --build): relay.build's passes after them are watched too,
  # inside the one Sequential relay.build runs them in (TVM's and the fake's), which is no culprit
  export FAKE_TVM_PLANTED='pass-error:SimplifyExpr>FuseOps'
  expect 0 "(in stage build pass FuseOps): Check failed: fake pass order" "$I/tvm-bisect" -q --build SimplifyExpr "$T/b.relay"
  expect 1 "no bug: no pass breaks the module (1 passes)" "$I/tvm-bisect" -q SimplifyExpr "$T/b.relay"
  # the Sequential is no pass the outcome says ran (rreduce would try to disable it)
  unset FAKE_TVM_PLANTED
  RELAYKIT_ORACLE_OUTCOME=1 run "$I/tvm-build" -q "$T/b.relay"
  python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["pipeline"]["ran"]; assert "FuseOps" in r and "sequential" not in r, r' "$T/b.relay.outcome"
  # nothing broken: no bug
  expect 1 "no bug: no pass breaks the module (2 passes)" "$I/tvm-bisect" -q FoldConstant FuseOps "$T/b.relay"
  expect 1 "no bug: no pass of relay.build breaks the module" "$I/tvm-bisect" -q "$T/b.relay"
  # through the server, as rreduce would use it
  export FAKE_TVM_PLANTED='break:CanonicalizeOps'
  printf '%s\n' "$T/b.relay" | "$I/tvm-server" bisect SimplifyExpr CanonicalizeOps > "$T/answer"
  [[ "$(cat "$T/answer")" == "0 "* ]]
}
