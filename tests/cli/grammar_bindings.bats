#!/usr/bin/env bats
# The grammar as a package for editors and other tools (parser/): the Rust and Node bindings
# compile and link with the external scanner, the package metadata names the language for
# `tree-sitter highlight`, and every query the metadata names exists.  The queries themselves are
# loaded and checked by tests/unit/test_queries.c.

load release_pass

setup() {
  release_pass_only
  ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
  P=$ROOT/parser
  T=$BATS_TEST_TMPDIR
}

@test "package metadata: Apache-2.0, no made-up repository, scope source.relay for .relay files, queries that exist" {
  grep -q '^license = "Apache-2.0"$' "$P/Cargo.toml"
  ! grep -q '^repository' "$P/Cargo.toml" || false
  python3 - "$P" <<'PY'
import json, os, sys
p = sys.argv[1]
pkg = json.load(open(os.path.join(p, "package.json")))
assert pkg["license"] == "Apache-2.0", pkg["license"]
ts = json.load(open(os.path.join(p, "tree-sitter.json")))
assert ts["metadata"]["license"] == "Apache-2.0"
for entry in pkg["tree-sitter"] + ts["grammars"]:
    assert entry["scope"] == "source.relay", entry
    assert entry["file-types"] == ["relay"], entry
    for key in ("highlights", "locals"):
        assert os.path.isfile(os.path.join(p, entry[key])), entry[key]
for q in ("highlights", "locals", "folds", "indents"):
    assert os.path.isfile(os.path.join(p, "queries", q + ".scm")), q
PY
  # both build descriptions compile the scanner along with the parser
  grep -q '"src/scanner.c"' "$P/binding.gyp"
  grep -q 'src_dir.join("scanner.c")' "$P/bindings/rust/build.rs"
}

@test "the Rust binding builds offline with Debian's crates and parses through the external scanner" {
  command -v cargo >/dev/null || skip "no cargo (apt-get install cargo)"
  ls -d /usr/share/cargo/registry/tree-sitter-0.20.* >/dev/null 2>&1 || skip "no Debian tree-sitter crate (apt-get install librust-tree-sitter-dev)"
  cp -r "$P" "$T/crate"
  rm -rf "$T/crate/test" "$T/crate/node_modules" "$T/crate/build"
  mkdir -p "$T/crate/.cargo"
  printf '[source.crates-io]\nreplace-with = "debian"\n[source.debian]\ndirectory = "/usr/share/cargo/registry"\n' > "$T/crate/.cargo/config.toml"
  cd "$T/crate"
  run env CARGO_HOME="$T/cargo-home" cargo test --offline
  echo "$output" | tail -20
  [ "$status" -eq 0 ]
  [[ "$output" == *"test tests::test_parses_with_the_external_scanner ... ok"* ]]
}

@test "the Node binding builds and links the external scanner" {
  command -v npm >/dev/null && command -v node >/dev/null || skip "no node and npm"
  nodedir=$(dirname "$(dirname "$(command -v node)")")
  [ -f "$nodedir/include/node/node.h" ] || skip "no Node headers under $nodedir/include/node"
  cp -r "$P" "$T/pkg"
  cd "$T/pkg"
  npm install --no-save --ignore-scripts --omit=dev --no-audit --no-fund nan node-gyp > "$T/npm.log" 2>&1 ||
    skip "npm cannot install nan and node-gyp here (offline?): $(tail -1 "$T/npm.log")"
  run npx node-gyp rebuild --nodedir="$nodedir"
  [ "$status" -eq 0 ]
  so=build/Release/tree_sitter_relay_binding.node
  [ -f "$so" ]
  # node loads addons lazily: the scanner's symbols must be defined in the addon itself
  ! nm -u "$so" | grep -q tree_sitter_relay_external_scanner || false
  nm "$so" | grep -q ' T tree_sitter_relay_external_scanner_scan'
  run node -e 'const l = require("./bindings/node"); if (l.name !== "relay" || !l.nodeTypeInfo) process.exit(1)'
  [ "$status" -eq 0 ]
}

@test "tree-sitter highlight finds the grammar by its file type" {
  cli=$("$BATS_TEST_DIRNAME/../../scripts/tree-sitter-cli")
  mkdir -p "$T/parsers" "$T/config"
  cp -r "$P" "$T/parsers/tree-sitter-relay"
  printf '{"parser-directories": ["%s"]}\n' "$T/parsers" > "$T/config/config.json"
  printf '#[version = "0.0.5"]\ndef @main(%%x: float32) {\n  add(%%x, 1f)\n}\n' > "$T/p.relay"
  run env TREE_SITTER_DIR="$T/config" HOME="$T" "$cli" highlight --html "$T/p.relay"
  [ "$status" -eq 0 ]
  [[ "$output" == *"keyword"* || "$output" == *"style="* ]]
  [[ "$output" == *"@main"* ]]
}
