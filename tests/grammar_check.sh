#!/usr/bin/env bash
# Fails when the committed parser/src/parser.c is not what parser/grammar.js generates.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
ts=$("$root/scripts/tree-sitter-cli")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$root/parser/grammar.js" "$work/"
(cd "$work" && "$ts" generate >/dev/null)
for f in parser.c grammar.json node-types.json; do
  if ! cmp -s "$work/src/$f" "$root/parser/src/$f"; then
    echo "grammar-check: parser/src/$f is stale; run 'make grammar' and commit it" >&2
    exit 1
  fi
done
echo "grammar-check: parser/src/parser.c matches parser/grammar.js"
