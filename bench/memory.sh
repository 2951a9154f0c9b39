#!/usr/bin/env bash
# bench/memory.sh [BIN]: the memory each tool needs for inputs of different kinds of tokens (a chain
# of bindings, the same with a type comment on each line, one 10 MB comment, a million comments, a
# tuple of 500,000 elements, a 9 MB #[metadata] section): the smallest `ulimit -v` under which the
# tool ends as it does without a limit (to 2 %), and how it ends just below it.  With the memory
# estimate in place (parser/parse.c) that is "refused" (exit 1, the estimate's message): the
# estimate is at least what the tool needs.  "OUT OF MEMORY" there is a broken promise.  Give it
# a build without the estimate to measure what the tools really need (the numbers parse.c's
# costs come from).  About 20 minutes.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$root/bin}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf '#!/bin/sh\nexit 0\n' > "$dir/yes.sh"
chmod +x "$dir/yes.sh"
H='#[version = "0.0.5"]'
bash "$root/bench/chain.sh" 100000 > "$dir/chain.relay"
sed 's|;$| /* ty=Tensor[(1, 64), float32] */;|' "$dir/chain.relay" > "$dir/chain-ty.relay"
python3 -c "import sys; sys.stdout.write('$H\ndef @main() { 1f }\n/* ' + 'x' * (10 << 20) + ' */\n')" > "$dir/comment.relay"
python3 -c "import sys; sys.stdout.write('$H\ndef @main() {\n  (1f,\n' + '/* c */\n' * 1000000 + '  2f)\n}\n')" > "$dir/comments.relay"
python3 -c "import sys; sys.stdout.write('$H\ndef @main() { (' + '1f, ' * 500000 + ') }\n')" > "$dir/tuple.relay"
cp "$root/../shared/corpus/models/dqn.bound.fused.relay" "$dir/metadata.relay" 2>/dev/null

run() { # limit-kb tool file: the exit status, with the tool's stderr in $dir/err
  local args
  cp "$3" "$dir/in.relay"
  rm -rf "$dir/m"
  case $2 in
    rreduce) args="$dir/in.relay $dir/yes.sh" ;;
    rmutate) args="$dir/in.relay -n 1 -o $dir/m" ;;
    *) args="$dir/in.relay" ;;
  esac
  if [ "$1" = 0 ]; then bash -c "exec $bin/$2 $args" > /dev/null 2> "$dir/err"
  else bash -c "ulimit -v $1; exec $bin/$2 $args" > /dev/null 2> "$dir/err"; fi
  echo $?
}

printf '%-14s %-8s %8s %9s  %s\n' input tool tokens 'needs MB' 'just below'
for f in chain chain-ty comment comments tuple metadata; do
  [ -f "$dir/$f.relay" ] || continue
  tokens=$(python3 - "$dir/$f.relay" <<'EOF'
import re, sys
t = open(sys.argv[1], encoding='utf-8', errors='replace').read()
t = t.split('\n#[metadata]')[0]
t = re.sub(r'/\*.*?\*/|//[^\n]*|"(?:[^"\\]|\\.)*"', ' c ', t, flags=re.S)  # nesting aside
print(len(re.findall(r'[%@]?[A-Za-z0-9_/]+|\S', t)))
EOF
)
  for tool in rfmt rcheck rreduce rmutate; do
    want=$(run 0 $tool "$dir/$f.relay")
    lo=8000 hi=16000000
    while [ $((hi - lo)) -gt $((lo / 50 + 1000)) ]; do
      mid=$(((lo + hi) / 2))
      if [ "$(run $mid $tool "$dir/$f.relay")" = "$want" ] && ! grep -q "MB of memory\|out of memory" "$dir/err"; then hi=$mid; else lo=$mid; fi
    done
    rc=$(run $lo $tool "$dir/$f.relay")
    if grep -q "MB of memory to" "$dir/err"; then below="refused (exit $rc): $(grep -o 'needs about [0-9]* MB' "$dir/err")"
    elif grep -q "out of memory" "$dir/err"; then below="OUT OF MEMORY (exit $rc)"
    else below="exit $rc"; fi
    printf '%-14s %-8s %8d %9d  %s\n' $f $tool "$tokens" $((hi / 1024)) "$below"
  done
done
