#!/usr/bin/env bash
# Installs everything relaykit needs to build and to run `make check`, from Debian's packages,
# and builds the tree-sitter CLI the corpus tests and the grammar check use.  Run as root.
# Nothing in `make check` installs anything: a test that needs a package finds it here or skips
# with the reason (scripts/fresh-check.sh checks that every package a test needs is listed here).
#
#   bash scripts/deps.sh           install what is missing, then build the tree-sitter CLI once
#   bash scripts/deps.sh --list    print the package list, one a line (for scripts/fresh-check.sh)
#   bash scripts/deps.sh --tvm     also what building TVM from source beside the project takes
#                                  (scripts/tvm-build.sh, scripts/tvm-instrumented.sh) and what
#                                  TVM's Python package imports, for `make check-tvm`
#   bash scripts/deps.sh --peers   also what the peer fuzzers of bench/peers import (their own
#                                  code comes from checkouts the user gives)
#
# Why each package is here:
#   build-essential pkg-config        the C build
#   libgit2-dev libjansson-dev libpcre2-dev   the libraries relaykit links (tree-sitter's runtime
#                                     is built in: parser/vendor/tree-sitter)
#   libcmocka-dev bats                unit and CLI tests
#   clang libclang-rt-14-dev          libFuzzer and the sanitizer runtimes clang links (only
#                                     Recommended by clang)
#   python3 python3-numpy             the TVM scripts' logic, tested with tests/cli/fake_tvm
#   python3-venv python3-pip python3-setuptools   `pip install --no-build-isolation ./python`
#                                     (tests/cli/python_session.bats installs into a venv)
#   the shellcheck package            the shell scripts are linted (tests/cli/tvm_scripts.bats)
#   cargo librust-tree-sitter-dev librust-cc-dev libtree-sitter-dev   the grammar's Rust binding,
#                                     built offline (parser/Cargo.toml: tree-sitter, which links
#                                     Debian's runtime, and cc to build it)
#   slurm-wlm munge                   tests/cli/rfuzz_slurm.bats starts a single-node Slurm
#   gnuplot-nox                       `rfuzz plot` (a campaign's coverage and groups over time)
#   llvm-14                           llvm-profdata-14 and llvm-cov-14, which read clang-14's
#                                     coverage (tests/cli/tvm_instrumented.bats, bench/coverage.sh)
#   parallel                          bats --jobs 2 (tests/run.sh): two CLI tests at a time
#   bsdmainutils bsdextrautils        `column`, `hexdump` in the CLI tests; util-linux's `script`
#                                     gives a terminal to the progress tests
# --tvm (none of it is needed by `make check`, which runs without TVM):
#   cmake ninja-build clang llvm-15-dev   TVM's build; LLVM 15 is the code generator every build in
#                                     bench/RESULTS.md used (the scripts take the newest llvm-config-N)
#   python3-attr python3-decorator python3-psutil python3-scipy python3-typing-extensions
#   python3-cloudpickle python3-tornado   what `import tvm` and tvm.relay import (TVM's
#                                     python/requirements; Debian's, since there is no PyPI here)
# --peers: python3-z3 python3-bitarray python3-tqdm python3-colorama python3-graphviz
#   python3-matplotlib python3-levenshtein python3-onnx   GenCoG's and NNSmith's imports
#                                     (bench/peers/README.md; polyleven is shimmed to levenshtein)
#   python3-torch python3-multipledispatch python3-omegaconf   NNSmith's generator (it makes its
#                                     models with PyTorch; each missing one stopped its arm at once)
set -euo pipefail
pkgs=(build-essential pkg-config clang libclang-rt-14-dev python3 python3-numpy python3-venv python3-pip
  python3-setuptools bats libcmocka-dev
  libtree-sitter-dev libgit2-dev libjansson-dev libpcre2-dev shellcheck
  git procps parallel cargo librust-tree-sitter-dev librust-cc-dev slurm-wlm munge gnuplot-nox llvm-14)
tvm_pkgs=(cmake ninja-build clang llvm-15-dev python3-numpy python3-attr python3-decorator python3-psutil
  python3-scipy python3-typing-extensions python3-cloudpickle python3-tornado)
peer_pkgs=(python3-z3 python3-bitarray python3-tqdm python3-colorama python3-graphviz python3-matplotlib
  python3-levenshtein python3-onnx python3-torch python3-multipledispatch python3-omegaconf)
list=0
for a in "$@"; do
  case $a in
  --list) list=1 ;;
  --tvm) pkgs+=("${tvm_pkgs[@]}") ;;
  --peers) pkgs+=("${peer_pkgs[@]}") ;;
  -h | --help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "deps.sh: unknown option $a (--list, --tvm, --peers)" >&2; exit 2 ;;
  esac
done
# --list after the others too: the list they make, whatever the order of the options
if [ $list = 1 ]; then
  printf '%s\n' "${pkgs[@]}"
  exit 0
fi
missing=()
for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# The tree-sitter CLI (0.20.7: it generates parsers for the language ABI of Debian's runtime and
# of relaykit's own, 0.20.8) is not a Debian package: the
# shared tool builds it offline from Debian's source package and crates, once.
here=$(cd "$(dirname "$0")" && pwd)
if ! bash "$here/tree-sitter-cli" >/dev/null 2>&1; then
  shared_tool=$here/../../shared/tools/tree-sitter-cli.sh
  if [ -x "$shared_tool" ]; then
    echo "deps.sh: building the tree-sitter CLI (once, a few minutes)"
    "$shared_tool" >/dev/null
  else
    echo "deps.sh: no tree-sitter CLI and no $shared_tool to build one: the corpus tests and the grammar check will fail" >&2
    exit 1
  fi
fi
