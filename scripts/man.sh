#!/usr/bin/env bash
# Writes a man page for one of relaykit's programs from its own --help (the one source of its
# documentation): man.sh PROGRAM > PROGRAM.1, rcheck beside it or in $RELAYKIT_BIN for the
# version.  make install runs it for every program and TVM test.
set -eu
prog=$1
name=$(basename "$prog")
case $name in
  rfmt) what="format Relay text as TVM prints it, or join modules" ;;
  rcheck) what="parse and type-check Relay text as TVM's InferType does" ;;
  rgen) what="generate random well-typed Relay programs" ;;
  rreduce) what="shrink a Relay program while an interestingness test keeps failing" ;;
  rmutate) what="write well-typed mutants of a Relay program" ;;
  rfuzz) what="run a fuzzing campaign that finds, groups and reduces TVM bugs" ;;
  roracle) what="run a test on many Relay programs and group the failures by signature" ;;
  tvm-parse) what="interesting when TVM's parser rejects or crashes on a Relay file" ;;
  tvm-typecheck) what="interesting when TVM's type inference fails on a Relay file" ;;
  tvm-build) what="interesting when relay.build (or running the result) fails" ;;
  tvm-pass) what="interesting when a sequence of TVM passes fails" ;;
  tvm-diff) what="interesting when TVM configurations compute different results" ;;
  tvm-roundtrip) what="interesting when TVM cannot read back its own printing" ;;
  tvm-check) what="interesting when a user's Python check(mod) finds the bug" ;;
  tvm-bisect) what="name the first TVM pass after which the module is broken or fails" ;;
  tvm-server) what="oracle server for rreduce --server: TVM imported once, a fork per candidate" ;;
  server-adapter) what="oracle server that runs an ordinary test script per candidate" ;;
  *) echo "man.sh: no description for $name" >&2; exit 2 ;;
esac
help=$("$prog" --help 2>&1)
version=$("${RELAYKIT_BIN:-$(dirname "$prog")}/rcheck" --version | grep -o 'relaykit) [0-9][0-9.]*' | cut -d' ' -f2)
# roff: a backslash is \e, and a line starting with . or ' would be a request
escape() { sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/"; }
upper=$(tr '[:lower:]' '[:upper:]' <<<"$name")
# the usage lines open the help (argparse wraps them onto indented lines): the synopsis
usage_lines=$(awk 'NR == 1 || (u && /^ /) { if ($0 ~ /^usage:/ || $0 ~ /^ /) { u = 1; print; next } } { exit }' <<<"$help")
n=$(wc -l <<<"$usage_lines")
cat <<ROFF
.TH $upper 1 "" "relaykit $version" "relaykit manual"
.SH NAME
$name \\- $(escape <<<"$what")
.SH SYNOPSIS
.nf
$(sed -e 's/^usage: *//' -e 's/^ *//' -e "/^$name/!s/^/    /" <<<"$usage_lines" | escape)
.fi
.SH DESCRIPTION
.nf
$(tail -n +$((n + 1)) <<<"$help" | sed '/./,$!d' | escape)
.fi
.SH SEE ALSO
rfmt(1), rcheck(1), rgen(1), rreduce(1), rmutate(1), roracle(1), rfuzz(1), and the README of relaykit.
ROFF
