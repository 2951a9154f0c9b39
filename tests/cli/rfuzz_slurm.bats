#!/usr/bin/env bats
# examples/slurm/: an rfuzz campaign as a Slurm job array (rfuzz-array.sbatch), merged by a job
# that depends on it (rfuzz-merge.sbatch), both submitted by submit.sh.  The last test starts a
# real single-node Slurm on localhost (munged, slurmctld, slurmd, from Debian's slurm-wlm and
# munge) in a temporary directory with its own munge key, slurm.conf and free ports, runs a tiny
# campaign of 2 shards against the fake TVM oracle (tests/cli/fake_tvm, a planted crash in
# nn.softmax), and stops every daemon and job it started.  It is skipped, with the reason, when
# Slurm cannot be started here (not root, packages missing, a daemon that does not come up).

setup() {
  ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
  RFMT=${RFMT:-$ROOT/bin/rfmt}
  RFUZZ=${RFUZZ:-$(dirname "$RFMT")/rfuzz}
  EX=$ROOT/examples/slurm
  T=$BATS_TEST_TMPDIR
  SL=   # the Slurm instance's directory, when one is started
  unset TVM_HOME RELAYKIT_PYTHON RELAYKIT_TVM_REEXEC SHARDS CAMPAIGN ORACLE SEEDS MINUTES HOURS \
    ROUNDS SEED RFUZZ_ARGS TIME_LIMIT SLURM_CONF
  mkdir -p "$T/seeds"
  printf '#[version = "0.0.5"]\ndef @main(%%x: Tensor[(1, 10), float32]) {\n  nn.softmax(%%x)\n}\n' \
    > "$T/seeds/softmax.relay"
  printf '#[version = "0.0.5"]\ndef @main(%%x: Tensor[(2, 3), float32]) {\n  nn.relu(%%x)\n}\n' \
    > "$T/seeds/relu.relay"
}

teardown() {
  slurm_stop
}

# The environment of a campaign against the fake TVM: its crash is planted in nn.softmax.
campaign_env() {
  export PYTHONPATH=$ROOT/tests/cli/fake_tvm PYTHONPYCACHEPREFIX=$T/pycache
  local py   # a Python with numpy, for tvm-diff's inputs
  for py in python3 /usr/bin/python3; do
    if "$py" -c 'import numpy' 2>/dev/null; then export RELAYKIT_PYTHON=$py; break; fi
  done
  [ -n "${RELAYKIT_PYTHON:-}" ] || skip "no Python with numpy (apt-get install python3-numpy)"
  export FAKE_TVM_PLANTED='build-segv:nn.softmax'
  export RELAYKIT=$ROOT RFUZZ SEEDS=$T/seeds ROUNDS=8 RFUZZ_ARGS="--no-reduce --mix 1,0,0" SEED=2
  # ORACLE unset: the job scripts' default, RELAYKIT's interestingness/tvm-server --args-beside
}

# check_campaign DIR: both shards and their merge are there; the merge lists every shard's groups
# once, merged by key (counts added), and the planted crash among them (with SEED=2 and build
# rounds only, both shards find it: a group that exists only once merged).
check_campaign() {
  local c=$1 d
  for d in "$c/shard-1" "$c/shard-2"; do
    [ -f "$d/campaign.json" ] || { echo "no $d/campaign.json"; return 1; }
    [ -f "$d/index.md" ] || { echo "no $d/index.md"; return 1; }
  done
  [ -f "$c/merged/index.md" ] || { echo "no $c/merged/index.md"; return 1; }
  python3 - "$c" <<'EOF'
import collections, json, sys
c = sys.argv[1]
want = collections.Counter()
for i in (1, 2):
    for g in json.load(open("%s/shard-%d/campaign.json" % (c, i)))["groups"]:
        want[g["key"]] += g["count"]
groups = json.load(open(c + "/merged/campaign.json"))["groups"]
got = collections.Counter()
for g in groups:
    assert g["key"] not in got, "group %r twice in merged/campaign.json" % g["key"]
    got[g["key"]] = g["count"]
assert got == want, "merged groups %r, the shards' %r" % (dict(got), dict(want))
assert "compile: signal SIGSEGV" in got, "no group for the planted crash (nn.softmax): %r" % dict(got)
EOF
}

@test "submit.sh submits the array of N shards, then the merge after it, and prints both job ids" {
  mkdir -p "$T/bin"
  # sbatch stand-in: records its arguments, answers a job id as --parsable does ("id;cluster")
  cat > "$T/bin/sbatch" <<EOF
#!/bin/sh
n=\$(cat "$T/n" 2>/dev/null || echo 41); n=\$((n + 1)); echo \$n > "$T/n"
printf '%s\n' "\$@" > "$T/sbatch.\$n"
echo "\$n;cluster"
EOF
  chmod +x "$T/bin/sbatch"
  PATH=$T/bin:$PATH RFUZZ=/bin/true MINUTES=90 run "$EX/submit.sh" -n 3 -p 2 -c "$T/c" -- --partition=fuzz
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" == *"array job 42 (shards 1-3 -> $T/c/shard-*)"* ]]
  [[ "$output" == *"merge job 43 (after 42 -> $T/c/merged)"* ]]
  grep -qx -- '--parsable' "$T/sbatch.42"
  grep -qx -- '--array=1-3%2' "$T/sbatch.42"
  grep -qx -- '--time=120' "$T/sbatch.42"
  grep -qx -- '--partition=fuzz' "$T/sbatch.42"
  grep -qx -- "$EX/rfuzz-array.sbatch" "$T/sbatch.42"
  grep -qx -- '--dependency=afterany:42' "$T/sbatch.43"
  grep -qx -- '--partition=fuzz' "$T/sbatch.43"
  grep -qx -- "$EX/rfuzz-merge.sbatch" "$T/sbatch.43"
  [ -d "$T/c/logs" ]
  PATH=$T/bin:$PATH RFUZZ=/bin/true run "$EX/submit.sh" -n 0
  [ "$status" -eq 2 ]
  [[ "$output" == *"positive integer"* ]]
}

@test "the job scripts run rfuzz's shards and merge without Slurm (the array's environment)" {
  [ -x "$RFUZZ" ] || { echo "no $RFUZZ: build it (make)"; return 1; }
  campaign_env
  export CAMPAIGN=$T/c
  for i in 1 2; do
    SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_COUNT=2 run bash "$EX/rfuzz-array.sbatch"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"--shard $i/2"* ]]
  done
  run bash "$EX/rfuzz-merge.sbatch"
  echo "$output"
  [ "$status" -eq 0 ]
  check_campaign "$T/c"
  # SHARDS=N runs some shards of N again (sbatch --array=3,7); a task id outside 1..N, or no
  # array at all, is refused before rfuzz runs
  RFUZZ=/bin/echo SHARDS=16 SLURM_ARRAY_TASK_ID=7 SLURM_ARRAY_TASK_COUNT=2 run bash "$EX/rfuzz-array.sbatch"
  [ "$status" -eq 0 ]
  [[ "$output" == *"--shard 7/16 --seed 2 --rounds 8 "*" -o $T/c/shard-7"* ]]
  RFUZZ=/bin/echo SLURM_ARRAY_TASK_ID=0 SLURM_ARRAY_TASK_COUNT=2 run bash "$EX/rfuzz-array.sbatch"
  [ "$status" -eq 2 ] && [[ "$output" == *"task 0 is not a shard 1..2"* ]]
  RFUZZ=/bin/echo SLURM_ARRAY_TASK_ID=3 SLURM_ARRAY_TASK_COUNT=2 run bash "$EX/rfuzz-array.sbatch"
  [ "$status" -eq 2 ] && [[ "$output" == *"task 3 is not a shard 1..2"* ]]
  RFUZZ=/bin/echo run bash "$EX/rfuzz-array.sbatch"
  [ "$status" -eq 2 ] && [[ "$output" == *"not an array task"* ]]
}

# ---------------------------------------------------------------- a real Slurm on localhost

# alive PID: the process exists and is not a zombie.
alive() { [ -r "/proc/$1/stat" ] && ! sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | grep -q '^Z'; }

# stop_pid PID: SIGTERM, up to 10 s, then SIGKILL; reaps it when it is our child.
stop_pid() {
  local pid=$1 i
  [ -n "$pid" ] || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for i in $(seq 50); do alive "$pid" || break; sleep 0.2; done
  alive "$pid" && kill -KILL "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null || true
}

# slurm_procs: every process carrying this instance's SLURM_CONF: the daemons, slurmstepd, job
# scripts and what they started (the test's own shell does not export it).
slurm_procs() {
  local e p
  for e in /proc/[0-9]*/environ; do
    p=${e#/proc/}; p=${p%/environ}
    if [ "$p" = $$ ] || [ "$p" = "$BASHPID" ]; then continue; fi
    tr '\0' '\n' 2>/dev/null < "$e" | grep -qxF "SLURM_CONF=$SL/slurm.conf" && alive "$p" && echo "$p"
  done
  return 0
}

# sl COMMAND...: a Slurm client command against this instance.
sl() { SLURM_CONF=$SL/slurm.conf timeout 20 "$@"; }

# log_tail FILE [N]: its last N lines (default 6) on one line, for a skip's reason.
log_tail() { tail -n "${2:-6}" "$1" 2>/dev/null | sed 's/^ *//; /^$/d' | paste -sd '|' | sed 's/|/ | /g'; }

# slurm_start: munged, slurmctld and slurmd in $SL, or skip saying why.
slurm_start() {
  local b i state p1 p2
  [ "$(id -u)" -eq 0 ] || skip "skipped: not root (slurmd must be root to start jobs)"
  PATH=$PATH:/usr/sbin:/sbin
  for b in munged munge slurmctld slurmd sbatch sinfo squeue scontrol scancel; do
    command -v "$b" >/dev/null ||
      skip "skipped: slurm-wlm or munge not installed (no $b; apt-get install slurm-wlm munge)"
  done
  # munged wants every directory above its socket searchable by all, and a short socket path
  SL=$(mktemp -d /tmp/rk-slurm.XXXXXX)
  chmod 755 "$SL"
  mkdir -p "$SL/munge" "$SL/state" "$SL/spool" "$SL/log"
  head -c 1024 /dev/urandom > "$SL/munge/munge.key"
  chmod 400 "$SL/munge/munge.key"
  if ! SLURM_CONF=$SL/slurm.conf munged --socket="$SL/munge/munge.socket" \
      --key-file="$SL/munge/munge.key" --pid-file="$SL/munge/munged.pid" \
      --seed-file="$SL/munge/munged.seed" --log-file="$SL/log/munged.log" > "$SL/log/munged.out" 2>&1 3>&-; then
    skip "skipped: munged did not start: $(log_tail "$SL/log/munged.out" 3) $(log_tail "$SL/log/munged.log" 3)"
  fi
  munge -S "$SL/munge/munge.socket" -n 2>/dev/null | unmunge -S "$SL/munge/munge.socket" >/dev/null 2>&1 ||
    skip "skipped: munge does not answer on $SL/munge/munge.socket: $(log_tail "$SL/log/munged.log" 3)"

  read -r p1 p2 < <(python3 -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
  cat > "$SL/slurm.conf" <<EOF
# a single-node Slurm for tests/cli/rfuzz_slurm.bats
ClusterName=rktest
SlurmctldHost=localhost
SlurmctldPort=$p1
SlurmdPort=$p2
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SL/munge/munge.socket
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
ReturnToService=2
MinJobAge=600
StateSaveLocation=$SL/state
SlurmdSpoolDir=$SL/spool
SlurmctldPidFile=$SL/slurmctld.pid
SlurmdPidFile=$SL/slurmd.pid
SlurmctldLogFile=$SL/log/slurmctld.log
SlurmdLogFile=$SL/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=100 State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
  SLURM_CONF=$SL/slurm.conf slurmctld -D -i > "$SL/log/slurmctld.out" 2>&1 3>&- &
  CTLD=$!
  for i in $(seq 50); do
    alive "$CTLD" || skip "skipped: slurmctld did not start: $(log_tail "$SL/log/slurmctld.out")"
    sl scontrol ping 2>/dev/null | grep -q 'is UP' && break
    sleep 0.2
  done
  sl scontrol ping 2>/dev/null | grep -q 'is UP' ||
    skip "skipped: slurmctld does not answer after 10 s: $(log_tail "$SL/log/slurmctld.out")"
  SLURM_CONF=$SL/slurm.conf slurmd -D -N localhost > "$SL/log/slurmd.out" 2>&1 3>&- &
  SLURMD=$!
  for i in $(seq 100); do
    alive "$SLURMD" || skip "skipped: slurmd did not start: $(log_tail "$SL/log/slurmd.out")"
    state=$(sl sinfo -h -N -n localhost -o %T 2>/dev/null)
    [ "$state" = idle ] && return 0
    sleep 0.2
  done
  skip "skipped: node localhost is '$state', not idle, 20 s after slurmd started: $(log_tail "$SL/log/slurmd.out")"
}

# slurm_stop: cancels every job of this instance, stops slurmd, slurmctld and munged, then kills
# whatever still carries this instance's SLURM_CONF, and removes $SL.  Prints what it had to kill.
slurm_stop() {
  local i p left
  [ -n "$SL" ] && [ -d "$SL" ] || return 0
  if [ -n "${CTLD:-}" ] && alive "$CTLD"; then
    sl scancel --quiet --user="$(id -un)" 2>/dev/null || true
    for i in $(seq 75); do [ -z "$(sl squeue -h 2>/dev/null)" ] && break; sleep 0.2; done
  fi
  stop_pid "${SLURMD:-}"
  stop_pid "${CTLD:-}"
  if [ -S "$SL/munge/munge.socket" ]; then
    munged --socket="$SL/munge/munge.socket" --stop > /dev/null 2>&1 || stop_pid "$(cat "$SL/munge/munged.pid" 2>/dev/null)"
  fi
  left=$(slurm_procs)
  if [ -n "$left" ]; then
    echo "left running after the daemons stopped, killed: $(ps -o pid=,args= -p "$(printf '%s\n' "$left" | paste -sd ,)")"
    for p in $left; do stop_pid "$p"; done
  fi
  rm -rf "$SL"
  SL='' CTLD='' SLURMD=''
}

@test "a real single-node Slurm: submit.sh runs 2 shards as an array, then the merge" {
  [ -x "$RFUZZ" ] || { echo "no $RFUZZ: build it (make)"; return 1; }
  slurm_start
  campaign_env
  SLURM_CONF=$SL/slurm.conf run "$EX/submit.sh" -n 2 -c "$T/c"
  echo "$output"
  [ "$status" -eq 0 ]
  local array merge state i
  array=$(echo "$output" | awk '$1 == "array" && $2 == "job" { print $3 }')
  merge=$(echo "$output" | awk '$1 == "merge" && $2 == "job" { print $3 }')
  [ -n "$array" ] && [ -n "$merge" ]
  # the merge job waits for the array; 120 s at most for both (about 15 s here)
  for i in $(seq 240); do
    state=$(sl scontrol -o show job "$merge" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2)
    case $state in COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE) break ;; esac
    sleep 0.5
  done
  echo "merge job $merge: $state"
  sl scontrol -o show job "$array" | grep -o 'JobId=[0-9]* ArrayJobId=[0-9]* ArrayTaskId=[0-9]*\|JobState=[A-Z_]*\|ExitCode=[0-9:]*'
  for f in "$T"/c/logs/*.out; do echo "== $f"; tail -n 20 "$f"; done
  [ "$state" = COMPLETED ]
  [ "$(sl scontrol -o show job "$array" | grep -c 'JobState=COMPLETED')" -eq 2 ]
  check_campaign "$T/c"
  # everything stops and nothing is left running
  slurm_stop > "$T/stop.out"
  cat "$T/stop.out"
  [ ! -s "$T/stop.out" ]
}
