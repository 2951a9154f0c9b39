#!/usr/bin/env bash
# Submits an rfuzz campaign to Slurm: an array of N shards (rfuzz-array.sbatch), then the merge
# (rfuzz-merge.sbatch) with --dependency=afterany on the array, so it runs once every shard has
# ended, however it ended.  Prints the two job ids:
#   array job 1234 (shards 1-4 -> /scratch/c/shard-*)
#   merge job 1235 (after 1234 -> /scratch/c/merged)
#
# usage: submit.sh [-n N] [-p K] [-c CAMPAIGN] [-t TIME] [-- SBATCH_OPTION...]
#   -n, --shards N      number of shards (default: $SHARDS, else 4)
#   -p, --parallel K    run at most K shards at once (--array=1-N%K; default: as many as fit)
#   -c, --campaign DIR  campaign directory (default: $CAMPAIGN, else ./rfuzz-campaign); must be on
#                       a file system every node sees
#   -t, --time TIME     time limit of each shard, sbatch's format (default: $TIME_LIMIT, else the
#                       budget plus 30 minutes; none with ROUNDS)
#   -- ...              more sbatch options for both jobs (e.g. --partition=fuzz --account=me);
#                       SBATCH_* environment variables work too
# The rest comes from the environment, read by the job scripts (see rfuzz-array.sbatch): ORACLE,
# SEEDS, MINUTES | HOURS | ROUNDS, SEED, RFUZZ_ARGS, RELAYKIT (default: this checkout), RFUZZ.
# Each shard's output goes to CAMPAIGN/logs/shard-<task>.out, the merge's to
# CAMPAIGN/logs/merge-<job>.out.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
usage() { # exit-status: the usage on stderr, or on stdout for --help
  if [ "${1:-2}" -eq 0 ]; then sed -n '8,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0; fi
  sed -n '8,16p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2
}
die() { echo "submit.sh: $*" >&2; exit 2; }

shards=${SHARDS:-4}
campaign=${CAMPAIGN:-$PWD/rfuzz-campaign}
time_limit=${TIME_LIMIT:-}
parallel=
while [ $# -gt 0 ]; do
  case $1 in
    -n|--shards) [ $# -ge 2 ] || usage; shards=$2; shift 2 ;;
    --shards=*) shards=${1#*=}; shift ;;
    -p|--parallel) [ $# -ge 2 ] || usage; parallel=$2; shift 2 ;;
    --parallel=*) parallel=${1#*=}; shift ;;
    -c|--campaign) [ $# -ge 2 ] || usage; campaign=$2; shift 2 ;;
    --campaign=*) campaign=${1#*=}; shift ;;
    -t|--time) [ $# -ge 2 ] || usage; time_limit=$2; shift 2 ;;
    --time=*) time_limit=${1#*=}; shift ;;
    -h|--help) usage 0 ;;
    --) shift; break ;;
    *) echo "submit.sh: unknown option '$1'" >&2; usage ;;
  esac
done
[[ $shards =~ ^[1-9][0-9]*$ ]] || die "the number of shards must be a positive integer, not '$shards'"
[ -z "$parallel" ] || [[ $parallel =~ ^[1-9][0-9]*$ ]] || die "-p wants a positive integer, not '$parallel'"
command -v sbatch >/dev/null || die "sbatch not found (is this a Slurm login node?)"

export SHARDS=$shards
export RELAYKIT=${RELAYKIT:-$(cd "$here/../.." && pwd)}
mkdir -p "$campaign/logs"
CAMPAIGN=$(cd "$campaign" && pwd)
export CAMPAIGN
if [ -z "${RFUZZ:-}" ] && [ ! -x "$RELAYKIT/bin/rfuzz" ] && ! command -v rfuzz >/dev/null; then
  die "no $RELAYKIT/bin/rfuzz: build relaykit first (make), or set RELAYKIT or RFUZZ"
fi

if [ -z "$time_limit" ] && [ -z "${ROUNDS:-}" ]; then
  # the budget in whole minutes, rounded up, plus 30 for the last round and reductions
  if [ -n "${HOURS:-}" ]; then m=$(awk -v h="$HOURS" 'BEGIN { m = h * 60; print (m == int(m)) ? m : int(m) + 1 }')
  else m=$(awk -v m="${MINUTES:-60}" 'BEGIN { print (m == int(m)) ? m : int(m) + 1 }')
  fi
  [[ $m =~ ^[0-9]+$ ]] || die "cannot read the budget (MINUTES=${MINUTES:-} HOURS=${HOURS:-})"
  time_limit=$((m + 30))
fi
time_opt=()
[ -n "$time_limit" ] && time_opt=(--time="$time_limit")

jobid() { local id; id=$("$@") || exit 1; id=${id%%;*}; [[ $id =~ ^[0-9]+$ ]] || die "sbatch printed '$id', not a job id"; echo "$id"; }

array=$(jobid sbatch --parsable --export=ALL --array="1-$shards${parallel:+%$parallel}" "${time_opt[@]}" \
  --output="$CAMPAIGN/logs/shard-%a.out" "$@" "$here/rfuzz-array.sbatch")
merge=$(jobid sbatch --parsable --export=ALL --dependency="afterany:$array" \
  --output="$CAMPAIGN/logs/merge-%j.out" "$@" "$here/rfuzz-merge.sbatch")
echo "array job $array (shards 1-$shards -> $CAMPAIGN/shard-*)"
echo "merge job $merge (after $array -> $CAMPAIGN/merged)"
