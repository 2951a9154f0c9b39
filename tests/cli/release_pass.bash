# tests/run.sh runs tests/cli twice: with the release build, then with the ASan+UBSan build
# (RELAYKIT_SAN=1, RFMT in build/san/bin). A test that runs none of the build's programs (the TVM
# scripts with the fake TVM, fresh-check, the grammar's bindings, installing) calls this first:
# in the second pass it would only run again what the first ran.
release_pass_only() {
  [ -z "${RELAYKIT_SAN:-}" ] || skip "runs nothing of the sanitizer build: the release pass ran it"
}
