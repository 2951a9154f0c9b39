#!/usr/bin/env bash
# bench/chain.sh N [softmax]: prints a well-typed Relay module whose @main is a chain of N bindings
# (dense, elementwise and binary operators reading the previous 20 values), deterministically.  The
# models in the corpus stop at 600 lines; this is the 50,000-line model the scaling numbers use.
# With `softmax`, binding N/2 is nn.softmax of the one before it: the "one interesting call in the
# middle" reduction whose test count should grow with log(N).
set -euo pipefail
awk -v n="${1:-50000}" -v mid="$([[ ${2:-} == softmax ]] && echo $((${1:-50000} / 2)) || echo -1)" 'BEGIN {
  split("nn.relu tanh sigmoid exp negative", un, " ")
  split("add multiply subtract maximum", bin, " ")
  seed = 1
  print "#[version = \"0.0.5\"]"
  print "def @main(%x: Tensor[(1, 64), float32], %w: Tensor[(64, 64), float32]) {"
  print "  %0 = nn.dense(%x, %w);"
  for (i = 1; i < n; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648; r = seed % 100
    if (i == mid) printf "  %%%d = nn.softmax(%%%d);\n", i, i - 1
    else if (r < 40) printf "  %%%d = %s(%%%d);\n", i, un[1 + seed % 5], i - 1
    else if (r < 90) { back = i - 1 - (seed % (i < 20 ? i : 20)); printf "  %%%d = %s(%%%d, %%%d);\n", i, bin[1 + seed % 4], i - 1, back }
    else printf "  %%%d = nn.dense(%%%d, %%w);\n", i, i - 1
  }
  printf "  %%%d\n}\n", n - 1
}'
