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
  export RELAYKIT_TVM_VERSION=0.19
  for tool in rfmt rcheck rgen rreduce rmutate roracle rfuzz; do
    run "$BIN/$tool" --version
    [ "$status" -eq 0 ] || { echo "$tool --version: exit $status"; return 1; }
    [[ "${lines[0]}" =~ ^$tool\ \(relaykit\)\ [0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "$tool: $output"; return 1; }
    # the tools that consult the operator registry say which TVM release's (tests/run.sh: 0.19)
    case $tool in
      rfmt | roracle) [ "${#lines[@]}" -eq 1 ] || { echo "$tool: $output"; return 1; } ;;
      *) [ "${lines[1]}" = "checks against TVM v0.19.0's Relay registry (RELAYKIT_TVM_VERSION=0.19)" ] ||
        { echo "$tool: $output"; return 1; } ;;
    esac
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
  [[ "$output" == *"--passes: unknown pass 'bogus' (one of: pipe-passes, "*"comments, "*"body, truncate,"* ]]
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

@test "every tool: output lost to a failed write (/dev/full) is exit 2 with 'cannot write to standard output'" {
  [ -w /dev/full ] || skip "no /dev/full"
  cp "$MODEL" "$T/m.relay"
  mkdir "$T/dir" && cp "$MODEL" "$T/dir/a.relay"
  printf '#!/bin/sh\ngrep -q conv2d "$1"\n' > "$T/keep.sh"
  printf '#!/bin/sh\nexit 1\n' > "$T/fail.sh"
  chmod +x "$T/keep.sh" "$T/fail.sh"
  while IFS= read -r cmd; do
    # shellcheck disable=SC2086 # the words of each command line
    run bash -c "\"$BIN\"/$cmd > /dev/full"
    [ "$status" -eq 2 ] || { echo "$cmd: exit $status: $output"; return 1; }
    [[ "$output" == *"${cmd%% *}: cannot write to standard output" ]] || { echo "$cmd: $output"; return 1; }
  done <<LIST
rfmt $T/m.relay
rfmt --join $T/m.relay $T/m.relay
rcheck --annotate $T/m.relay
rcheck --json $T/m.relay
rcheck --list-ops
rgen -n 3
rgen --stats
rgen --help
rreduce --list-passes
rreduce --json -o $T/out.relay $T/m.relay $T/keep.sh
roracle $T/dir $T/fail.sh
rmutate $T/m.relay -n 2 --json -o $T/mutants
rfuzz --list-passes
LIST
  # nothing written and standard output closed is no error
  run bash -c "\"$BIN\"/rcheck $T/m.relay >&-"
  [ "$status" -eq 0 ]
}
