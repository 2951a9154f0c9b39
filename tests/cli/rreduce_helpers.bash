# Shared by the rreduce CLI tests (load rreduce_helpers): paths, and keep.sh, the usual test
# (the candidate type-checks and still has an nn.conv2d call).

setup() {
  ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
  RFMT=${RFMT:-$ROOT/bin/rfmt}
  BIN=$(dirname "$RFMT")
  RREDUCE=$BIN/rreduce
  RCHECK=$BIN/rcheck
  CORPUS=$ROOT/../shared/corpus
  T=$BATS_TEST_TMPDIR
  printf '#!/bin/sh\n"%s" "$1" >/dev/null 2>&1 && grep -q "%s(" "$1"\n' "$RCHECK" nn.conv2d > "$T/keep.sh"
  chmod +x "$T/keep.sh"
}
