# Shared by the CLI tests that stop a tool with a signal (load signal_helpers).

# stop_with SIG PID: sends SIG to PID, waits at most 30 s for it to end (a tool that does not stop
# fails the test instead of hanging it), and sets rc to its exit status.
stop_with() {
  kill -"$1" "$2"
  for _ in $(seq 300); do kill -0 "$2" 2> /dev/null || break; sleep 0.1; done
  if kill -0 "$2" 2> /dev/null; then
    echo "SIG$1: still running after 30 s"
    kill -9 "$2"
    return 1
  fi
  rc=0
  wait "$2" || rc=$?
  echo "SIG$1: exit $rc"
}
