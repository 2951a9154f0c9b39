#!/usr/bin/env bats
# rcheck's command line: exit codes, located errors, --annotate against TVM's own types, --json.

setup() {
  ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
  RFMT=${RFMT:-$ROOT/bin/rfmt}
  RCHECK=${RCHECK:-$(dirname "$RFMT")/rcheck}
  CORPUS=$ROOT/../shared/corpus
  T=$BATS_TEST_TMPDIR
}

@test "rcheck --help and usage errors" {
  run "$RCHECK" --help
  [ "$status" -eq 0 ]
  [[ "$output" == *"usage: rcheck"* ]]
  run "$RCHECK"
  [ "$status" -eq 2 ]
  run "$RCHECK" --annotate --json x
  [ "$status" -eq 2 ]
}

@test "a type error exits 1 with FILE:LINE:COL, the line and a caret" {
  printf '#[version = "0.0.5"]\ndef @main(%%x: Tensor[(2, 3), float32], %%y: Tensor[(4), float32]) {\n  add(%%x, %%y)\n}\n' > "$T/bad.relay"
  run "$RCHECK" "$T/bad.relay"
  [ "$status" -eq 1 ]
  [[ "${lines[0]}" == "$T/bad.relay:3:11: error: Incompatible broadcast type Tensor[(2, 3), float32] and Tensor[(4), float32]" ]]
  [[ "${lines[1]}" == *"add(%x, %y)"* ]]
  [[ "${lines[2]}" == *"^" ]]
}

@test "--annotate gives back TVM's types for the typed features without spans" {
  for n in closures if_else let_manual mutual_recursion polymorphism recursion_global user_adt_tree while_loop_local_recursion; do
    f=$CORPUS/features/$n.relay
    sed -E 's# ?/\* ty=[^*]*\*/##g' "$f" > "$T/in.relay"
    "$RCHECK" --annotate "$T/in.relay" > "$T/out" || { echo "rejected: $n"; return 1; }
    cmp -s "$f" "$T/out" || { echo "differs: $n"; diff "$f" "$T/out" | head -5; return 1; }
  done
}

@test "--annotate replaces wrong ty comments and merges span comments" {
  printf '#[version = "0.0.5"]\ndef @main(%%x: int32 /* ty=float32 */) -> int32 {\n  add(%%x, 1 /* span=a:1:2 */)\n}\n' > "$T/a.relay"
  run "$RCHECK" --annotate "$T/a.relay"
  [ "$status" -eq 0 ]
  [ "${lines[1]}" = 'def @main(%x: int32 /* ty=int32 */) -> int32 {' ]
  [ "${lines[2]}" = '  add(%x, 1 /* ty=int32 span=a:1:2 */) /* ty=int32 */' ]
}

@test "--annotate merges ty and span: the corpus files with spans, their ty= parts removed, come back byte for byte" {
  # Only the ty=T part of TVM's comments goes: `/* ty=T span=S */` -> `/* span=S */`, `/* ty=T */` -> nothing.
  # nat__1 and prelude__1 come back with another type for one call: TVM typed the text as written,
  # which types `@compose` differently from its printing (bench/RESULTS.md, uses of global functions).
  mkdir -p "$T/in"
  grep -rlZ 'span=' --include='*.relay' "$CORPUS" | sort -z | python3 -c '
import re, sys
for i, f in enumerate(p for p in sys.stdin.read().split("\0") if p):
    src = open(f).read()
    src = re.sub(r"/\* ty=[^*]*? span=", "/* span=", src)
    src = re.sub(r" ?/\* ty=[^*]*? \*/", "", src)
    open(sys.argv[1] + "/%04d.relay" % i, "w").write(src)
    print(f)' "$T/in" > "$T/list"
  [ "$(wc -l < "$T/list")" -ge 330 ]
  # One rcheck for all of them (a process a file took 131 s under ASan): its output is each
  # program's in turn, so it must be the originals end to end; only a failure looks file by file
  # for the one to name.
  i=0 ins=() want=()
  while IFS= read -r f; do
    in=$(printf '%s/in/%04d.relay' "$T" "$i")
    i=$((i + 1))
    case $f in */nat__1.relay | */prelude__1.relay) continue ;; esac
    ins+=("$in") want+=("$f")
  done < "$T/list"
  n=${#ins[@]}
  # TVM v0.13.0 printed the corpus (its memory.alloc_storage takes two arguments, v0.19.0's three)
  if ! "$RCHECK" --tvm-version 0.13 --annotate "${ins[@]}" > "$T/out" || ! cat "${want[@]}" | cmp -s - "$T/out"; then
    for k in "${!ins[@]}"; do
      "$RCHECK" --tvm-version 0.13 --annotate "${ins[$k]}" > "$T/one" || { echo "rejected: ${want[$k]}"; return 1; }
      cmp -s "${want[$k]}" "$T/one" || { echo "differs: ${want[$k]}"; diff "${want[$k]}" "$T/one" | head -5; return 1; }
    done
    echo "every file round-trips alone but not together"
    return 1
  fi
  echo "$n files round-trip"
  [ "$n" -ge 328 ]
}

@test "--annotate gives TVM's own printing back: a block's result keeps its span when its type is joined to it" {
  printf '#[version = "0.0.5"]\ndef @main(%%x: Tensor[(5, 7), float32]) -> Tensor[(5, 7), float32] {\n  %%0 = add(%%x, %%x) /* span=s:2:3 */;\n  negative(%%0) /* span=s:3:3 */\n}\n' > "$T/b.relay"
  run "$RCHECK" --annotate "$T/b.relay"
  [ "$status" -eq 0 ]
  [ "${lines[3]}" = '  negative(%0) /* ty=Tensor[(5, 7), float32] span=s:3:3 */' ]
  "$RCHECK" --annotate "$T/b.relay" > "$T/typed.relay"
  run "$RCHECK" --annotate "$T/typed.relay"
  [ "$output" = "$(cat "$T/typed.relay")" ]
}

@test "--json reports every binding's type" {
  run "$RCHECK" --json "$CORPUS/features/graph_bindings.relay"
  [ "$status" -eq 0 ]
  [[ "$output" == *'"name": "main"'* ]]
  [[ "$output" == *'"name": "%0"'* ]]
  python3 -c 'import json,sys; d=json.load(sys.stdin); assert d[0]["definitions"][0]["bindings"]' <<< "$output"
}

@test "expression-mode text is scope-checked as TVM's parse_expr does, not type-checked" {
  printf 'let %%_ : int64 = (); ()\n' > "$T/e.relay"
  run "$RCHECK" "$T/e.relay"
  [ "$status" -eq 0 ]
  printf 'if (True) { let %%x = (); () } else { %%x }\n' > "$T/s.relay"
  run "$RCHECK" "$T/s.relay"
  [ "$status" -eq 1 ]
  [[ "$output" == *":1:38: error: unbound variable %x"* ]]
}

@test "all invalid TVM test programs are rejected with a location" {
  for f in "$CORPUS"/tvm-tests/invalid/*.relay; do
    run "$RCHECK" "$f"
    [ "$status" -eq 1 ] || { echo "accepted: $f"; return 1; }
    [[ "$output" =~ :[0-9]+:[0-9]+:\ error: ]]
  done
}

@test "hand-written TVM test programs never crash rcheck" {
  # one rcheck over all 369 files (a process each took 135 s under ASan): it goes on past a file it
  # refuses; a crash on any file ends it with a status above 1
  rc=0
  "$RCHECK" "$CORPUS"/tvm-tests/*.relay > /dev/null 2> "$T/err" || rc=$?
  [ $rc -le 1 ] || { echo "exit $rc"; tail -n 5 "$T/err"; return 1; }
  # every refusal located, and named a file of the set
  [ $rc -eq 0 ] || grep -qE '^[^ ]+\.relay:[0-9]+:[0-9]+: error:' "$T/err"
  ! grep 'error:' "$T/err" | grep -vE "^$CORPUS/tvm-tests/[^ :]+\.relay:[0-9]+:[0-9]+: error:" || return 1
}

@test "--list-ops lists TVM v0.13's Relay operators, one a line, sorted, each one typed by rcheck" {
  run "$RCHECK" --list-ops --tvm-version 0.13
  [ "$status" -eq 0 ]
  [ "${#lines[@]}" -gt 290 ]
  printf '%s\n' "${lines[@]}" | LC_ALL=C sort -c
  [ "$(printf '%s\n' "${lines[@]}" | sort -u | wc -l)" -eq "${#lines[@]}" ]
  # a sample from every family: each listed, and a call to it is known to the checker
  for op in nn.conv2d nn.depth_to_space cumsum scatter_nd einsum image.grid_sample qnn.dense \
            vision.roi_align dyn.topk random.uniform nn.sparse_dense annotation.checkpoint \
            contrib.ethosu.pooling unique trilu nn.conv3d_transpose; do
    printf '%s\n' "${lines[@]}" | grep -qx "$op" || { echo "not listed: $op"; return 1; }
  done
  printf '#[version = "0.0.5"]\ndef @main(%%x: Tensor[(1, 4, 2, 2), float32]) {\n  nn.depth_to_space(%%x, block_size=2)\n}\n' > "$T/d2s.relay"
  run "$RCHECK" --annotate "$T/d2s.relay"
  [ "$status" -eq 0 ]
  [[ "$output" == *"ty=Tensor[(1, 1, 4, 4), float32]"* ]]
  printf '#[version = "0.0.5"]\ndef @main(%%x: float32) {\n  no.such_op(%%x)\n}\n' > "$T/unknown.relay"
  run "$RCHECK" "$T/unknown.relay"
  [ "$status" -eq 1 ]
  [[ "$output" == *"unknown operator"* ]]
}

@test "an unknown operator typed by its ty= comment or by an annotation: a warning, exit 0; without a type: an error that says what to add" {
  printf '#[version = "0.0.5"]\ndef @main(%%x: Tensor[(1, 8, 16, 16), float32]) {\n  %%0 = mycompany.fancy_pool(%%x, window=[2, 2]) /* ty=Tensor[(1, 8, 8, 8), float32] */;\n  tanh(%%0)\n}\n' > "$T/opaque.relay"
  run "$RCHECK" --annotate "$T/opaque.relay"
  [ "$status" -eq 0 ]
  [[ "$output" == *"opaque.relay:3:8: warning: unknown operator 'mycompany.fancy_pool' typed as Tensor[(1, 8, 8, 8), float32] from its ty= comment"* ]]
  [[ "$output" == *"tanh(%0) /* ty=Tensor[(1, 8, 8, 8), float32] */"* ]]
  printf '#[version = "0.0.5"]\ndef @main(%%x: Tensor[(4), float32]) {\n  let %%y: Tensor[(2), float32] = my.op(%%x);\n  tanh(%%y)\n}\n' > "$T/annotated.relay"
  run "$RCHECK" "$T/annotated.relay"
  [ "$status" -eq 0 ]
  [[ "$output" == *"typed as Tensor[(2), float32] from the program around it"* ]]
  printf '#[version = "0.0.5"]\ndef @main(%%x: Tensor[(4), float32]) {\n  tanh(my.op(%%x))\n}\n' > "$T/untyped.relay"
  run "$RCHECK" "$T/untyped.relay"
  [ "$status" -eq 1 ]
  [[ "$output" == *"3:8: error: unknown operator or constructor 'my.op': nothing gives its result type (add the /* ty=T */ comment"* ]]
  # a constructor stays a constructor
  printf '#[version = "0.0.5"]\ntype T { A, B(int32) }\ndef @main() {\n  B(1)\n}\n' > "$T/ctor.relay"
  run "$RCHECK" "$T/ctor.relay"
  [ "$status" -eq 0 ]
  [[ "$output" != *"warning"* ]]
}

# TVM types a use of a global by the global's annotation: a result type not written is an unknown
# the use's context fixes.  In the prelude (@compose has no result type) the call in @iterate's
# else branch takes the other branch's type, the polymorphic @id, type parameter included; with
# @compose's result written (as TVM prints it back), it is the instantiated `fn (A) -> A`.
# Both checked on TVM v0.13.0 (tvm.relay.parse).
@test "a global's use is typed by its annotation, as TVM does (the prelude's @iterate)" {
  src='def @id[A](%x: A) -> A { %x }
def @compose[A, B, C](%f: fn (B) -> C, %g: fn (A) -> B)RESULT {
  fn (%x1: A) -> C { %f(%g(%x1)) }
}
def @iterate[A](%f6: fn (A) -> A, %n: int32) -> fn (A) -> A {
  if (equal(%n, 0)) { @id } else { @compose(%f6, @iterate(%f6, subtract(%n, 1))) }
}'
  { echo '#[version = "0.0.5"]'; echo "${src/RESULT/}"; } > "$T/unwritten.relay"
  { echo '#[version = "0.0.5"]'; echo "${src/RESULT/ -> fn (A) -> C}"; } > "$T/written.relay"
  run "$RCHECK" --annotate "$T/unwritten.relay"
  [ "$status" -eq 0 ]
  [[ "$output" == *"subtract(%n, 1 /* ty=int32 */) /* ty=int32 */) /* ty=fn (A) -> A */) /* ty=fn [A](A) -> A */"* ]]
  run "$RCHECK" --annotate "$T/written.relay"
  [ "$status" -eq 0 ]
  [[ "$output" == *"/* ty=fn (A) -> A */) /* ty=fn (A) -> A */"* ]]
  # TVM's own prelude, as shipped: the same type at that call as TVM printed it
  run "$RCHECK" --annotate "$CORPUS/tvm-tests/prelude__1.relay"
  [ "$status" -eq 0 ]
  [[ "$output" == *"@compose(%f, @iterate(%f, %n - 1 /* ty=int32 */) /* ty=fn (A) -> A */) /* ty=fn [A](A) -> A */"* ]]
  grep -q '@compose(%f6, %8) /\* ty=fn \[A\](A) -> A ' "$CORPUS/tvm-tests/printed/prelude__1.relay"
}

# The parse stops at the #[metadata] header and the constants' types come from the NDArray headers
# alone (parse.c, metadata.c): what must not change is what is read.
@test "#[metadata]: a header inside a comment is not the section; bad JSON in the weights is still found" {
  r=$ROOT/../shared/realbugs/hirgen-dynamic-to-static-global-call/repro.relay
  python3 - "$r" "$T" <<'PY'
import sys
t = open(sys.argv[1]).read()
d = t.index("def @func_14")
open(sys.argv[2] + "/decoy.relay", "w").write(t[:d] + "/* a note:\n#[metadata]\n*/\n" + t[d:])
j = t.index('"P6G0lvBAXt0AAAAAAAAAAAEAAAAAAAAAAgAAAAAgAQAsAAAA') + 400
open(sys.argv[2] + "/tab.relay", "w").write(t[:j] + "\t" + t[j:])
PY
  run "$RCHECK" "$T/decoy.relay"
  [ "$status" -eq 0 ]
  "$RFMT" "$T/decoy.relay" > "$T/decoy.out"
  grep -q '^#\[metadata\]$' "$T/decoy.out"
  grep -q 'P6G0lvBAXt0AAAAAAAAAAAEAAAAAAAAAAgAAAAAgAQAsAAAA' "$T/decoy.out"
  from_last_header() { awk '{ a[NR] = $0 } /^#\[metadata\]$/ { s = NR } END { for (i = s; i <= NR; i++) print a[i] }' "$1"; }
  [ "$(from_last_header "$T/decoy.out" | md5sum)" = "$(from_last_header "$r" | md5sum)" ]
  run "$RCHECK" "$T/tab.relay"
  [ "$status" -eq 1 ]
  [[ "$output" == *"tab.relay:197:404: error: cannot read the #[metadata] section: invalid JSON: control character 0x9"* ]]
  # a constant's type is read from its NDArray's header
  run "$RCHECK" --annotate "$r"
  [ "$status" -eq 0 ]
  [[ "$output" == *"cast(meta[relay.Constant][1] /* ty=Tensor[(44, 4), int32] */, dtype=\"int32\")"* ]]
}
