#!/usr/bin/env bats
# rreduce on models whose weights are #[metadata] constants: the constants nothing references
# any more go (meta pass), every candidate type-checks, and the result is still interesting.

load rreduce_helpers

metadata_bytes() { sed -n '/^#\[metadata\]/,$p' "$1" | wc -c; }

# $1: the JSON statistics; the meta pass must have been accepted at least once
no_rejections() {
  python3 -c 'import json,sys; d=json.loads(sys.argv[1]); assert d["guard_rejections"] == 0, d; assert d["passes"]["meta"]["successes"] > 0, d' "$1"
}

@test "unused metadata constants are deleted and the rest renumbered" {
  cp "$CORPUS/models/synthetic.bound.relay" "$T/s.relay"
  # without consts, which would make every constant a parameter: the meta pass alone
  run "$RREDUCE" --json --tidy --skip-passes consts "$T/s.relay" "$T/keep.sh"
  [ "$status" -eq 0 ]
  no_rejections "$output"
  "$T/keep.sh" "$T/s.relay"
  # one conv2d is left, with its weight: the metadata keeps one constant, renumbered 0
  grep -q 'meta\[relay.Constant\]\[0\]' "$T/s.relay"
  ! grep -q 'meta\[relay.Constant\]\[[1-9]' "$T/s.relay"
  [ "$(metadata_bytes "$T/s.relay")" -lt "$(metadata_bytes "$CORPUS/models/synthetic.bound.relay")" ]
  [ "$(grep -c '"relay.Constant"' "$T/s.relay")" -eq 2 ] # the map's key and one constant node
}

@test "a 9 MB model loses its metadata when nothing references it any more" {
  cp "$CORPUS/models/dqn.bound.fused.relay" "$T/d.relay"
  run "$RREDUCE" --json --tidy "$T/d.relay" "$T/keep.sh"
  [ "$status" -eq 0 ]
  no_rejections "$output"
  "$T/keep.sh" "$T/d.relay"
  [ "$(wc -c < "$T/d.relay")" -lt 1000 ]
}

@test "the meta pass is listed" {
  run "$RREDUCE" --list-passes
  [[ "$output" == *"meta"* && "$output" == *"attrs"* && "$output" == *"literals"* ]]
}
