#!/usr/bin/env bats
# rreduce stopped every way a user or a system stops it: each signal ends it cleanly, a kill
# leaves no test running, the backup stays the true original across kills and reruns, and a
# second rreduce on the same FILE is refused.

load rreduce_helpers

# slow.sh: the usual test, slowed so a run is caught in the middle; it marks its sleep with a
# unique number so leftover tests can be counted.
slow_test() {
  printf '#!/bin/sh\nsleep 0.%s1717\n"%s" "$1" >/dev/null 2>&1 && grep -q "nn.conv2d(" "$1"\n' "$1" "$RCHECK" > "$T/slow.sh"
  chmod +x "$T/slow.sh"
}

@test "SIGINT, SIGTERM, SIGHUP and SIGQUIT during the first test: exit 130, FILE unchanged, no test left" {
  printf '#!/bin/sh\nsleep 1000.4242\n' > "$T/hang.sh"
  chmod +x "$T/hang.sh"
  for sig in INT TERM HUP QUIT; do
    cp "$CORPUS/models/mlp.relay" "$T/m.relay"
    "$RREDUCE" "$T/m.relay" "$T/hang.sh" 2> "$T/err" 3>&- &
    pid=$!
    # the first test is running (an ASan build on a loaded machine can take seconds to get there)
    for _ in $(seq 200); do pgrep -f 'sleep 1000[.]4242' > /dev/null && break; sleep 0.1; done
    kill -$sig $pid
    status=0
    wait $pid || status=$?
    [ "$status" -eq 130 ] || { echo "$sig: exit $status: $(cat "$T/err")"; return 1; }
    grep -q "interrupted during the first test" "$T/err"
    cmp "$T/m.relay" "$CORPUS/models/mlp.relay"
    [ ! -e "$T/m.relay.orig" ]
    [ ! -e "$T/m.relay.rreduce-lock" ]
    sleep 0.3
    ! pgrep -f 'sleep 1000[.]4242' || { echo "$sig: a test is left"; return 1; }
  done
}

@test "SIGHUP in the middle: FILE is interesting, the backup is the input" {
  slow_test 2
  cp "$CORPUS/models/resnet-18.relay" "$T/r.relay"
  "$RREDUCE" --no-cache "$T/r.relay" "$T/slow.sh" 2>/dev/null 3>&- &
  pid=$!
  # in the middle: once rreduce has written a smaller program into FILE (a fixed 2 s wait caught an
  # ASan build on a loaded machine still in its first test, before any backup existed)
  for _ in $(seq 300); do
    sleep 0.1
    cmp -s "$T/r.relay" "$CORPUS/models/resnet-18.relay" || break
  done
  ! cmp -s "$T/r.relay" "$CORPUS/models/resnet-18.relay"
  kill -HUP $pid
  status=0
  wait $pid || status=$?
  [ "$status" -eq 130 ]
  "$T/slow.sh" "$T/r.relay"
  cmp "$T/r.relay.orig" "$CORPUS/models/resnet-18.relay"
}

@test "after SIGKILL no test keeps running, and a rerun keeps the true original as FILE.orig" {
  slow_test 3
  cp "$CORPUS/models/resnet-18.relay" "$T/k.relay"
  "$RREDUCE" --no-cache -j2 "$T/k.relay" "$T/slow.sh" 2>/dev/null 3>&- &
  pid=$!
  # wait until rreduce has written at least one smaller program into FILE, then kill it outright
  for _ in $(seq 100); do
    sleep 0.1
    cmp -s "$T/k.relay" "$CORPUS/models/resnet-18.relay" || break
  done
  kill -KILL $pid
  wait $pid || true
  ! cmp -s "$T/k.relay" "$CORPUS/models/resnet-18.relay" || false
  sleep 0.5
  ! pgrep -f 'sleep 0[.]31717' || { echo "a test outlived rreduce"; return 1; }
  # the rerun continues from the intermediate FILE: the backup stays the input, nothing moves
  run "$RREDUCE" --no-cache "$T/k.relay" "$T/keep.sh"
  [ "$status" -eq 0 ]
  cmp "$T/k.relay.orig" "$CORPUS/models/resnet-18.relay"
  [ ! -e "$T/k.relay.orig.1" ]
  "$T/keep.sh" "$T/k.relay"
}

@test "a second rreduce on the same FILE is refused while the first runs; another FILE is fine" {
  slow_test 4
  cp "$CORPUS/models/resnet-18.relay" "$T/a.relay"
  "$RREDUCE" --no-cache "$T/a.relay" "$T/slow.sh" 2>/dev/null 3>&- &
  pid=$!
  sleep 1
  run "$RREDUCE" "$T/a.relay" "$T/keep.sh"
  [ "$status" -eq 2 ]
  [[ "$output" == *"another rreduce is reducing"* ]]
  cp "$CORPUS/models/mlp.relay" "$T/b.relay"
  printf '#!/bin/sh\ngrep -q "nn.dense(" "$1"\n' > "$T/dense.sh"
  chmod +x "$T/dense.sh"
  run "$RREDUCE" "$T/b.relay" "$T/dense.sh"
  [ "$status" -eq 0 ]
  kill -INT $pid
  wait $pid || true
  [ ! -e "$T/a.relay.rreduce-lock" ]
  "$T/slow.sh" "$T/a.relay"
  cmp "$T/a.relay.orig" "$CORPUS/models/resnet-18.relay"
}

@test "processes a test leaves outside its group (setsid) are killed, not left running" {
  cp "$CORPUS/models/mlp.relay" "$T/m.relay"
  marker=$((RANDOM % 1000 + 5000)).25
  # one escapes with setsid from the test's shell, one from a subshell that exits at once
  printf '#!/bin/sh\nsetsid sleep %s >/dev/null 2>&1 </dev/null &\n(setsid sh -c "sleep %s" >/dev/null 2>&1 </dev/null &)\ngrep -q "nn.softmax(" "$1"\n' \
    "$marker" "$marker" > "$T/escape.sh"
  chmod +x "$T/escape.sh"
  run "$RREDUCE" --tidy -j2 "$T/m.relay" "$T/escape.sh"
  [ "$status" -eq 0 ]
  sleep 0.5
  left=$(pgrep -fc "sleep $marker" || true)
  pkill -f "sleep $marker" || true
  [ "$left" -eq 0 ]
}

@test "a full disk: rreduce ends on the program its output holds, says so, exits 2; rmutate exits 2" {
  mkdir -p "$T/tiny"
  mount -t tmpfs -o size=16k tmpfs "$T/tiny" 2>/dev/null || skip "cannot mount a small tmpfs here (needs root)"
  cp "$CORPUS/models/resnet-18.relay" "$T/r.relay"
  run "$RREDUCE" -j1 -o "$T/tiny/out.relay" "$T/r.relay" "$T/keep.sh"
  saved=$(wc -c < "$T/tiny/out.relay" 2>/dev/null || echo 0)
  run2_out=$output run2_status=$status
  run "$BIN/rmutate" "$CORPUS/models/resnet-18.relay" -n 20 -j1 -o "$T/tiny/mutants"
  rmutate_status=$status rmutate_out=$output
  umount "$T/tiny"
  [ "$run2_status" -eq 2 ]
  [[ "$run2_out" == *"No space left on device"*"it holds the last program saved"* ]]
  [ "$saved" -gt 0 ]
  # the summary's size is the size of what was saved, not of a candidate that was not
  [[ "$run2_out" == *"-> $saved bytes"* ]]
  [ "$rmutate_status" -eq 2 ]
  [[ "$rmutate_out" == *"cannot write"* ]]
}

@test "after SIGKILL what the tests started in their groups is killed too (the watchdog), and a rerun removes FILE.tmpXXXXXX" {
  cp "$CORPUS/models/resnet-18.relay" "$T/w.relay"
  marker=$((RANDOM % 1000 + 7000)).75
  printf '#!/bin/sh\nsleep %s\n' "$marker" > "$T/sleepy.sh"
  chmod +x "$T/sleepy.sh"
  "$RREDUCE" --no-verify -j2 "$T/w.relay" "$T/sleepy.sh" 2>/dev/null 3>&- &
  pid=$!
  for _ in $(seq 100); do pgrep -f "sleep $marker" > /dev/null && break; sleep 0.1; done
  pgrep -f "sleep $marker" > /dev/null
  kill -KILL $pid
  wait $pid || true
  for _ in $(seq 20); do pgrep -f "sleep $marker" > /dev/null || break; sleep 0.1; done
  left=$(pgrep -fc "sleep $marker" || true)
  pkill -f "sleep $marker" || true
  [ "$left" -eq 0 ]
  # what a kill during a write leaves behind; a rerun removes its own, and nobody else's
  touch "$T/w.relay.tmpAbC123" "$T/w.relay.orig.tmp000xyz" "$T/w.relay2.tmpAAAAAA"
  run "$RREDUCE" "$T/w.relay" "$T/keep.sh"
  [ "$status" -eq 0 ]
  [ ! -e "$T/w.relay.tmpAbC123" ] && [ ! -e "$T/w.relay.orig.tmp000xyz" ] && [ -e "$T/w.relay2.tmpAAAAAA" ]
}
