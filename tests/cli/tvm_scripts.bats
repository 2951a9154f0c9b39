#!/usr/bin/env bats
# interestingness/: the TVM tests (tvm-*), tvm-server and server-adapter, without TVM. The
# stages, signals, --match and the server protocol run against tests/cli/fake_tvm, a stand-in
# `tvm` package driven by FAKE_<STAGE>_<HOW> markers in the candidate.

SCRIPTS="tvm-parse tvm-typecheck tvm-build tvm-pass tvm-diff tvm-roundtrip"

setup() {
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
  for f in $SCRIPTS tvm-server relaykit_tvm.py; do
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
