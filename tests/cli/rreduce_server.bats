#!/usr/bin/env bats
# rreduce --server: the persistent oracle protocol (interestingness/PROTOCOL.md), tested with
# servers written in shell on top of rcheck: same results as a command test, and servers that
# die, hang or answer garbage are handled.

load rreduce_helpers

# server NAME BODY: a server script answering for each path line; BODY sees the path in $path.
server() {
  printf '#!/bin/sh\nn=0\nwhile IFS= read -r path; do\n  n=$((n + 1))\n%s\ndone\n' "$2" > "$T/$1"
  chmod +x "$T/$1"
}

@test "a server and a command test reach the same result" {
  server conv.sh "  if \"$RCHECK\" \"\$path\" >/dev/null 2>&1 && grep -q 'nn.conv2d(' \"\$path\"; then echo 0; else echo '1 no conv2d'; fi"
  cp "$CORPUS/models/squeezenet_v1.1.relay" "$T/a.relay"
  cp "$CORPUS/models/squeezenet_v1.1.relay" "$T/b.relay"
  run "$RREDUCE" --tidy "$T/a.relay" "$T/keep.sh"
  [ "$status" -eq 0 ]
  run "$RREDUCE" --tidy --json --server "$T/conv.sh" "$T/b.relay"
  [ "$status" -eq 0 ]
  cmp "$T/a.relay" "$T/b.relay"
  python3 -c 'import json,sys; d=json.loads(sys.argv[1].splitlines()[-1]); assert d["server_starts"] == d["jobs"], d' "$output"
}

@test "a server that dies every few queries is restarted and nothing is lost" {
  server dies.sh "  if \"$RCHECK\" \"\$path\" >/dev/null 2>&1 && grep -q 'nn.conv2d(' \"\$path\"; then echo 0; else echo 1; fi
  [ \$n -ge 3 ] && kill -9 \$\$"
  cp "$CORPUS/models/squeezenet_v1.1.relay" "$T/a.relay"
  cp "$CORPUS/models/squeezenet_v1.1.relay" "$T/b.relay"
  run "$RREDUCE" --tidy "$T/a.relay" "$T/keep.sh"
  run "$RREDUCE" --tidy --json --server "$T/dies.sh" "$T/b.relay"
  [ "$status" -eq 0 ]
  cmp "$T/a.relay" "$T/b.relay"
  python3 -c 'import json,sys; d=json.loads(sys.argv[1].splitlines()[-1]); assert d["server_starts"] > d["jobs"], d' "$output"
}

@test "a server that hangs is killed at the timeout, counted, and leaves no process" {
  # it hangs at most twice (each costs the whole timeout: it hung on most candidates, 30 s under
  # ASan): enough to be counted, and to leave processes behind if the kill were not thorough
  server hangs.sh "  if [ ! -e '$T/hung2' ] && ! grep -q 'nn.dense(' \"\$path\" && grep -q 'nn.batch_norm(' \"\$path\"; then
    if [ -e '$T/hung1' ]; then touch '$T/hung2'; else touch '$T/hung1'; fi; sleep 1000.8484 & sleep 1000.8484; fi
  if \"$RCHECK\" \"\$path\" >/dev/null 2>&1 && grep -q 'nn.conv2d(' \"\$path\"; then echo 0; else echo 1; fi"
  cp "$CORPUS/models/resnet-18.relay" "$T/h.relay"
  # --timeout 4: the answers that do not hang take a second or more under ASan on a loaded machine
  run "$RREDUCE" --tidy --json --timeout 4 --server "$T/hangs.sh" "$T/h.relay"
  [ "$status" -eq 0 ] || { echo "$output"; return 1; }
  python3 -c 'import json,sys; d=json.loads([l for l in sys.argv[1].splitlines() if l.startswith("{")][-1]); assert d["timeouts"] > 0, d' "$output"
  grep -q 'nn.conv2d(' "$T/h.relay"
  sleep 0.5
  ! pgrep -f 'sleep 1000[.]8484'
}

@test "garbage answers are errors: a warning during the run, a clear refusal on the input" {
  server garbage.sh "  if [ \$((n % 4)) -eq 0 ]; then echo 'banana split'; continue; fi
  if \"$RCHECK\" \"\$path\" >/dev/null 2>&1 && grep -q 'nn.conv2d(' \"\$path\"; then echo 0; else echo 1; fi"
  cp "$CORPUS/models/squeezenet_v1.1.relay" "$T/g.relay"
  run "$RREDUCE" --tidy -j1 --server "$T/garbage.sh" "$T/g.relay"
  [ "$status" -eq 0 ]
  [[ "$output" == *"answered garbage"* ]]
  "$T/keep.sh" "$T/g.relay"
  server always.sh "  echo 'OK!'"
  cp "$CORPUS/models/squeezenet_v1.1.relay" "$T/x.relay"
  run "$RREDUCE" --tidy --server "$T/always.sh" "$T/x.relay"
  [ "$status" -eq 1 ]
  [[ "$output" == *"garbage"*"OK!"* ]]
  cmp "$T/x.relay" "$CORPUS/models/squeezenet_v1.1.relay"
}

@test "an answer written with a surplus line is garbage: a plain server answering 0\\n0\\n is never believed" {
  # issue 29: a plain server (it ignores RELAYKIT_ORACLE_ECHO) that answers '0\n0\n', one write,
  # to the first query of each of its lives.  Taking the first line as the answer and catching
  # the second before the next query let each fresh server accept one candidate of its choosing:
  # exit 0 with a file without conv2d.  Now such an answer is garbage, the query goes once more
  # to a fresh server, which does the same: the input gets no answer to trust, and is refused.
  server surplus.sh "  if grep -q 'nn.conv2d(' \"\$path\"; then a=0; else a=1; fi
  if [ \$n -eq 1 ]; then printf '0\\n0\\n'; else echo \$a; fi"
  for j in 1 2; do
    cp "$CORPUS/models/squeezenet_v1.1.relay" "$T/s$j.relay"
    run "$RREDUCE" -j$j --server "$T/surplus.sh" "$T/s$j.relay"
    [ "$status" -eq 1 ]
    [[ "$output" == *"no answer to trust"*"more than one line for one query"* ]]
    cmp "$T/s$j.relay" "$CORPUS/models/squeezenet_v1.1.relay"
  done
}

@test "--server: the result is asked once more of a fresh server; one it does not find interesting is exit 4" {
  # a plain server that says 'interesting' once, wrongly, on a program without conv2d, in a line
  # of its own: nothing in the stream shows the lie, and the reduction takes it.  The final
  # question to a fresh server does: exit 4, the input kept in FILE.orig, no report written.
  server lies.sh "  if grep -q 'nn.conv2d(' \"\$path\"; then a=0; else a=1; fi
  if [ \$a = 1 ] && [ ! -e \"\$0.once\" ]; then : > \"\$0.once\"; a=0; fi
  echo \$a"
  cp "$CORPUS/models/squeezenet_v1.1.relay" "$T/l.relay"
  run "$RREDUCE" -j1 --report "$T/l.md" --server "$T/lies.sh" "$T/l.relay"
  [ "$status" -eq 4 ]
  [ -e "$T/lies.sh.once" ]
  [[ "$output" == *"does not find"*"l.relay interesting"*"asked once more of a fresh server"*"l.relay.orig"* ]]
  ! grep -q 'nn.conv2d(' "$T/l.relay" || false
  cmp "$T/l.relay.orig" "$CORPUS/models/squeezenet_v1.1.relay"
  [ ! -e "$T/l.md" ]
  # an honest server passes the same check: exit 0
  server honest.sh "  if grep -q 'nn.conv2d(' \"\$path\"; then echo 0; else echo 1; fi"
  cp "$CORPUS/models/squeezenet_v1.1.relay" "$T/h.relay"
  run "$RREDUCE" -j1 --tidy --server "$T/honest.sh" "$T/h.relay"
  [ "$status" -eq 0 ]
  grep -q 'nn.conv2d(' "$T/h.relay"
}

@test "--server: the checking server starts with the others, before any question, and is asked the last one only" {
  # its start-up (TVM's import) overlaps the reduction instead of adding to its end.  Each server
  # waits (up to 20 s) for all three starts before it reads: rreduce starts them before its first
  # question, but which process gets to write its line first is the scheduler's choice.  Started
  # only at the end, the checking server would come after the questions, as before.
  printf '#!/bin/sh\necho "start $$" >> "%s/log"\nn=0\nwhile [ "$(grep -c "^start " "%s/log")" -lt 3 ] && [ $n -lt 400 ]; do sleep 0.05; n=$((n + 1)); done\nwhile IFS= read -r path; do\n  echo "ask $$" >> "%s/log"\n  if grep -q "nn.conv2d(" "$path"; then echo 0; else echo 1; fi\ndone\n' "$T" "$T" "$T" > "$T/logs.sh"
  chmod +x "$T/logs.sh"
  cp "$CORPUS/models/squeezenet_v1.1.relay" "$T/s.relay"
  run "$RREDUCE" -j2 --tidy --server "$T/logs.sh" "$T/s.relay"
  [ "$status" -eq 0 ]
  # three servers (two for -j2, one to check), all started before the first question
  [ "$(head -3 "$T/log" | grep -c '^start ')" -eq 3 ]
  [ "$(grep -c '^start ' "$T/log")" -eq 3 ]
  # the last question went to a server asked nothing before it
  last=$(tail -1 "$T/log")
  [[ "$last" == "ask "* ]]
  [ "$(grep -c "^$last\$" "$T/log")" -eq 1 ]
  [ "$(grep -c '^ask ' "$T/log")" -gt 3 ]
}

@test "with the echo, a surplus line is caught whenever it arrives, and its victim is asked again" {
  # an echoing server that repeats its first answer, as "interesting", once: late, while it is
  # answering the first candidate that is not interesting.  Without the echo that candidate
  # would take the stale line as its answer and be accepted; the echo shows it is stale, and
  # the candidate goes to a fresh server.  Never on a server's first query: with -j2 the second
  # server's first candidate may be one that is not interesting, and a line naming that very
  # candidate is its answer as far as any client can tell.
  server late.sh "  [ \"\$RELAYKIT_ORACLE_ECHO\" = 1 ] || { echo 'no RELAYKIT_ORACLE_ECHO' >&2; exit 3; }
  [ \$n -eq 1 ] && first=\$path
  if \"$RCHECK\" \"\$path\" >/dev/null 2>&1 && grep -q 'nn.conv2d(' \"\$path\"; then a=0; else a=1; fi
  if [ \$a = 1 ] && [ \$n -gt 1 ] && [ ! -e \"\$0.once\" ]; then : > \"\$0.once\"; printf '%s\\t0\\n' \"\$first\"; sleep 0.2; fi
  printf '%s\\t%s\\n' \"\$path\" \$a"
  cp "$CORPUS/models/squeezenet_v1.1.relay" "$T/a.relay"
  "$RREDUCE" --tidy "$T/a.relay" "$T/keep.sh"
  for j in 1 2; do
    rm -f "$T/late.sh.once"
    cp "$CORPUS/models/squeezenet_v1.1.relay" "$T/l$j.relay"
    run "$RREDUCE" --tidy -j$j --json --server "$T/late.sh" "$T/l$j.relay"
    [ "$status" -eq 0 ]
    [ -e "$T/late.sh.once" ]
    python3 -c 'import json,sys; d=json.loads(sys.argv[1].splitlines()[-1]); assert d["server_garbage"] >= 1, d' "$output"
    "$T/keep.sh" "$T/l$j.relay"
    cmp "$T/a.relay" "$T/l$j.relay"
  done
}

@test "server-adapter echoes the path when asked, and hides the variable from its test" {
  printf '#!/bin/sh\n[ -z "$RELAYKIT_ORACLE_ECHO" ] || exit 7\ngrep -q conv2d "$1"\n' > "$T/t.sh"
  chmod +x "$T/t.sh"
  printf 'nn.conv2d\n' > "$T/c d.relay"
  printf 'x\n' > "$T/n.relay"
  run sh -c "printf '%s\\n' '$T/c d.relay' '$T/n.relay' | RELAYKIT_ORACLE_ECHO=1 '$ROOT/interestingness/server-adapter' '$T/t.sh'"
  [ "$status" -eq 0 ]
  [ "$output" = "$(printf '%s\t0\n%s\t1' "$T/c d.relay" "$T/n.relay")" ]
  run sh -c "printf '%s\\n' '$T/n.relay' | '$ROOT/interestingness/server-adapter' '$T/t.sh'"
  [ "$output" = 1 ]
}

@test "--match applies to the server's signature; usage errors" {
  server sig.sh "  if grep -q 'nn.dense(' \"\$path\"; then echo '0 TVMError: dense 0x7f12'; else echo '0 another error'; fi"
  cp "$CORPUS/models/mlp.relay" "$T/m.relay"
  run "$RREDUCE" --tidy --match 'TVMError: dense' --server "$T/sig.sh" "$T/m.relay"
  [ "$status" -eq 0 ]
  grep -q 'nn.dense(' "$T/m.relay"
  run "$RREDUCE" --server "$T/sig.sh" "$T/m.relay" "$T/keep.sh"
  [ "$status" -eq 2 ]
  [[ "$output" == *"only FILE"* ]]
}

@test "any command test works as a server through interestingness/server-adapter" {
  cp "$CORPUS/models/squeezenet_v1.1.relay" "$T/a.relay"
  cp "$CORPUS/models/squeezenet_v1.1.relay" "$T/b.relay"
  run "$RREDUCE" --tidy "$T/a.relay" "$T/keep.sh"
  [ "$status" -eq 0 ]
  run "$RREDUCE" --tidy --server "$ROOT/interestingness/server-adapter $T/keep.sh" "$T/b.relay"
  [ "$status" -eq 0 ]
  cmp "$T/a.relay" "$T/b.relay"
}
