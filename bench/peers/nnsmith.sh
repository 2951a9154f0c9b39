#!/usr/bin/env bash
# Arm "nnsmith": the NNSmith Relay generator GenCoG's repository carries (nnsmith/relay_gen.py: a
# random ONNX model made with PyTorch, converted by TVM's from_onnx), in GenCoG's own test loop:
# the repository has no loop that runs it on TVM, so patches/nnsmith.patch adds run_nnsmith.py,
# run_test.py with that generator in place of GenCoG's (32 operators, as its nnsmith_valid.py).
#   nnsmith.sh ARMDIR MINUTES SEED      (PEER_HOME: the GenCoG checkout; see gencog.sh)
PEERS_GENCOG_LOOP=run_nnsmith.py exec bash "$(dirname "$0")/gencog.sh" "$@"
