#!/usr/bin/env bats
# The TVM releases the registry knows (v0.13.0 and v0.19.0, typegen/ops/tvm_version.c): how the
# one a tool checks against is chosen and said, and that an operator or attribute one release has
# is accepted by it and refused by the other with a message naming the release.  No TVM needed: the
# default is tried with stand-in tvm packages that only hold a version.

setup() {
  ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
  RFMT=${RFMT:-$ROOT/bin/rfmt}
  BIN=$(dirname "$RFMT")
  T=$BATS_TEST_TMPDIR
  unset RELAYKIT_TVM_VERSION TVM_HOME RELAYKIT_PYTHON
  export PYTHONPATH= PYTHONPYCACHEPREFIX=$T/pycache
}

# fake_tvm DIR VERSION: a tvm package whose tvm/_ffi/libinfo.py says VERSION, as a release's does.
fake_tvm() {
  mkdir -p "$1/tvm/_ffi"
  : > "$1/tvm/__init__.py"
  printf '__version__ = "%s"\n' "$2" > "$1/tvm/_ffi/libinfo.py"
}

@test "--list-ops: v0.13.0's 300 operators, v0.19.0's 295: the six Ethos-U ops gone, regular_non_max_suppression new" {
  run "$BIN/rcheck" --list-ops --tvm-version 0.13
  [ "$status" -eq 0 ]
  [ "${#lines[@]}" -eq 300 ]
  printf '%s\n' "${lines[@]}" > "$T/v13"
  run "$BIN/rcheck" --tvm-version 0.19 --list-ops
  [ "${#lines[@]}" -eq 295 ]
  printf '%s\n' "${lines[@]}" > "$T/v19"
  run diff "$T/v13" "$T/v19"
  [ "$(grep -c '^< contrib.ethosu\.' <<< "$output")" -eq 6 ]
  [ "$(grep -c '^[<>]' <<< "$output")" -eq 7 ]
  [[ "$output" == *"> vision.regular_non_max_suppression"* ]]
  # rgen lists the generated ones: the same for both (the new op is not generated)
  [ "$("$BIN/rgen" --list-ops --tvm-version 0.13)" = "$("$BIN/rgen" --list-ops --tvm-version 0.19)" ]
}

@test "an operator one release has: accepted by it, refused by the other naming the release" {
  printf '#[version = "0.0.5"]\ndef @main(%%x: Tensor[(1, 8, 8, 3), int8]) {\n  contrib.ethosu.identity(%%x, %%x) /* ty=Tensor[(1, 8, 8, 3), int8] */\n}\n' > "$T/ethosu.relay"
  run "$BIN/rcheck" --tvm-version 0.13 "$T/ethosu.relay"
  [ "$status" -eq 0 ]
  [ -z "$output" ]
  run "$BIN/rcheck" --tvm-version 0.19 "$T/ethosu.relay"
  [ "$status" -eq 1 ]
  [[ "${lines[0]}" == "$T/ethosu.relay:3:3: error: operator contrib.ethosu.identity is not in TVM v0.19.0's registry (TVM v0.13.0 has it: --tvm-version 0.13)" ]]
  printf '#[version = "0.0.5"]\ndef @main(%%b: Tensor[(1, 10, 4), float32], %%s: Tensor[(1, 10, 3), float32]) {\n  vision.regular_non_max_suppression(%%b, %%s, max_detections_per_class=3, max_detections=5, num_classes=2, iou_threshold=0.5f, score_threshold=0.1f, attrs_type_key="relay.attrs.RegularNonMaximumSuppressionAttrs")\n}\n' > "$T/nms.relay"
  run "$BIN/rcheck" --tvm-version 0.19 --annotate "$T/nms.relay"
  [ "$status" -eq 0 ]
  [[ "$output" == *"/* ty=(Tensor[(1, 5, 4), float32], Tensor[(1, 5), float32], Tensor[(1, 5), float32], Tensor[(1), int32]) */"* ]]
  run "$BIN/rcheck" --tvm-version 0.13 "$T/nms.relay"
  [ "$status" -eq 1 ]
  [[ "$output" == *"error: operator vision.regular_non_max_suppression is not in TVM v0.13.0's registry (TVM v0.19.0 has it: --tvm-version 0.19)"* ]]
  # an operator no release has is a custom one: typed by its ty= comment, as before
  printf '#[version = "0.0.5"]\ndef @main(%%x: Tensor[(2), int8]) {\n  acme.op(%%x) /* ty=Tensor[(2), int8] */\n}\n' > "$T/custom.relay"
  for v in 0.13 0.19; do
    run "$BIN/rcheck" --tvm-version "$v" "$T/custom.relay"
    [ "$status" -eq 0 ]
    [[ "$output" == *"warning: unknown operator 'acme.op'"* ]]
  done
}

@test "an attribute one release has: accepted by it, refused by the other naming the release" {
  for case in "qnn.dequantize|Tensor[(4, 6), int8]|1f, 0|out_dtype=\"float16\"|0.19" \
              "vision.multibox_transform_loc|Tensor[(1, 3, 5), float32]|%x, %x|keep_background=True|0.19" \
              "nn.contrib_conv2d_gemm_weight_transform|Tensor[(3, 3, 5, 7), float32]||tile_N=4, tile_K=4|0.19" \
              "nn.contrib_conv2d_gemm_weight_transform|Tensor[(3, 3, 5, 7), float32]||tile_rows=4, tile_cols=4|0.13"; do
    IFS='|' read -r op type rest attrs has <<< "$case"
    other=0.13
    [ "$has" = 0.13 ] && other=0.19
    printf '#[version = "0.0.5"]\ndef @main(%%x: %s) {\n  %s(%%x%s, %s)\n}\n' "$type" "$op" "${rest:+, $rest}" "$attrs" > "$T/a.relay"
    if [ "$op" = vision.multibox_transform_loc ]; then
      printf '#[version = "0.0.5"]\ndef @main(%%c: Tensor[(1, 3, 5), float32], %%l: Tensor[(1, 20), float32], %%a: Tensor[(1, 5, 4), float32]) {\n  %s(%%c, %%l, %%a, %s)\n}\n' "$op" "$attrs" > "$T/a.relay"
    fi
    run "$BIN/rcheck" --tvm-strict --tvm-version "$has" "$T/a.relay"
    [ "$status" -eq 0 ] || { echo "$op in $has: $output"; return 1; }
    run "$BIN/rcheck" --tvm-version "$other" "$T/a.relay"
    [ "$status" -eq 1 ] || { echo "$op in $other: $output"; return 1; }
    attr=${attrs%%=*}
    [[ "$output" == *"has no attribute '$attr' in TVM v$other.0 (TVM v$has.0 has it: --tvm-version $has)"* ]] ||
      { echo "$op in $other: $output"; return 1; }
  done
}

@test "types that changed: each release's, as TVM's (qnn.dequantize's out_dtype, the gemm transform's tiles)" {
  printf '#[version = "0.0.5"]\ndef @main(%%x: Tensor[(3, 3, 5, 7), int8]) {\n  nn.contrib_conv2d_gemm_weight_transform(%%x, tile_N=4, tile_K=4)\n}\n' > "$T/gemm.relay"
  run "$BIN/rcheck" --tvm-version 0.19 --annotate "$T/gemm.relay"
  [[ "$output" == *"ty=Tensor[(2, 12, 4, 4), int8]"* ]] # measured on TVM v0.19.0
  printf '#[version = "0.0.5"]\ndef @main(%%x: Tensor[(4, 6), uint16]) {\n  qnn.dequantize(%%x, 1f, 0)\n}\n' > "$T/deq.relay"
  run "$BIN/rcheck" --tvm-version 0.19 --annotate "$T/deq.relay"
  [ "$status" -eq 0 ] # the default taken for out_dtype...
  run "$BIN/rcheck" --tvm-version 0.19 --tvm-strict "$T/deq.relay"
  [ "$status" -eq 1 ] # ...which TVM v0.19.0's parser requires
  [[ "$output" == *"Cannot find required field 'out_dtype'"* ]]
  run "$BIN/rcheck" --tvm-version 0.13 "$T/deq.relay"
  [ "$status" -eq 1 ]
  [[ "$output" == *"Input type should be one of the quantized types [unit8, int8, int16, int32] but was uint16"* ]]
}

@test "the default: the TVM the TVM scripts would import (TVM_HOME, RELAYKIT_PYTHON), else the newest; said by --version" {
  run "$BIN/rcheck" --version
  [ "$status" -eq 0 ]
  [ "${lines[1]}" = "checks against TVM v0.19.0's Relay registry (the newest: python3 imports no TVM)" ]
  export TVM_HOME=$T/home
  mkdir -p "$TVM_HOME" && fake_tvm "$TVM_HOME/python" 0.13.0
  run "$BIN/rcheck" --version
  [ "${lines[1]}" = "checks against TVM v0.13.0's Relay registry (the TVM python3 imports: 0.13.0 at $TVM_HOME/python/tvm)" ]
  printf '#[version = "0.0.5"]\ndef @main(%%x: Tensor[(1, 8, 8, 3), int8]) {\n  contrib.ethosu.identity(%%x, %%x) /* ty=Tensor[(1, 8, 8, 3), int8] */\n}\n' > "$T/ethosu.relay"
  run "$BIN/rcheck" "$T/ethosu.relay"
  [ "$status" -eq 0 ] # v0.13.0's op, as that TVM has it
  # a fork's version maps to the nearest release, said once
  fake_tvm "$TVM_HOME/python" 0.18.0+vendor
  run "$BIN/rcheck" --version
  [ "$status" -eq 0 ]
  [ "$(grep -c 'note: TVM 0.18.0+vendor is not a release relaykit knows; it checks against the nearest, v0.19.0' <<< "$output")" -eq 1 ]
  [[ "$output" == *"checks against TVM v0.19.0's Relay registry (the TVM python3 imports: 0.18.0+vendor at"* ]]
  # RELAYKIT_TVM_VERSION (what a tool exports for those it runs) comes before the import, the option before both
  RELAYKIT_TVM_VERSION=0.13 run "$BIN/rgen" --version
  [ "${lines[1]}" = "checks against TVM v0.13.0's Relay registry (RELAYKIT_TVM_VERSION=0.13)" ]
  RELAYKIT_TVM_VERSION=0.13 run "$BIN/rreduce" --tvm-version 0.19 --version
  [ "${lines[1]}" = "checks against TVM v0.19.0's Relay registry (--tvm-version 0.19)" ]
  # a TVM without Relay is no choice: the newest, said
  fake_tvm "$TVM_HOME/python" 0.20.0
  run "$BIN/rmutate" --version
  [[ "$output" == *"note: TVM 0.20.0 has no Relay (it left TVM in v0.20.0)"* ]]
  [[ "$output" == *"checks against TVM v0.19.0's Relay registry (the newest: the TVM python3 imports, 0.20.0 at"* ]]
  # a Python that is not there: the newest
  RELAYKIT_PYTHON=$T/no-python run "$BIN/rcheck" --version
  [ "${lines[1]}" = "checks against TVM v0.19.0's Relay registry (the newest: $T/no-python imports no TVM)" ]
}

@test "--tvm-version: an unknown release is a usage error naming the known ones; every tool that consults the registry takes it" {
  for v in 0.15 0.20.0 banana; do
    run "$BIN/rcheck" --tvm-version "$v" --list-ops
    [ "$status" -eq 2 ]
    [[ "$output" == "rcheck: --tvm-version: "*"0.13 (v0.13.0) and 0.19 (v0.19.0)"* ]]
  done
  for tool in rcheck rgen rreduce rmutate rfuzz; do
    run "$BIN/$tool" --help
    [[ "$output" == *"--tvm-version V"* ]] || { echo "$tool --help: $output"; return 1; }
    run "$BIN/$tool" --tvm-version 0.12 --version
    [ "$status" -eq 2 ] || { echo "$tool: $output"; return 1; }
    [[ "$output" == "$tool: --tvm-version: relaykit knows TVM 0.13 (v0.13.0) and 0.19 (v0.19.0), not 0.12"* ]]
  done
}

@test "--json and the reports say the release" {
  printf '#[version = "0.0.5"]\ndef @main(%%x: float32) {\n  negative(%%x)\n}\n' > "$T/n.relay"
  run "$BIN/rcheck" --json --tvm-version 0.13 "$T/n.relay"
  [[ "$output" == *'"tvm_version": "0.13.0"'* ]]
  run "$BIN/rgen" --stats --json -n 2 --tvm-version 0.19
  [[ "$output" == *'"tvm_version": "0.19.0"'* ]]
  printf '#!/bin/sh\ngrep -q negative "$1"\n' > "$T/keep.sh"
  chmod +x "$T/keep.sh"
  run "$BIN/rreduce" --json --tvm-version 0.13 --report "$T/report.md" "$T/n.relay" "$T/keep.sh"
  [ "$status" -eq 0 ]
  [[ "$output" == *'"tvm_version":"0.13.0"'* ]]
  grep -q "checking against TVM v0.13.0's Relay registry (--tvm-version 0.13)" "$T/report.md"
}

@test "a seed gives the same programs for both releases where they agree; v0.19.0's dequantize says out_dtype" {
  run "$BIN/rgen" -n 20 --seed 3 --ops add,nn.relu,nn.conv2d,reshape,qnn.dequantize --tvm-version 0.13
  [ "$status" -eq 0 ]
  printf '%s\n' "$output" > "$T/a"
  run "$BIN/rgen" -n 20 --seed 3 --ops add,nn.relu,nn.conv2d,reshape,qnn.dequantize --tvm-version 0.19
  printf '%s\n' "$output" > "$T/b"
  grep -q 'qnn.dequantize(' "$T/a"
  ! grep -q 'qnn.dequantize([^)]*out_dtype' "$T/a" || false # (nn.conv2d has an out_dtype in both)
  # the only difference: the attribute v0.19.0 requires written out
  sed 's/qnn.dequantize(\([^)]*\), out_dtype="float32"/qnn.dequantize(\1/' "$T/b" | diff "$T/a" -
  [ "$(grep -o 'qnn.dequantize([^)]*out_dtype="float32"' "$T/b" | wc -l)" -eq "$(grep -o 'qnn.dequantize(' "$T/b" | wc -l)" ]
}

@test "the default from a tvm package without libinfo.py (the fake TVM): imported, its __version__ read" {
  export PYTHONPATH=$ROOT/tests/cli/fake_tvm
  run "$BIN/rcheck" --version
  [ "$status" -eq 0 ]
  [ "${lines[1]}" = "checks against TVM v0.19.0's Relay registry (the TVM python3 imports: 0.19.0 at $ROOT/tests/cli/fake_tvm/tvm)" ]
  FAKE_TVM_VERSION=0.13.0 run "$BIN/rcheck" --list-ops
  [ "${#lines[@]}" -eq 300 ]
  # a pre-release maps to the nearest, said once; what the tool runs (here the test) inherits the
  # choice as RELAYKIT_TVM_VERSION, so relaykit tools it runs neither detect nor say it again
  printf '#[version = "0.0.5"]\ndef @main(%%x: float32) {\n  negative(%%x)\n}\n' > "$T/n.relay"
  printf '#!/bin/sh\necho "$RELAYKIT_TVM_VERSION" >> "%s/seen"\ngrep -q negative "$1"\n' "$T" > "$T/keep.sh"
  chmod +x "$T/keep.sh"
  FAKE_TVM_VERSION=0.14.0.dev1 run "$BIN/rreduce" "$T/n.relay" "$T/keep.sh"
  [ "$status" -eq 0 ]
  [ "$(grep -c 'note: TVM 0.14.0.dev1 is not a release relaykit knows; it checks against the nearest, v0.13.0' <<< "$output")" -eq 1 ]
  [ "$(sort -u "$T/seen")" = "0.13" ]
}

@test "v0.19.0's printing of split (indices_or_sections boxed in #[metadata]) is read as literals" {
  # TVM v0.19.0's astext() of relay.split(x, [1, 3]), as printed
  cat > "$T/split.relay" <<'RELAY'
#[version = "0.0.5"]
def @main(%x: Tensor[(6, 4), float32] /* ty=Tensor[(6, 4), float32] */) -> Tensor[(2, 4), float32] {
  %0 = split(%x, indices_or_sections=[meta[runtime.BoxInt][0], meta[runtime.BoxInt][1]]) /* ty=(Tensor[(1, 4), float32], Tensor[(2, 4), float32], Tensor[(3, 4), float32]) */;
  %0.1 /* ty=Tensor[(2, 4), float32] */
}

#[metadata]
{
  "root": 1, 
  "nodes": [
    {
      "type_key": ""
    }, 
    {
      "type_key": "Map", 
      "keys": [
        "runtime.BoxInt"
      ], 
      "data": [2]
    }, 
    {
      "type_key": "Array", 
      "data": [3, 4]
    }, 
    {
      "type_key": "runtime.BoxInt", 
      "repr_str": "1"
    }, 
    {
      "type_key": "runtime.BoxInt", 
      "repr_str": "3"
    }
  ], 
  "b64ndarrays": [], 
  "attrs": {"tvm_version": "0.19.0"}
}
RELAY
  for v in 0.13 0.19; do # the reading is the same for both: v0.13.0 never prints a BoxInt
    run "$BIN/rcheck" --tvm-version "$v" --annotate "$T/split.relay"
    [ "$status" -eq 0 ]
    [[ "${lines[2]}" == "  %0 = split(%x, indices_or_sections=[1, 3]) /* ty=(Tensor[(1, 4), float32], Tensor[(2, 4), float32], Tensor[(3, 4), float32]) */;" ]]
  done
  sed -i 's/"repr_str": "3"/"repr_str": "x"/' "$T/split.relay"
  run "$BIN/rcheck" "$T/split.relay"
  [ "$status" -eq 1 ]
  [[ "$output" == *"runtime.BoxInt node holds 'x'"* ]]
}

@test "nothing says the release: a first program ill-typed under v0.19.0 but typed under v0.13.0 settles the process on v0.13.0, said" {
  # TVM v0.13.0's memory.alloc_storage takes (size, alignment), v0.19.0's (size, shape, alignment)
  printf '#[version = "0.0.5"]\ndef @main(%%size: int64, %%al: int64) {\n  memory.alloc_storage(%%size, %%al, virtual_device=meta[VirtualDevice][0], dtype_hint="float32")\n}\n#[metadata]\n{"root": 1, "nodes": [{"type_key": ""}, {"type_key": "Map", "keys": ["VirtualDevice"], "data": [2]}, {"type_key": "Array", "data": [3]}, {"type_key": "VirtualDevice", "attrs": {"device_type_int": "1", "memory_scope": "4", "target": "0", "virtual_device_id": "0"}}, {"type_key": "runtime.String", "repr_str": ""}], "b64ndarrays": [], "attrs": {"tvm_version": "0.13.0"}}\n' > "$T/old.relay"
  RELAYKIT_PYTHON=$T/no-python run "$BIN/rcheck" --annotate "$T/old.relay"
  [ "$status" -eq 0 ]
  [ "$(grep -c "note: $T/old.relay type-checks under TVM v0.13.0's Relay registry, not v0.19.0's" <<< "$output")" -eq 1 ]
  [[ "$output" == *"/* ty=Storage[] */"* ]]
  # the choice is made and exported: rcheck --version of the tools it runs would say v0.13.0
  # (rreduce runs the test with RELAYKIT_TVM_VERSION=0.13)
  printf '#!/bin/sh\n[ "$RELAYKIT_TVM_VERSION" = 0.13 ] && grep -q alloc_storage "$1"\n' > "$T/env.sh"
  chmod +x "$T/env.sh"
  RELAYKIT_PYTHON=$T/no-python run "$BIN/rreduce" --tidy "$T/old.relay" "$T/env.sh"
  [ "$status" -eq 0 ]
  [[ "$output" == *"type-checks under TVM v0.13.0's Relay registry"* ]]
  # --server: the servers (started before FILE is read) are started again under v0.13.0
  printf '#!/bin/sh\nwhile read -r p; do if [ "$RELAYKIT_TVM_VERSION" = 0.13 ] && grep -q alloc_storage "$p"; then echo 0; else echo 1; fi; done\n' > "$T/env_server.sh"
  chmod +x "$T/env_server.sh"
  cp "$T/old.relay" "$T/old2.relay"
  RELAYKIT_PYTHON=$T/no-python run "$BIN/rreduce" --tidy --server "$T/env_server.sh" "$T/old2.relay"
  [ "$status" -eq 0 ]
  grep -q alloc_storage "$T/old2.relay"
  # anything that says the release is kept: the option, the variable
  RELAYKIT_PYTHON=$T/no-python run "$BIN/rcheck" --tvm-version 0.19 "$T/old.relay"
  [ "$status" -eq 1 ]
  [[ "$output" == *"memory.alloc_storage expects 3 arguments, got 2"* ]]
  RELAYKIT_PYTHON=$T/no-python RELAYKIT_TVM_VERSION=0.19 run "$BIN/rcheck" "$T/old.relay"
  [ "$status" -eq 1 ]
  # only the first program settles it: a v0.19.0 program first, then the old one, is refused
  printf '#[version = "0.0.5"]\ndef @main(%%x: float32) { %%x }\n' > "$T/new.relay"
  RELAYKIT_PYTHON=$T/no-python run "$BIN/rcheck" "$T/new.relay" "$T/old.relay"
  [ "$status" -eq 1 ]
  [[ "$output" == *"old.relay:3:3: error: memory.alloc_storage expects 3 arguments, got 2"* ]]
  # ill-typed under every release: the newest's error, no note
  printf '#[version = "0.0.5"]\ndef @main(%%x: float32) { add(%%x) }\n' > "$T/bad.relay"
  RELAYKIT_PYTHON=$T/no-python run "$BIN/rcheck" "$T/bad.relay"
  [ "$status" -eq 1 ]
  [[ "$output" != *"note:"* ]]
}
