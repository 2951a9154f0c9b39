#!/usr/bin/env bats
# relaykit_outcome.cpp_frames: the frames that name where a TVM failure is, innermost first,
# without the error machinery's, whether libbacktrace demangled them or (a name it cut) not.

load release_pass

setup() {
  release_pass_only
  ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
}

frames() {
  python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import relaykit_outcome
print(" | ".join(relaykit_outcome.cpp_frames(sys.stdin.read())))' "$ROOT/interestingness"
}

@test "cpp_frames: the machinery's frames are skipped, demangled or mangled and cut" {
  run frames <<'EOF'
Traceback (most recent call last):
  5: TVMFuncCall
  4: _ZN3tvm7runtime13PackedFun
  3: tvm::relay::qnn::QnnMulCanonicalize(tvm::Attrs const&)
  2: tvm::relay::qnn::GetFloatVectorFromConstant(tvm::RelayExpr const&)
  1: _ZN3tvm7runtime6detail8LogFata
  0: tvm::runtime::Backtrace[abi:cxx11]()
EOF
  [ "$status" -eq 0 ]
  [ "$output" = "tvm::relay::qnn::GetFloatVectorFromConstant | tvm::relay::qnn::QnnMulCanonicalize" ]
}

@test "cpp_frames: a mangled frame of TVM's own code is kept (only the machinery's are dropped)" {
  run frames <<'EOF'
  2: tvm::relay::FoldConstant(tvm::RelayExpr const&)
  1: _ZN3tvm5relay12ConstantFold
  0: tvm::runtime::detail::LogFatal::Entry::Finalize()
EOF
  [ "$status" -eq 0 ]
  [ "$output" = "_ZN3tvm5relay12ConstantFold | tvm::relay::FoldConstant" ]
}
