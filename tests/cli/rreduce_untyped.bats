#!/usr/bin/env bats
# Reduction below the type checker: inputs that do not type-check (a type checker's bug report,
# rmutate --ill-typed's output) reduce under a weaker guard; --require-typed refuses them.

load rreduce_helpers

# Tokens as a person counts them: names, numbers, punctuation.
tokens() { grep -oE '[%@]?[A-Za-z_][A-Za-z0-9_.]*|[0-9]+(\.[0-9]+)?[a-z0-9]*|[^[:space:][:alnum:]]' "$1" | wc -l; }

# keeps_error FILE TEST: TEST is interesting while rcheck still rejects with FILE's first message.
keeps_error() {
  local msg
  msg=$("$RCHECK" "$1" 2>&1 | grep -m1 -oE 'error: [^:]+' | head -1)
  [ -n "$msg" ]
  printf '#!/bin/sh\n"%s" "$1" 2>&1 | grep -qF "%s"\n' "$RCHECK" "$msg" > "$2"
  chmod +x "$2"
}

@test "an ill-typed model reduces while the checker's error stays, to a handful of tokens" {
  # mlp with the input made 3 channels wide: nn.dense no longer fits its weight
  sed 's/%data: Tensor\[(1, 1, 28, 28), float32\]/%data: Tensor[(1, 3, 28, 28), float32]/' "$CORPUS/models/mlp.relay" > "$T/ill.relay"
  run "$RCHECK" "$T/ill.relay"
  [ "$status" -eq 1 ]
  keeps_error "$T/ill.relay" "$T/keep_error.sh"
  run "$RREDUCE" --json "$T/ill.relay" "$T/keep_error.sh"
  [ "$status" -eq 0 ]
  [[ "$output" == *"does not type-check"*"weaker guard"* ]]
  "$T/keep_error.sh" "$T/ill.relay"            # still the same error
  [ "$(tokens "$T/ill.relay")" -le 40 ]
  [ "$(tokens "$T/ill.relay")" -lt "$(tokens "$T/ill.relay.orig")" ]
  grep -q 'nn.dense(' "$T/ill.relay"
}

@test "--require-typed refuses an input that does not type-check, and leaves it alone" {
  sed 's/%data: Tensor\[(1, 1, 28, 28), float32\]/%data: Tensor[(1, 3, 28, 28), float32]/' "$CORPUS/models/mlp.relay" > "$T/ill.relay"
  cp "$T/ill.relay" "$T/before.relay"
  keeps_error "$T/ill.relay" "$T/keep_error.sh"
  run "$RREDUCE" --require-typed "$T/ill.relay" "$T/keep_error.sh"
  [ "$status" -eq 1 ]
  [[ "$output" == *"not a well-typed Relay program"*"--require-typed"* ]]
  cmp -s "$T/ill.relay" "$T/before.relay"
}

@test "an unbound name: the guard falls back to 'it parses'" {
  printf '#[version = "0.0.5"]\ndef @main(%%x: Tensor[(4, 4), float32], %%w: Tensor[(4, 4), float32]) {\n  %%0 = nn.relu(%%x);\n  %%1 = tanh(%%0);\n  %%2 = nn.dense(%%1, %%w);\n  add(%%2, %%nowhere)\n}\n' > "$T/unbound.relay"
  keeps_error "$T/unbound.relay" "$T/keep_error.sh"
  run "$RREDUCE" "$T/unbound.relay" "$T/keep_error.sh"
  [ "$status" -eq 0 ]
  [[ "$output" == *"every candidate parses ("* ]]
  "$T/keep_error.sh" "$T/unbound.relay"
  [ "$(tokens "$T/unbound.relay")" -le 25 ]
}

@test "text that does not parse is still refused" {
  printf 'def @main( {\n' > "$T/bad.relay"
  printf '#!/bin/sh\nexit 0\n' > "$T/yes.sh"
  chmod +x "$T/yes.sh"
  run "$RREDUCE" "$T/bad.relay" "$T/yes.sh"
  [ "$status" -eq 1 ]
  [[ "$output" == *"bad.relay could not be read as Relay text, so there is nothing to reduce:"*"bad.relay:1:"*"error: "* ]]
}

@test "a call of an unknown operator is a black box of its stated type: it reduces like any other call and keeps its ty= comment" {
  printf '#[version = "0.0.5"]\ndef @main(%%x: Tensor[(1, 8, 16, 16), float32]) -> Tensor[(1, 8, 8, 8), float32] {\n  %%0 = nn.relu(%%x) /* ty=Tensor[(1, 8, 16, 16), float32] */;\n  %%1 = mycompany.fancy_pool(%%0, window=[2, 2]) /* ty=Tensor[(1, 8, 8, 8), float32] */;\n  %%2 = tanh(%%1) /* ty=Tensor[(1, 8, 8, 8), float32] */;\n  add(%%2, %%1) /* ty=Tensor[(1, 8, 8, 8), float32] */\n}\n' > "$T/opaque.relay"
  printf '#!/bin/sh\ngrep -qF "mycompany.fancy_pool(" "$1"\n' > "$T/keep_op.sh"
  chmod +x "$T/keep_op.sh"
  run "$RREDUCE" --json "$T/opaque.relay" "$T/keep_op.sh"
  [ "$status" -eq 0 ]
  [[ "$output" == *'"guard_rejections": 0'* || "$output" == *'"guard_rejections":0'* ]]
  "$RCHECK" "$T/opaque.relay"                  # still types, through the kept comment
  grep -q 'mycompany.fancy_pool(.*/\* ty=' "$T/opaque.relay"
  [ "$(tokens "$T/opaque.relay")" -le 40 ]
}

@test "untyped chained globals under an always-true test: @main's body becomes its parameter, then dce takes every global at once" {
  # issue 29: 50,000 of them (2.1 MB) ran past 120 s, one call removed per candidate, each
  # candidate the whole program; here 3,000, in a handful of tests however many there are
  python3 -c 'import sys
n = 3000
print("#[version = \"0.0.5\"]\ndef @f0(%x) { nn.relu(%x) }")
for i in range(1, n): print("def @f%d(%%x) { nn.relu(@f%d(%%x)) }" % (i, i - 1))
print("def @main(%%x: Tensor[(1, 4), float32]) { @f%d(%%x) }" % (n - 1))' > "$T/globals.relay"
  printf '#!/bin/sh\nexit 0\n' > "$T/yes.sh"
  chmod +x "$T/yes.sh"
  run "$RREDUCE" -j1 --tidy --json "$T/globals.relay" "$T/yes.sh"
  [ "$status" -eq 0 ]
  [[ "$output" == *"parses and binds its names"* ]]
  python3 -c 'import json,sys; d=json.loads(sys.argv[1].splitlines()[-1]); assert d["tests_run"] <= 20 and d["calls_after"] == 0, d' "$output"
  [ "$(tokens "$T/globals.relay")" -le 20 ]
  grep -q 'def @main(%x' "$T/globals.relay"
  ! grep -q '@f' "$T/globals.relay"
}
