#!/usr/bin/env bats
# What every tool does the same way: --version, errors that name the tool, one line for an unknown
# option, unknown names in name lists refused, tests that cannot be exec'd refused, symlinks kept.

setup() {
  ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
  RFMT=${RFMT:-$ROOT/bin/rfmt}
  BIN=$(dirname "$RFMT")
  MODEL=$ROOT/examples/resnet-18.relay
  T=$BATS_TEST_TMPDIR
}

@test "every tool: --version, and an unknown option is one line naming the tool, then 'Try --help', exit 2" {
  for tool in rfmt rcheck rgen rreduce rmutate roracle; do
    run "$BIN/$tool" --version
    [ "$status" -eq 0 ] || { echo "$tool --version: exit $status"; return 1; }
    [[ "$output" =~ ^$tool\ \(relaykit\)\ [0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "$tool: $output"; return 1; }
    run "$BIN/$tool" --no-such-option
    [ "$status" -eq 2 ] || { echo "$tool: exit $status"; return 1; }
    [ "${lines[0]}" = "$tool: unrecognized option '--no-such-option'" ] || { echo "$tool: $output"; return 1; }
    [ "${lines[1]}" = "Try '$tool --help' for more information." ] || { echo "$tool: $output"; return 1; }
    [ "${#lines[@]}" -eq 2 ] || { echo "$tool: $output"; return 1; }
  done
}

@test "file errors name the tool that hit them" {
  run "$BIN/rcheck" "$T/missing.relay"
  [ "$status" -eq 2 ]
  [[ "$output" == "rcheck: $T/missing.relay: No such file or directory"* ]]
  run "$BIN/rfmt" "$T"
  [[ "$output" == "rfmt: $T: is a directory"* ]]
}

@test "unknown names in --passes, --skip-passes and --mutators are usage errors with the list; FILE untouched" {
  cp "$MODEL" "$T/m.relay"
  printf '#!/bin/sh\nexit 0\n' > "$T/yes.sh"
  chmod +x "$T/yes.sh"
  run "$BIN/rreduce" --passes dce,bogus "$T/m.relay" "$T/yes.sh"
  [ "$status" -eq 2 ]
  [[ "$output" == *"--passes: unknown pass 'bogus' (one of: pipe-passes, "*"comments, body, truncate,"* ]]
  run "$BIN/rreduce" --skip-passes nope "$T/m.relay" "$T/yes.sh"
  [ "$status" -eq 2 ]
  [[ "$output" == *"--skip-passes: unknown pass 'nope'"* ]]
  cmp "$T/m.relay" "$MODEL"
  run "$BIN/rmutate" "$T/m.relay" --mutators opswap,bogus -n 1 -o "$T/out"
  [ "$status" -eq 2 ]
  [[ "$output" == *"--mutators: unknown mutator 'bogus' (one of: regenerate, opswap,"* ]]
  [ ! -e "$T/out" ]
}

@test "a test without #! is a usage error, not 'not interesting'" {
  cp "$MODEL" "$T/m.relay"
  printf 'grep -q conv2d "$1"\n' > "$T/plain.sh"
  chmod +x "$T/plain.sh"
  run "$BIN/rreduce" "$T/m.relay" "$T/plain.sh"
  [ "$status" -eq 2 ]
  [[ "$output" == *"plain.sh: the test has no #! line"* ]]
  cmp "$T/m.relay" "$MODEL"
  mkdir "$T/dir" && cp "$MODEL" "$T/dir/"
  run "$BIN/roracle" "$T/dir" "$T/plain.sh"
  [ "$status" -eq 2 ]
  [[ "$output" == *"has no #! line"* ]]
}

@test "rfmt -i through a symlink rewrites the file it points to and keeps the link" {
  cp "$MODEL" "$T/real.relay"
  ln -s "$T/real.relay" "$T/link.relay"
  run "$BIN/rfmt" -i --strip-types "$T/link.relay"
  [ "$status" -eq 0 ]
  [ -L "$T/link.relay" ]
  ! grep -q 'ty=' "$T/real.relay"
}
