#!/usr/bin/env bash
# Build a TVM that relaykit's TVM scripts can use, from a TVM source tree the user already has
# (a checkout of a release tag with its submodules: 3rdparty/dmlc-core, dlpack, rang, and
# libbacktrace for C++ backtraces). It downloads nothing and writes only into BUILD.
#
#   scripts/tvm-build.sh [options] SRC BUILD
#     --llvm-config PATH   the LLVM TVM generates code with (default: the newest llvm-config-N)
#     --jobs N             parallel compile jobs (default: the number of cores)
#     --no-backtrace       leave libbacktrace out (C++ frames are then addresses only); with it, a
#                          segfault prints its backtrace too (BACKTRACE_ON_SEGFAULT), so crashes
#                          can be told apart by their frames (rfuzz's triage)
#
# Afterwards:  export TVM_HOME=SRC TVM_LIBRARY_PATH=BUILD; make check-tvm
# (TVM's Python package is read from SRC/python; its Python dependencies are Debian packages:
# `bash scripts/deps.sh --tvm` installs them and the build's tools). A build takes over an hour
# on 2 cores.
set -euo pipefail
usage() { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-2}"; }
LLVM_CONFIG="" JOBS=$(nproc) BACKTRACE=COMPILE
while [ $# -gt 0 ]; do
  case $1 in
  --llvm-config) LLVM_CONFIG=$2; shift 2 ;;
  --jobs) JOBS=$2; shift 2 ;;
  --no-backtrace) BACKTRACE=OFF; shift ;;
  -h | --help) usage 0 ;;
  -*) echo "tvm-build.sh: unknown option $1" >&2; usage ;;
  *) break ;;
  esac
done
[ $# -eq 2 ] || usage
SRC=$(cd "$1" && pwd) BUILD=$2
for f in CMakeLists.txt 3rdparty/dmlc-core/CMakeLists.txt 3rdparty/dlpack/include/dlpack/dlpack.h; do
  [ -e "$SRC/$f" ] || { echo "tvm-build.sh: $SRC/$f is missing: SRC must be a TVM source tree with its submodules" >&2; exit 2; }
done
if [ "$BACKTRACE" = COMPILE ] && [ ! -e "$SRC/3rdparty/libbacktrace/configure" ]; then
  echo "tvm-build.sh: no 3rdparty/libbacktrace in $SRC: building without C++ backtraces" >&2
  BACKTRACE=OFF
fi
command -v cmake > /dev/null || { echo "tvm-build.sh: cmake is needed (apt-get install cmake)" >&2; exit 2; }
if [ -z "$LLVM_CONFIG" ]; then
  LLVM_CONFIG=$(ls /usr/bin/llvm-config-* 2>/dev/null | sort -t- -k3 -n | tail -1 || true)
  [ -n "$LLVM_CONFIG" ] || { echo "tvm-build.sh: no llvm-config-N found (apt-get install llvm-15-dev)" >&2; exit 2; }
fi
mkdir -p "$BUILD"
BUILD=$(cd "$BUILD" && pwd)
GEN=()
command -v ninja > /dev/null && GEN=(-G Ninja)
cmake -S "$SRC" -B "$BUILD" "${GEN[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DUSE_LLVM="$LLVM_CONFIG" -DUSE_LIBBACKTRACE="$BACKTRACE" -DUSE_MICRO=OFF \
  -DBACKTRACE_ON_SEGFAULT="$([ "$BACKTRACE" = OFF ] && echo OFF || echo ON)" \
  -DUSE_GRAPH_EXECUTOR=ON -DUSE_PROFILER=ON -DUSE_RPC=ON
nice cmake --build "$BUILD" -j "$JOBS"
echo "tvm-build.sh: done. export TVM_HOME=$SRC TVM_LIBRARY_PATH=$BUILD"
