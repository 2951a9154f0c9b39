#!/usr/bin/env bash
# Installs what relaykit needs to build and test, from Debian's packages.  Run as root.
# libclang-rt-14-dev holds libFuzzer and the sanitizer runtimes clang links (only Recommended by clang);
# cargo and librust-tree-sitter-dev build the grammar's Rust binding offline (tests/cli/grammar_bindings.bats).
# slurm-wlm and munge: tests/cli/rfuzz_slurm.bats starts a single-node Slurm on localhost (examples/slurm/).
set -euo pipefail
pkgs=(build-essential pkg-config clang libclang-rt-14-dev python3 bats libtree-sitter-dev libgit2-dev libcmocka-dev libjansson-dev libpcre2-dev python3-numpy cargo librust-tree-sitter-dev slurm-wlm munge)
missing=()
for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi
