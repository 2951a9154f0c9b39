#!/usr/bin/env bats
# The instrumented TVM's two halves, on a toy module built the way scripts/tvm-instrumented.sh
# builds TVM's (no TVM needed): the feedback's edge counters shared with a forked child
# (interestingness/coverage/runtime.c, read through relaykit_outcome.Coverage as tvm-server
# does), and the measurement's source-based counts written by a child that ends with _exit
# (interestingness/coverage/profile_flush.c, relaykit_outcome.flush_profiles).

load release_pass

setup() {
  release_pass_only
  ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
  T=$BATS_TEST_TMPDIR
  CC=$(command -v clang-14 || command -v clang || true)
  unset RELAYKIT_COVERAGE LLVM_PROFILE_FILE
}

# A module "libtvm_toy.so" with both instrumentations, linked as TVM's modules are.
build_toy() {
  [ -n "$CC" ] || skip "no clang (apt-get install clang)"
  cat > "$T/toy.c" <<'EOF'
int toy(int x) {
  if (x > 3) return x * 2;
  else if (x < -5) return -x;
  return 0;
}
EOF
  "$CC" -O2 -fPIC -shared -Wall -Wextra -Werror -o "$T/librelaykit_cov.so" "$ROOT/interestingness/coverage/runtime.c"
  "$CC" -O2 -fPIC -Wall -Wextra -Werror -c -o "$T/flush.o" "$ROOT/interestingness/coverage/profile_flush.c"
  "$CC" -O1 -fPIC -shared -fsanitize-coverage=inline-8bit-counters,pc-table -fprofile-instr-generate \
    -fcoverage-mapping "$T/toy.c" "$T/flush.o" -L"$T" -lrelaykit_cov -Wl,-rpath,"$T" -o "$T/libtvm_toy.so"
  # tvm-server's way: load, share the counters, then per candidate reset, fork, run, read
  cat > "$T/server.py" <<'EOF'
import ctypes, os, sys
sys.path.insert(0, sys.argv[1])
import relaykit_outcome
lib = ctypes.CDLL(sys.argv[2], ctypes.RTLD_GLOBAL)
cov = relaykit_outcome.Coverage()
cov.start()
print("total %d" % cov.total)
for x in map(int, sys.argv[3:]):
    cov.before()
    pid = os.fork()
    if pid == 0:
        lib.toy(x)
        if x == 99:
            os.kill(os.getpid(), 9)  # a crash: its edges must survive
        relaykit_outcome.flush_profiles()
        os._exit(0)
    os.waitpid(pid, 0)
    field = cov.field(cov.after(None))
    if field is None:
        print("%d: no coverage" % x)
        continue
    print("%d: %d edges, %d new" % (x, field["edges"], field["new"]))
    assert relaykit_outcome.encode_edges(cov.after(None)) == field["set"]
sys.stdout.flush()
os._exit(0)
EOF
}

@test "tvm-instrumented.sh: --help; a SRC that is not a TVM tree with its submodules is refused before anything is built" {
  run bash "$ROOT/scripts/tvm-instrumented.sh" --help
  [ "$status" -eq 0 ] && [[ "$output" == *"tvm-instrumented.sh [--llvm-config PATH] [--jobs N] SRC BUILD"* ]]
  mkdir "$T/src"
  run bash "$ROOT/scripts/tvm-instrumented.sh" "$T/src" "$T/build"
  [ "$status" -eq 2 ] && [[ "$output" == *"CMakeLists.txt is missing: SRC must be a TVM source tree"* ]]
  [ ! -e "$T/build" ]
  run bash "$ROOT/scripts/tvm-instrumented.sh" --bogus
  [ "$status" -eq 2 ] && [[ "$output" == *"unknown option --bogus"* ]]
}

@test "the coverage runtime: a forked child's edges reach the server, a crashed child's too; 'new' counts the unseen" {
  build_toy
  RELAYKIT_COVERAGE=1 run python3 "$T/server.py" "$ROOT/interestingness" "$T/libtvm_toy.so" 10 10 -10 0 99
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "total 4" ] # the toy's edges: entry, x > 3, x < -5, the rest
  [ "${lines[1]}" = "10: 2 edges, 2 new" ]
  [ "${lines[2]}" = "10: 2 edges, 0 new" ] # the counters were reset: the same edges, none new
  [ "${lines[3]}" = "-10: 2 edges, 1 new" ]
  [ "${lines[4]}" = "0: 2 edges, 1 new" ]
  [ "${lines[5]}" = "99: 2 edges, 0 new" ] # killed by SIGKILL, its edges read all the same
  # not asked for: no source, nothing read
  run python3 "$T/server.py" "$ROOT/interestingness" "$T/libtvm_toy.so" 10
  [ "${lines[0]}" = "total 0" ] && [ "${lines[1]}" = "10: no coverage" ]
}

@test "the measurement: children that end with _exit write their branch counts, merged online (%m)" {
  build_toy
  command -v llvm-profdata-14 > /dev/null || skip "no llvm-profdata-14 (apt-get install llvm-14)"
  LLVM_PROFILE_FILE="$T/prof/%m.profraw" run python3 "$T/server.py" "$ROOT/interestingness" "$T/libtvm_toy.so" 10 -10
  [ "$status" -eq 0 ] && [ "${lines[1]}" = "10: no coverage" ]
  [ "$(ls "$T/prof" | wc -l)" -eq 1 ] # one pool file for the module, both children merged into it
  llvm-profdata-14 merge -sparse "$T"/prof/*.profraw -o "$T/p.profdata"
  branches=$(llvm-cov-14 export -summary-only "$T/libtvm_toy.so" -instr-profile "$T/p.profdata" |
    python3 -c 'import json, sys; b = json.load(sys.stdin)["data"][0]["totals"]["branches"]; print(b["covered"], b["count"])')
  [ "$branches" = "3 4" ] # x > 3 both ways (10, -10), x < -5 taken (-10); never x in -5..3
  # without LLVM_PROFILE_FILE the children write nothing: the runtime's default.profraw (made
  # when the module loads) holds no branch taken
  mkdir "$T/cwd" && cd "$T/cwd"
  run python3 "$T/server.py" "$ROOT/interestingness" "$T/libtvm_toy.so" 10 -10
  [ "$status" -eq 0 ]
  if [ -s default.profraw ]; then
    llvm-profdata-14 merge -sparse default.profraw -o "$T/d.profdata"
    llvm-cov-14 export -summary-only "$T/libtvm_toy.so" -instr-profile "$T/d.profdata" |
      python3 -c 'import json, sys; assert json.load(sys.stdin)["data"][0]["totals"]["branches"]["covered"] == 0'
  fi
}
