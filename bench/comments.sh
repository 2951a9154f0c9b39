#!/usr/bin/env bash
# bench/comments.sh [BIN]: time against the number of comments in one node (issue 29): a tuple
# holding one run of N comments (N = 80k to 640k), and a tuple of N elements each followed by a
# comment (N = 20k to 160k); rcheck and rfmt on each.  Comments are attached in one ordered pass, so
# doubling the comments should at most about double the time: the last column is the time
# against the row with half as many comments (2.0 is linear; the lookup per comment from the
# root that there was gave 4).  Times are processor seconds (user + system, the best of three),
# which a busy machine disturbs less than the clock.  Exits 1 when a ratio is over 3 (a
# quadratic step is back); rows after one under 0.1 s are too small to compare and not judged.
set -euo pipefail
bin=${1:-$(cd "$(dirname "$0")/.." && pwd)/bin}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
H='#[version = "0.0.5"]'

gen() { # NAME N: the input
  case $1 in
    spread) python3 -c "import sys; sys.stdout.write('$H\ndef @main() {\n  (' + '1f, /* c */\n' * $2 + ')\n}\n')" ;;
    run) python3 -c "import sys; sys.stdout.write('$H\ndef @main() {\n  (1f,\n' + '/* c */\n' * $2 + '  2f)\n}\n')" ;;
  esac > "$dir/in.relay"
}

seconds() { # command...: the best of three processor times; fails when the command does
  local best=999 t
  for _ in 1 2 3; do
    /usr/bin/time -f '%U + %S' -o "$dir/time" "$@" > /dev/null 2>&1 || return 1
    t=$(tail -1 "$dir/time" | bc)
    best=$(echo "if ($t < $best) $t else $best" | bc)
  done
  echo "$best"
}

printf '%-8s %-7s %8s %9s %9s\n' shape tool comments seconds ratio
bad=0
for shape in run spread; do
  for tool in rcheck rfmt; do
    prev=
    sizes="20000 40000 80000 160000"
    [ $shape = run ] && sizes="80000 160000 320000 640000"
    for n in $sizes; do
      gen $shape $n
      t=$(seconds "$bin/$tool" "$dir/in.relay") || { echo "$tool fails on $shape $n"; bad=1; continue; }
      ratio=-
      if [ -n "$prev" ] && [ "$(echo "$prev >= 0.1" | bc)" = 1 ]; then
        ratio=$(echo "scale=2; $t / $prev" | bc)
        [ "$(echo "$ratio > 3" | bc)" = 1 ] && bad=1
      fi
      printf '%-8s %-7s %8d %9.2f %9s\n' $shape $tool $n "$t" "$ratio"
      prev=$t
    done
  done
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
[ $bad -eq 0 ]
