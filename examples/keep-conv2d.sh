#!/bin/sh
# An interestingness test for the README's rreduce example, needing no TVM: the candidate must
# still type-check and still contain an nn.conv2d call.  rreduce runs it as `keep-conv2d.sh FILE`
# in a fresh directory; exit 0 means "still interesting".
RCHECK=${RCHECK:-rcheck}
command -v "$RCHECK" >/dev/null 2>&1 || RCHECK=$(dirname "$0")/../bin/rcheck
"$RCHECK" "$1" >/dev/null 2>&1 && grep -q 'nn.conv2d(' "$1"
