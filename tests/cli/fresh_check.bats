#!/usr/bin/env bats
# scripts/fresh-check: a package a test needs that scripts/deps.sh does not install is found; a
# word that only names a command (in a string, a message, a heredoc of data, a Slurm answer) is not.

load release_pass

setup() {
  release_pass_only
  ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
  T=$(mktemp -d)
  command -v dpkg >/dev/null || skip "not a Debian system (no dpkg)"
}
teardown() { rm -rf "$T"; }

# richer_machine NAME=PACKAGE...: commands NAME on fresh-check's search path, before the real
# ones, each owned by PACKAGE (a dpkg stand-in answers -S for them and hands the rest to dpkg).
richer_machine() {
  mkdir -p "$T/bin" "$T/dpkg"
  local pair name
  : > "$T/owners"
  for pair in "$@"; do
    name=${pair%%=*}
    printf '#!/bin/sh\nexit 0\n' > "$T/bin/$name"
    chmod +x "$T/bin/$name"
    echo "${pair#*=}: $T/bin/$name" >> "$T/owners"
  done
  # dpkg -S NAME...: the stand-in's own names answered here, the others by the real dpkg
  cat > "$T/dpkg/dpkg" <<STUB
#!/bin/bash
[ "\$1" = -S ] || exec /usr/bin/dpkg "\$@"
shift
rest=()
for a in "\$@"; do grep ": \$a\$" "$T/owners" || rest+=("\$a"); done
[ \${#rest[@]} -eq 0 ] || exec /usr/bin/dpkg -S "\${rest[@]}"
STUB
  chmod +x "$T/dpkg/dpkg"
  export FRESH_CHECK_PATH=$T/bin:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin PATH=$T/dpkg:$PATH
}

@test "fresh-check passes with deps.sh's own list" {
  run python3 "$ROOT/scripts/fresh-check"
  [ "$status" -eq 0 ]
  [[ "$output" == *" 0 problem(s)"* ]]
}

@test "fresh-check: a machine with graphviz, cvise and creduce (and imagemagick's import) passes" {
  # The words the old check took for commands: 'cluster' (graphviz) in the Slurm stand-in's
  # answer, cvise and creduce in bench/reduce.sh (which make check does not run), 'dot' and
  # 'import' in strings and Python heredocs.
  richer_machine cluster=graphviz dot=graphviz cvise=cvise creduce=creduce import=imagemagick-6.q16
  run python3 "$ROOT/scripts/fresh-check" -v
  [ "$status" -eq 0 ]
  [[ "$output" == *" 0 problem(s)"* ]]
  ! grep -E "graphviz|cvise|creduce|imagemagick" <<<"$output" || false
  # what make check reads: the Slurm test and the Makefile, not bench/reduce.sh
  [[ "$output" == *"tests/cli/rfuzz_slurm.bats"* ]]
  ! grep -q "bench/reduce.sh" <<<"$output" || false
}

@test "fresh-check: a command a test really runs, from a package deps.sh leaves out, fails" {
  # shellcheck is run by tests/cli/tvm_scripts.bats; here it belongs to a package deps.sh lacks
  richer_machine shellcheck=fake-lint
  run python3 "$ROOT/scripts/fresh-check"
  [ "$status" -eq 1 ]
  [[ "$output" == *"needs 'shellcheck' from Debian package fake-lint, which scripts/deps.sh does not install (tests/cli/"* ]]
  [[ "$output" == *" 1 problem(s)"* ]]
}

@test "fresh-check names the crate and the command a shorter list leaves out" {
  bash "$ROOT/scripts/deps.sh" --list | grep -v -x -e librust-cc-dev -e git > "$T/list"
  run python3 "$ROOT/scripts/fresh-check" --deps-list "$T/list"
  [ "$status" -eq 1 ]
  [[ "$output" == *"parser/Cargo.toml needs 'cc' from Debian package librust-cc-dev"* ]]
  [[ "$output" == *"needs 'git' from Debian package git"* ]]
}

@test "fresh-check: an unreadable list is a usage error" {
  run python3 "$ROOT/scripts/fresh-check" --deps-list "$T/none"
  [ "$status" -eq 2 ]
  [[ "$output" == *"cannot read $T/none"* ]]
}

# scan FILE: the commands, the maybes, the project files and the Python texts it runs
scan() {
  python3 -c '
import sys
sys.path.insert(0, sys.argv[1])
import shell_commands
s = shell_commands.scan(open(sys.argv[2]).read())
print("commands:", " ".join(sorted({n for n, _ in s.commands})))
print("maybe:", " ".join(sorted({n for n, _ in s.maybe})))
print("files:", " ".join(sorted({f for f, *_ in s.files})))
print("python:", len(s.python))' "$ROOT/scripts" "$1"
}

@test "shell_commands: words bash runs, and not those of strings, comments, data or patterns" {
  cp "$BATS_TEST_DIRNAME/data/shell_words.bats.txt" "$T/t.bats"
  run scan "$T/t.bats"
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "commands: [ alpha bash beta cat delta echo env epsilon eta gamma iota nice printf python3 rreduce run sort theta timeout zeta" ]
  [ "${lines[1]}" = "maybe: def lambda" ]
  [ "${lines[2]}" = 'files: $ROOT/bench/chain.sh' ]
  [ "${lines[3]}" = "python: 1" ]
}

@test "deps.sh --tvm and --peers add what TVM's build and the peers need; an unknown option is refused" {
  # only its listing and its refusal run here (fresh-check reads a script the tests run as one
  # that may install: this one would, without --list)
  deps=$ROOT/scripts/deps.sh
  base=$(bash "$deps" --list)
  tvm=$(bash "$deps" --tvm --list)
  peers=$(bash "$deps" --peers --list)
  [ "$(bash "$deps" --list --peers)" = "$peers" ] # the options in any order
  # the base list is what make check needs, and stays so
  ! grep -qx 'llvm-15-dev\|python3-decorator\|python3-z3' <<< "$base" || false
  for p in cmake clang llvm-15-dev python3-attr python3-decorator python3-psutil python3-scipy python3-typing-extensions python3-cloudpickle; do
    grep -qx "$p" <<< "$tvm" || { echo "--tvm lacks $p"; return 1; }
  done
  for p in python3-z3 python3-bitarray python3-levenshtein python3-onnx python3-matplotlib python3-torch python3-multipledispatch python3-omegaconf; do
    grep -qx "$p" <<< "$peers" || { echo "--peers lacks $p"; return 1; }
  done
  # every name is a Debian package (apt-cache knows it, where its package lists are there at all)
  if command -v apt-cache > /dev/null && apt-cache show bats > /dev/null 2>&1; then
    # one apt-cache for all (it says nothing of a name it does not know when it knows another)
    bash "$deps" --tvm --peers --list | sort -u > "$T/names"
    # shellcheck disable=SC2046 # one word a package
    apt-cache show --no-all-versions $(cat "$T/names") 2> /dev/null | sed -n 's/^Package: //p' | sort -u > "$T/known"
    ! comm -23 "$T/names" "$T/known" | grep . || { echo "not packages here: $(comm -23 "$T/names" "$T/known" | xargs)"; return 1; }
  fi
  run bash "$deps" --bogus
  [ "$status" -eq 2 ]
  [ "$output" = "deps.sh: unknown option --bogus (--list, --tvm, --peers)" ]
}
