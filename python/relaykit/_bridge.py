# Run by rreduce as its oracle server (`--server`): joins the server's stdin and stdout to the
# Unix socket of the Python session that answers (relaykit.reduce), so the user's check runs in
# the user's process, with TVM imported once. Only the standard library: it starts in
# milliseconds, each time rreduce starts (or restarts) a server.
"""python3 _bridge.py SOCKET: a byte pipe between this process's stdin/stdout and SOCKET."""

import os
import select
import socket
import sys


def main(path):
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(path)
    except OSError as e:
        sys.stderr.write("relaykit bridge: cannot reach the Python session at %s: %s\n" % (path, e))
        return 2
    reading = True
    while True:
        ready, _, _ = select.select([conn] + ([0] if reading else []), [], [])
        if 0 in ready:
            data = os.read(0, 65536)
            if data:
                conn.sendall(data)
            else:  # rreduce has no more requests: the session ends this connection
                conn.shutdown(socket.SHUT_WR)
                reading = False
        if conn in ready:
            data = conn.recv(65536)
            if not data:
                return 0
            try:
                while data:
                    data = data[os.write(1, data):]
            except OSError:  # rreduce went away
                return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
