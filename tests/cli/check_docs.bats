#!/usr/bin/env bats
# scripts/check-docs: README examples run and compared with what the README shows.

load release_pass

setup() {
  release_pass_only
  ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
  T=$BATS_TEST_TMPDIR
}

@test "check-docs: transcripts, outputs and options pass when the tools print what the README shows" {
  cat > "$T/README.md" <<'MD'
# demo

<!-- check-docs -->
```
$ printf 'a\nb\nc\n'
a
...
c
$ echo "took 1.2 s"
took ... s
```

<!-- check-docs: $ bin/rgen --help | head -1 -->
```
usage: rgen [options]
```

<!-- check-docs: options $ bin/rgen --help -->
```
rgen [--seed S] [-n N]
```
MD
  run python3 "$ROOT/scripts/check-docs" "$T/README.md"
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" == *"3 passed, 0 failed"* ]]
}

@test "check-docs: a README that says something else, or shows an option the tool lacks, fails" {
  cat > "$T/README.md" <<'MD'
<!-- check-docs -->
```
$ echo 41
42
```

<!-- check-docs: options $ bin/rgen --help -->
```
rgen --no-such-option
```

<!-- check-docs needs-tvm -->
```
$ echo only with TVM
only with TVM
```
MD
  run env RELAYKIT_PYTHON=/bin/false python3 "$ROOT/scripts/check-docs" "$T/README.md"
  echo "$output"
  [ "$status" -eq 1 ]
  [[ "$output" == *"0 passed, 2 failed, 1 skipped"* ]]
  [[ "$output" == *'`echo 41` printed:'* ]]
  [[ "$output" == *"--no-such-option"* ]]
  [[ "$output" == *"needs TVM"* ]]
}
