#!/usr/bin/env bats
# scripts/fresh-check: a package a test needs that scripts/deps.sh does not install is found.

setup() {
  ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
  T=$(mktemp -d)
  command -v dpkg >/dev/null || skip "not a Debian system (no dpkg)"
}
teardown() { rm -rf "$T"; }

@test "fresh-check passes with deps.sh's own list" {
  run python3 "$ROOT/scripts/fresh-check"
  [ "$status" -eq 0 ]
  [[ "$output" == *"0 problem(s)"* ]]
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
