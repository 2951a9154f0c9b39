#!/usr/bin/env bats
# Call attributes TVM prints into #[metadata] (`cumsum(%x, meta[relay.attrs.ScanopAttrs][0])`, for
# every op registered without an attrs type): read into written attributes, so the program types as
# TVM types it and the tools work on it.  data/tvm_meta_attrs.relay is TVM v0.13.0's own printing
# (astext(show_meta_data=True)) of a module calling cumsum, nn.dilate, scatter_nd, collapse_sum_to and
# vision.get_valid_counts; tests/tvm/fidelity.py checks on a real TVM that TVM reads relaykit's
# printing of such programs back with the same types.

setup() {
  ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
  RFMT=${RFMT:-$ROOT/bin/rfmt}
  BIN=$(dirname "$RFMT")
  RCHECK=$BIN/rcheck RREDUCE=$BIN/rreduce RMUTATE=$BIN/rmutate
  SRC=$BATS_TEST_DIRNAME/data/tvm_meta_attrs.relay
  T=$BATS_TEST_TMPDIR
}

# The /* ty=... */ types of a file's body (not its metadata), one a line.
types_of() { sed '/^#\[metadata\]/,$d' "$1" | grep -o 'ty=[^*]*' | sed 's/ span=.*//'; }

@test "TVM's metadata attributes type as TVM types them, in rcheck and rcheck --tvm-strict" {
  run "$RCHECK" "$SRC"
  [ "$status" -eq 0 ]
  run "$RCHECK" --tvm-strict "$SRC"
  [ "$status" -eq 0 ]
  sed '/^#\[metadata\]/,$!s| /\* ty=[^*]*\*/||g' "$SRC" > "$T/bare.relay"
  "$RCHECK" --annotate "$T/bare.relay" > "$T/annotated.relay"
  [ "$(types_of "$T/annotated.relay")" = "$(types_of "$SRC")" ]
  [ "$(types_of "$SRC" | wc -l)" -ge 10 ]
}

@test "the attributes are written out with attrs_type_key, in declaration order, defaults left out" {
  run "$RCHECK" --annotate "$SRC"
  [ "$status" -eq 0 ]
  body=$(sed '/^#\[metadata\]/,$d' <<<"$output")
  [[ "$body" != *"meta[relay.attrs."* ]]
  [[ "$body" == *'cumsum(%x, axis=1, exclusive=True, attrs_type_key="relay.attrs.ScanopAttrs")'* ]]
  [[ "$body" == *'nn.dilate(%0, strides=[1, 2, 1], dilation_value=0.5f, attrs_type_key="relay.attrs.DilateAttrs")'* ]]
  [[ "$body" == *'scatter_nd(%1, %i, %u, mode="add", attrs_type_key="relay.attrs.ScatterNDAttrs")'* ]]
  [[ "$body" == *'shape=[3, 4], attrs_type_key="relay.attrs.InitOpAttrs")'* ]]
  # a required FloatImm left unset (the Python API passes the threshold as an argument) stays None
  [[ "$body" == *'score_threshold=None, attrs_type_key="relay.attrs.GetValidCountsAttrs")'* ]]
  # the other metadata (the constant) is untouched
  grep -q 'meta\[relay.Constant\]\[0\]' <<<"$body"
}

@test "rreduce and rmutate work on such a program, and their output needs no metadata attributes" {
  cp "$SRC" "$T/p.relay"
  printf '#!/bin/sh\ngrep -q "nn.dilate(" "$1"\n' > "$T/t.sh"
  chmod +x "$T/t.sh"
  run "$RREDUCE" "$T/p.relay" "$T/t.sh"
  [ "$status" -eq 0 ]
  "$T/t.sh" "$T/p.relay"
  "$RCHECK" --tvm-strict "$T/p.relay"
  ! grep -q 'meta\[relay.attrs' "$T/p.relay" || false
  [ "$(wc -c < "$T/p.relay")" -lt "$(wc -c < "$SRC")" ]
  run "$RMUTATE" "$SRC" -n 5 --seed 3 -o "$T/m"
  [ "$status" -eq 0 ]
  for f in "$T"/m/*.relay; do "$RCHECK" --tvm-strict "$f"; done
}

@test "an entry the section lacks is an error at the reference" {
  sed 's/meta\[relay.attrs.DilateAttrs\]\[0\]/meta[relay.attrs.DilateAttrs][4]/' "$SRC" > "$T/p.relay"
  line=$(grep -n 'nn.dilate' "$T/p.relay" | cut -d: -f1)
  run "$RCHECK" "$T/p.relay"
  [ "$status" -eq 1 ]
  [[ "${lines[0]}" == "$T/p.relay:$line:"*": error: meta[relay.attrs.DilateAttrs][4]: the #[metadata] section has no such entry" ]]
}

@test "a field the op does not take, or a value of the wrong kind, is an error naming it" {
  sed 's/"dilation_value": "0.5"/"dilation_value": "0.5", "bogus": "1"/' "$SRC" > "$T/p.relay"
  grep -q '"bogus"' "$T/p.relay"
  run "$RCHECK" "$T/p.relay"
  [ "$status" -eq 1 ]
  [[ "${lines[0]}" == *"error: meta[relay.attrs.DilateAttrs][0]: relay.attrs.DilateAttrs has field 'bogus', which nn.dilate does not take" ]]
  sed 's/"dilation_value": "0.5"/"dilation_value": "half"/' "$SRC" > "$T/q.relay"
  run "$RCHECK" "$T/q.relay"
  [ "$status" -eq 1 ]
  [[ "${lines[0]}" == *"error: meta[relay.attrs.DilateAttrs][0]: 'half' is not a number" ]]
}

@test "an unknown op keeps its metadata attributes: the call stays opaque" {
  sed 's/nn.dilate(/my.dilate(/' "$SRC" > "$T/p.relay"
  run "$RCHECK" "$T/p.relay"
  [ "$status" -eq 0 ]
  [[ "$output" == *"my.dilate"* ]]
  run "$RCHECK" --annotate "$T/p.relay"
  [[ "$output" == *'my.dilate(%0, meta[relay.attrs.DilateAttrs][0])'* ]]
}
