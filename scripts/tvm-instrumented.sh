#!/usr/bin/env bash
# Build a TVM whose code coverage relaykit can see, from a TVM source tree the user already has
# (issue 32). It downloads nothing and writes only into BUILD. Two kinds of instrumentation, both
# from clang (Debian's clang-14; its llvm-profdata and llvm-cov read the second):
#
#   feedback     SanitizerCoverage's inline 8-bit edge counters and PC table
#                (-fsanitize-coverage=inline-8bit-counters,pc-table), handed at load time to
#                relaykit's coverage runtime, BUILD/librelaykit_cov.so (interestingness/coverage/
#                runtime.c, built here and linked into libtvm), which tvm-server reads per
#                candidate (RELAYKIT_COVERAGE=1; interestingness/PROTOCOL.md, "coverage");
#   measurement  clang's source-based coverage (-fprofile-instr-generate -fcoverage-mapping):
#                every process writes its counts where LLVM_PROFILE_FILE says (use %m to merge
#                them online: bench/coverage.sh does), read by `llvm-profdata merge` and
#                `llvm-cov report --show-branch-summary`. Set LLVM_PROFILE_FILE=/dev/null when
#                not measuring, or each process leaves a default.profraw in its directory.
#                Every module also gets BUILD/relaykit_profile_flush.o (interestingness/coverage/
#                profile_flush.c): tvm-server's child per candidate ends with _exit, which writes
#                no profile, and calls it first (when LLVM_PROFILE_FILE is set).
#
#   scripts/tvm-instrumented.sh [--llvm-config PATH] [--jobs N] SRC BUILD
#
# Afterwards: export TVM_HOME=SRC TVM_LIBRARY_PATH=BUILD (and RELAYKIT_PYTHON, as for any TVM).
# It takes longer than a plain build (scripts/tvm-build.sh): over two hours on 2 cores.
set -euo pipefail
usage() { sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-2}"; }
LLVM_CONFIG="" JOBS=$(nproc)
while [ $# -gt 0 ]; do
  case $1 in
  --llvm-config) LLVM_CONFIG=$2; shift 2 ;;
  --jobs) JOBS=$2; shift 2 ;;
  -h | --help) usage 0 ;;
  -*) echo "tvm-instrumented.sh: unknown option $1" >&2; usage ;;
  *) break ;;
  esac
done
[ $# -eq 2 ] || usage
HERE=$(cd "$(dirname "$0")/.." && pwd)
SRC=$(cd "$1" && pwd) BUILD=$2
for f in CMakeLists.txt 3rdparty/dmlc-core/CMakeLists.txt 3rdparty/dlpack/include/dlpack/dlpack.h; do
  [ -e "$SRC/$f" ] || { echo "tvm-instrumented.sh: $SRC/$f is missing: SRC must be a TVM source tree with its submodules" >&2; exit 2; }
done
CC=$(command -v clang-14 || command -v clang || true)
CXX=$(command -v clang++-14 || command -v clang++ || true)
[ -n "$CC" ] && [ -n "$CXX" ] || { echo "tvm-instrumented.sh: clang is needed (apt-get install clang)" >&2; exit 2; }
command -v cmake > /dev/null || { echo "tvm-instrumented.sh: cmake is needed (apt-get install cmake)" >&2; exit 2; }
if [ -z "$LLVM_CONFIG" ]; then
  LLVM_CONFIG=$(ls /usr/bin/llvm-config-* 2>/dev/null | sort -t- -k3 -n | tail -1 || true)
  [ -n "$LLVM_CONFIG" ] || { echo "tvm-instrumented.sh: no llvm-config-N found (apt-get install llvm-15-dev)" >&2; exit 2; }
fi
mkdir -p "$BUILD"
BUILD=$(cd "$BUILD" && pwd)
# the runtime first: libtvm is linked with it (SanitizerCoverage calls it when libtvm is loaded)
"$CC" -O2 -fPIC -shared -Wall -Wextra -Werror -o "$BUILD/librelaykit_cov.so" "$HERE/interestingness/coverage/runtime.c"
"$CC" -O2 -fPIC -Wall -Wextra -Werror -c -o "$BUILD/relaykit_profile_flush.o" "$HERE/interestingness/coverage/profile_flush.c"
FLAGS="-fsanitize-coverage=inline-8bit-counters,pc-table -fprofile-instr-generate -fcoverage-mapping"
LINK="-fprofile-instr-generate $BUILD/relaykit_profile_flush.o -L$BUILD -lrelaykit_cov -Wl,-rpath,$BUILD"
GEN=()
command -v ninja > /dev/null && GEN=(-G Ninja)
cmake -S "$SRC" -B "$BUILD" "${GEN[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
  -DCMAKE_C_FLAGS="$FLAGS" -DCMAKE_CXX_FLAGS="$FLAGS" \
  -DCMAKE_SHARED_LINKER_FLAGS="$LINK" -DCMAKE_EXE_LINKER_FLAGS="$LINK" \
  -DUSE_LLVM="$LLVM_CONFIG" -DUSE_LIBBACKTRACE=COMPILE -DBACKTRACE_ON_SEGFAULT=ON -DUSE_MICRO=OFF \
  -DUSE_GRAPH_EXECUTOR=ON -DUSE_PROFILER=ON -DUSE_RPC=ON
LLVM_PROFILE_FILE=/dev/null nice cmake --build "$BUILD" -j "$JOBS"
echo "tvm-instrumented.sh: done. export TVM_HOME=$SRC TVM_LIBRARY_PATH=$BUILD"
