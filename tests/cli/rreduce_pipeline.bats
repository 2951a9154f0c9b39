#!/usr/bin/env bats
# rreduce reduces the pipeline with the program (issue 28): a pass list to the passes a planted
# pass-order bug needs, a build's disabled passes and opt level, through a command test, through
# the server, and through the generic protocol (a test of one's own); --no-pipeline, --pipeline.

setup() {
  ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
  RFMT=${RFMT:-$ROOT/bin/rfmt}
  BIN=$(dirname "$RFMT")
  I=$ROOT/interestingness
  T=$BATS_TEST_TMPDIR
  export PYTHONPATH=$ROOT/tests/cli/fake_tvm PYTHONPYCACHEPREFIX=$T/pycache
  unset TVM_HOME FAKE_TVM_PLANTED
  printf '#[version = "0.0.5"]\ndef @main(%%x: Tensor[(2, 2), float32]) {\n  %%0 = add(%%x, %%x);\n  %%1 = negative(%%0);\n  %%2 = exp(%%1);\n  multiply(%%2, %%1)\n}\n' > "$T/bug.relay"
  # twenty passes; the planted bug needs FoldConstant, then FuseOps later
  PASSES="SimplifyExpr CanonicalizeOps DeadCodeElimination EliminateCommonSubexpr SimplifyInference FoldConstant"
  PASSES="$PASSES ToANormalForm CanonicalizeCast FoldScaleAxis InferType Legalize DynamicToStatic FastMath LambdaLift"
  PASSES="$PASSES 'FuseOps(fuse_opt_level=2)' ToGraphNormalForm DefuseOps AlterOpLayout Inline EtaExpand"
}

# the pipeline rreduce left beside FILE, as "passes|opt_level|disabled"
pipeline() {
  python3 -c 'import json,sys; p=json.load(open(sys.argv[1])); print("|".join([",".join(p.get("passes", [])), str(p.get("opt_level", "")), ",".join(p.get("disabled_pass", []))]))' "$1"
}

@test "tvm-pass with twenty passes: the two a pass-order bug needs, their arguments lowered, 1-minimal" {
  export FAKE_TVM_PLANTED='pass-error:FoldConstant>FuseOps'
  printf '#!/bin/sh\nexec %s -q %s --match "fake pass order" "$1"\n' "$I/tvm-pass" "$PASSES" > "$T/t.sh"
  chmod +x "$T/t.sh"
  run "$BIN/rreduce" -j 2 --report "$T/r.md" "$T/bug.relay" "$T/t.sh"
  echo "$output"
  [ "$status" -eq 0 ]
  [ "$(pipeline "$T/bug.relay.pipeline" | cut -d'|' -f1)" = "FoldConstant,FuseOps(fuse_opt_level=0)" ]
  [[ "$output" == *"pipeline: SimplifyExpr then"*"-> FoldConstant then FuseOps(fuse_opt_level=0); opt level 0; 1-minimal"* ]]
  # the report says it, and how to give it to the test
  grep -q 'The bug needs FoldConstant then FuseOps(fuse_opt_level=0)' "$T/r.md"
  grep -q 'Checked 1-minimal' "$T/r.md"
  grep -q "interestingness/tvm-pass 'FoldConstant' 'FuseOps(fuse_opt_level=0)' --opt-level 0 bug.relay" "$T/r.md"
  # how to reproduce: the reduced program and its pipeline beside it, the test fails on them
  recipe=$(grep '^    d=\$(mktemp -d)' "$T/r.md")
  [[ "$recipe" == *"/bug.relay.pipeline' \"\$d/bug.relay.pipeline\""* ]]
  run sh -c "$recipe"
  [ "$status" -eq 0 ]
  # the standalone repro is made under the reduced pipeline
  grep -q "relay.transform.FuseOps(fuse_opt_level=0)" "$T/r.md"
  ! grep -q "relay.transform.SimplifyExpr" "$T/r.md" || false
  # and that is what the test fails on
  cp "$T/bug.relay" "$T/again.relay"
  run "$I/tvm-pass" -q FoldConstant 'FuseOps(fuse_opt_level=0)' --match 'fake pass order' "$T/again.relay"
  [ "$status" -eq 0 ]
  run "$I/tvm-pass" -q FuseOps FoldConstant --match 'fake pass order' "$T/again.relay"
  [ "$status" -eq 1 ]
}

@test "tvm-build: the passes that ran disabled but the two the bug needs, and the lowest opt level; with the server too" {
  export FAKE_TVM_PLANTED='build-order:FoldConstant>FuseOps'
  printf '#!/bin/sh\nexec %s -q --opt-level 3 --match "fake pass order" "$1"\n' "$I/tvm-build" > "$T/b.sh"
  chmod +x "$T/b.sh"
  cp "$T/bug.relay" "$T/s.relay"
  run "$BIN/rreduce" -j 1 "$T/bug.relay" "$T/b.sh"
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" == *"-> opt level 2, "*"of its passes disabled; FoldConstant and FuseOps still run; 1-minimal"* ]]
  p=$(pipeline "$T/bug.relay.pipeline")
  [ "$(cut -d'|' -f2 <<< "$p")" = 2 ]
  [[ "$(cut -d'|' -f3 <<< "$p")" != *FoldConstant* && "$(cut -d'|' -f3 <<< "$p")" != *FuseOps* ]]
  [[ "$(cut -d'|' -f3 <<< "$p")" == *SimplifyInference* ]]
  # the same through tvm-server: the pipeline travels beside each candidate
  run "$BIN/rreduce" -j 2 --match 'fake pass order' --server "'$I/tvm-server' build --opt-level 3 --timeout 20" "$T/s.relay"
  echo "$output"
  [ "$status" -eq 0 ]
  [ "$(pipeline "$T/s.relay.pipeline")" = "$p" ]
}

@test "a test of one's own takes part through the side files; --no-pipeline reduces the program alone" {
  # fails while its pipeline (its own: A B C D, or the one beside the candidate) has B, then D
  cat > "$T/own.sh" <<'EOF'
#!/bin/sh
passes='"A", "B", "C", "D"'
[ -f "$1.pipeline" ] && passes=$(python3 -c 'import json,sys; print(", ".join(json.dumps(p) for p in json.load(open(sys.argv[1]))["passes"]))' "$1.pipeline")
printf '{"pipeline": {"check": "own", "passes": [%s]}}' "$passes" > "$1.outcome"
case "$passes" in *'"B"'*'"D"'*) grep -q 'exp(' "$1" ;; *) exit 1 ;; esac
EOF
  chmod +x "$T/own.sh"
  cp "$T/bug.relay" "$T/alone.relay"
  run "$BIN/rreduce" -j 1 "$T/bug.relay" "$T/own.sh"
  echo "$output"
  [ "$status" -eq 0 ]
  [ "$(pipeline "$T/bug.relay.pipeline" | cut -d'|' -f1)" = "B,D" ]
  grep -q 'exp(' "$T/bug.relay"
  run "$BIN/rreduce" -j 1 --no-pipeline "$T/alone.relay" "$T/own.sh"
  [ "$status" -eq 0 ]
  [ ! -e "$T/alone.relay.pipeline" ]
  [[ "$output" != *"pipeline:"* ]]
}

@test "--pipeline FILE: a pass TVM does not have, a pass that does not parse, a file that cannot be read: exit 2 before any test" {
  printf '#!/bin/sh\necho ran >> %s/ran\nexit 0\n' "$T" > "$T/any.sh"
  chmod +x "$T/any.sh"
  printf '{"passes": ["FoldConstant", "NoSuchPass"]}' > "$T/p1"
  run "$BIN/rreduce" --pipeline "$T/p1" "$T/bug.relay" "$T/any.sh"
  [ "$status" -eq 2 ] && [[ "$output" == *"p1: unknown pass 'NoSuchPass'"* ]]
  printf '{"passes": ["FuseOps(fuse_opt_level=2"]}' > "$T/p2"
  run "$BIN/rreduce" --pipeline "$T/p2" "$T/bug.relay" "$T/any.sh"
  [ "$status" -eq 2 ] && [[ "$output" == *"p2: pass 'FuseOps(fuse_opt_level=2' does not parse"* ]]
  printf '{"opt_level": 9}' > "$T/p3"
  run "$BIN/rreduce" --pipeline "$T/p3" "$T/bug.relay" "$T/any.sh"
  [ "$status" -eq 2 ] && [[ "$output" == *"p3: pipeline field \"opt_level\""* ]]
  run "$BIN/rreduce" --pipeline "$T/none" "$T/bug.relay" "$T/any.sh"
  [ "$status" -eq 2 ] && [[ "$output" == *"$T/none"* ]]
  [ ! -e "$T/ran" ] # no test ran
  cmp -s "$T/bug.relay" <(printf '#[version = "0.0.5"]\ndef @main(%%x: Tensor[(2, 2), float32]) {\n  %%0 = add(%%x, %%x);\n  %%1 = negative(%%0);\n  %%2 = exp(%%1);\n  multiply(%%2, %%1)\n}\n')
}
