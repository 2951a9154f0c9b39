# shellcheck shell=bash disable=SC2034  # (the variables are the arms')
# Helpers of the arm scripts of bench/peers (sourced, not run). An arm is run by bench/peers/run.sh
# as ARM.sh ARMDIR MINUTES SEED, pinned to one core, with LLVM_PROFILE_FILE set to ARMDIR/prof/, and
# leaves in ARMDIR: started (its clock's start, epoch seconds), arm.json (programs, valid, invalid,
# timeouts, failures, and what else the peer says) and failures/*.relay, each with NAME.relay.args
# beside it (the tvm-server check that reproduces it, PROTOCOL.md's --args-beside form).
peers_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=${RELAYKIT_ROOT:-$(cd "$peers_here/../.." && pwd)}
bin=${RELAYKIT_BIN:-$root/bin}
I=$root/interestingness
python=$(command -v "${RELAYKIT_PYTHON:-python3}")
# the peers start their cases with `python3` (GenCoG) or we do: the Python that imports TVM first
PATH=$(dirname "$python"):$PATH
export PATH

# The arm's clock starts now: the driver's coverage snapshots count from this moment, and setup
# before it (generating the open loop's programs, building HirGen) is not fuzzing time.
start_clock() { # ARMDIR
  date +%s > "$1/started"
}

# The seconds left of the arm's MINUTES since start_clock.
seconds_left() { # ARMDIR MINUTES
  echo $(($(cat "$1/started") + $2 * 60 - $(date +%s)))
}

# A copy of a peer's checkout at DEST (without .git) with patches/NAME.patch applied for each NAME:
# the user's checkout is never changed.
peer_copy() { # SRC DEST NAME...
  local src=$1 dest=$2 p
  shift 2
  rm -rf "$dest"
  mkdir -p "$dest" || return 1
  (cd "$src" && tar --exclude=./.git -cf - .) | tar -xf - -C "$dest" || return 1
  for p in "$@"; do
    patch -s -p1 -d "$dest" < "$peers_here/patches/$p.patch" || {
      echo "$(basename "$0"): bench/peers/patches/$p.patch does not apply to $src (another revision?)" >&2
      return 1
    }
  done
}
