# tvm-server: the persistent oracle (interestingness/PROTOCOL.md): TVM imported once, a forked child
# per candidate path read on stdin, one answer a line; argument sets from PATH.args or a file.
"""tvm-server, the persistent oracle."""

import os
import sys

import relaykit_outcome

from .common import BadArguments, EXIT_USAGE, one_line
from .startup import import_tvm, reexec_with_relaykit_python
from .options import pass_spec
from .checks import CHECK, CHECK_NAMES
from .arguments import parse_args
from .child import run_in_child
from .verdicts import verdict
from .script import load_check, _not_importable, prepare


SERVER_USAGE = """usage: tvm-server CHECK [ARGS...]
       tvm-server --check SCRIPT.py [ARGS...]
       tvm-server --args-beside [COMMON OPTIONS...]
       tvm-server --args-from FILE [COMMON OPTIONS...]
CHECK is one of %s,
with the options of the script tvm-CHECK (tvm-server CHECK --help), without the candidate;
--check SCRIPT.py (the same as the CHECK check) runs check(mod) from the user's Python file:
tvm-server reads one candidate path a line on stdin and answers one line "STATUS[ SIGNATURE]"
on stdout for each (interestingness/PROTOCOL.md). Example:
  rreduce --server 'interestingness/tvm-server build --opt-level 3' bug.relay
With --args-beside, each candidate PATH brings its own check: the file PATH.args holds
CHECK [ARGS...] (or --check SCRIPT.py [ARGS...]), one argument a line (UTF-8; empty lines
are skipped); with --args-from FILE, FILE holds the check of every candidate. COMMON OPTIONS
(e.g. --timeout 60 -v) go right after the check's name, for every candidate. Relative paths
(SCRIPT.py, --params) are from the server's working directory. A missing or bad PATH.args is
answered "2 bad arguments: REASON" and the server goes on; a bad FILE stops it (exit 2).
""" % ", ".join(CHECK_NAMES)

ARGS_SUFFIX = ".args"  # --args-beside: the check of candidate PATH is in PATH.args
ARGS_CACHE = 256  # argument sets kept parsed (and user checks loaded) by --args-beside


def _absolute_paths(args):
    """Files named by the arguments, made absolute: the child runs in the candidate's folder."""
    for name in ("params", "script"):
        value = getattr(args, name, None)
        if value:
            setattr(args, name, os.path.abspath(value))
    return args


def _argparse_reason(text, code):
    """argparse's complaint ("usage: ...\nprog: error: MESSAGE") as one line: MESSAGE."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    for ln in reversed(lines):
        at = ln.find(": error: ")
        if at >= 0:
            return ln[at + len(": error: "):]
    if code == 0:  # --help, which printed the help and exited
        return "--help is not a check's argument"
    return lines[-1] if lines else "argument error (exit status %s)" % code


def server_args(argv):
    """The parsed arguments of `tvm-server CHECK ARGS...` (argv from CHECK on, --check SCRIPT
    allowed), the user's check not loaded yet; BadArguments when they are not usable. argparse's
    messages and exits are caught: nothing is printed, nothing exits."""
    import contextlib  # pylint: disable=import-outside-toplevel
    import io  # pylint: disable=import-outside-toplevel
    if not argv:
        raise BadArguments("no check named (an empty argument list)")
    if argv[0] == "--check":
        argv = ["check"] + list(argv[1:])
    if argv[0] not in CHECK:
        raise BadArguments("unknown check %r (%s, or --check SCRIPT.py)" % (argv[0], ", ".join(CHECK_NAMES)))
    said = io.StringIO()
    try:
        with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
            args = parse_args(argv[0], "tvm-server " + argv[0], list(argv[1:]), with_file=False)
    except SystemExit as e:
        raise BadArguments(_argparse_reason(said.getvalue(), e.code))
    except Exception as e:  # pylint: disable=broad-except  # whatever argparse or a type raises
        raise BadArguments("%s: %s" % (type(e).__name__, e))
    return _absolute_paths(args)


def read_args_file(path):
    """The bytes of an args file (the key of ArgSets' cache); BadArguments if it cannot be read."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except IOError as e:
        if not os.path.exists(path):
            raise BadArguments("%s: no such file" % path)
        raise BadArguments("%s: %s" % (path, e.strerror or e))
    return data


def split_args(data, path):
    """An args file's arguments: one a line, UTF-8 (a \\r before the \\n is dropped), empty lines
    skipped."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BadArguments("%s: not UTF-8" % path)
    lines = [ln[:-1] if ln.endswith("\r") else ln for ln in text.split("\n")]
    return [ln for ln in lines if ln]


class ArgSets(object):
    """Argument sets from args files, parsed (and the user's check loaded) once per distinct
    content; a bad one is remembered as its reason."""

    def __init__(self, common, limit=ARGS_CACHE):
        self.common, self.limit, self.cache = list(common), limit, {}

    def parse(self, data, path):
        """The args of an args file's content (the common options after the check's name)."""
        argv = split_args(data, path)
        if not argv:
            raise BadArguments("%s: empty (the first line names the check)" % path)
        args = server_args(argv[:1] + self.common + argv[1:])
        vet = CHECK[args.check].vet
        if vet:
            vet(args)
        why = load_check(args)
        if why:
            raise BadArguments(why)
        return args

    def get(self, data, path):
        """The args for an args file's content; BadArguments if unusable."""
        if data not in self.cache:
            try:
                entry = self.parse(data, path)
            except BadArguments as e:
                entry = e
            if len(self.cache) >= self.limit:
                del self.cache[next(iter(self.cache))]  # the oldest (dicts keep insertion order)
            self.cache[data] = entry
        entry = self.cache[data]
        if isinstance(entry, BadArguments):
            raise entry
        return entry


def main_server(script):
    """The persistent oracle: imports TVM once, forks a child per candidate."""
    reexec_with_relaykit_python(script)
    argv = sys.argv[1:]
    if not argv:
        sys.stderr.write(SERVER_USAGE)
        return EXIT_USAGE
    if argv[0] in ("-h", "--help"):
        sys.stdout.write(SERVER_USAGE)
        return 0
    beside, args_file, fixed = False, None, None
    if argv[0] == "--args-beside":  # each candidate's check in PATH.args
        beside, common = True, argv[1:]
    elif argv[0] == "--args-from":  # every candidate's check in FILE
        if len(argv) < 2:
            sys.stderr.write("tvm-server: --args-from needs a FILE\n%s" % SERVER_USAGE)
            return EXIT_USAGE
        args_file, common = argv[1], argv[2:]
    else:
        if argv[0] == "--check":  # tvm-server --check mycheck.py: the user's Python check
            argv = ["check"] + argv[1:]
        if argv[0] not in CHECK:
            sys.stderr.write("tvm-server: unknown check %r\n%s" % (argv[0], SERVER_USAGE))
            return EXIT_USAGE
        fixed = _absolute_paths(parse_args(argv[0], "tvm-server " + argv[0], argv[1:], with_file=False))
    sets = ArgSets(common) if fixed is None else None
    if args_file is not None:  # usage errors before TVM is imported, as on the command line
        try:
            data = read_args_file(args_file)
            argv = split_args(data, args_file)
            if not argv:
                raise BadArguments("%s: empty (the first line names the check)" % args_file)
            server_args(argv[:1] + sets.common + argv[1:])
        except BadArguments as e:
            sys.stderr.write("tvm-server: --args-from %s: bad arguments: %s\n" % (args_file, e))
            return EXIT_USAGE
    # stdout carries answers only: keep a private copy of it, point fd 1 at stderr for the rest.
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    why = import_tvm()
    if why:
        return _not_importable("tvm-server", why)
    if fixed is not None and not prepare(fixed, "tvm-server"):
        return EXIT_USAGE
    if args_file is not None:
        try:
            fixed = sets.get(data, args_file)
        except BadArguments as e:  # the user's check did not load
            sys.stderr.write("tvm-server: --args-from %s: bad arguments: %s\n" % (args_file, e))
            return EXIT_USAGE
    # the echo extension (PROTOCOL.md): each answer starts with its path and a tab
    echo = os.environ.pop("RELAYKIT_ORACLE_ECHO", "") == "1"
    coverage = relaykit_outcome.Coverage()  # the coverage extension: edges per candidate
    coverage.start()
    stdin = sys.stdin.buffer
    while True:
        line = stdin.readline()
        if not line:
            return 0
        path = line.decode("utf-8", "surrogateescape")
        if path.endswith("\n"):
            path = path[:-1]
        args = fixed
        if not path:
            status, sig = EXIT_USAGE, "empty path"
        elif not os.path.isfile(path):
            status, sig = EXIT_USAGE, "no such file"
        else:
            if beside:
                try:
                    side = path + ARGS_SUFFIX
                    args = sets.get(read_args_file(side), side)
                except BadArguments as e:
                    args = None
                    status, sig = EXIT_USAGE, one_line("bad arguments: %s" % e)
                    sys.stderr.write("tvm-server: %s: %s\n" % (path, sig))
                    sys.stderr.flush()
            if args is not None:
                try:
                    args = relaykit_outcome.with_pipeline(args, relaykit_outcome.read_pipeline(path), pass_spec)
                except relaykit_outcome.BadPipeline as e:
                    args = None
                    status, sig = EXIT_USAGE, one_line("bad pipeline: %s" % e)
                    sys.stderr.write("tvm-server: %s: %s\n" % (path, sig))
                    sys.stderr.flush()
            if args is not None:
                outcome = run_in_child(args, path, chdir=True, coverage=coverage)
                status, sig, explanation = verdict(args, outcome)
                relaykit_outcome.write_outcome(path, args, outcome, status, sig, coverage.field(outcome.edges))
                if args.verbose:
                    sys.stderr.write("%stvm-server: %s: %s\n" % (outcome.output, path, explanation))
                    sys.stderr.flush()
        try:
            answer = (("%d %s\n" % (status, sig)) if sig else ("%d\n" % status)).encode("utf-8", "replace")
            # the path goes back byte for byte, whatever its encoding
            answers.write(line.rstrip(b"\n") + b"\t" + answer if echo else answer)
            answers.flush()
        except BrokenPipeError:
            return 0
