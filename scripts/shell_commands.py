"""Which words of a bash (or bats) text are run as commands: scripts/fresh-check's reader.

A word is a command only where bash would run it: the first word of a simple command (after
assignments and redirections), past the wrappers that run their arguments (`run`, `timeout 5`,
`env X=1`, `nice -n 10`, `xargs -n1`, ...), inside `$(...)`, backticks, `<(...)`, `bash -c '...'`,
`trap '...'`, `eval`, and in the scripts a test writes (a heredoc or a printf'd string that starts
with a shell `#!`).  Everything else is data: strings given to echo or printf, heredocs of Relay
text, Slurm output, comments, `case` patterns, `for` lists, arrays, `[[ ]]` operands.

What it cannot tell (the first word of a quoted string handed to a program that may run it as a
command, such as `rreduce FILE 'grep -q x'`, or a heredoc that is not a script) comes back as a
*maybe*, for fresh-check to mention without failing.

  scan(text) -> Scan: .commands [(name, line)], .files [(path word, line, how, args)], .maybe
  [(name, line)], .python [(code, line)], .functions {name}, .make_goals [(goal, line)],
  .lookups {name}, .installs [(text, line)]
"""
import re

KEYWORDS_BEFORE_COMMAND = {"if", "then", "elif", "else", "while", "until", "do", "!", "{", "time"}
KEYWORDS_AFTER = {"fi", "done", "esac", "}", "]]"}
# bash builtins: never a package's command, even where a binary of that name exists (kill, test).
BUILTINS = {"alias", "bg", "bind", "break", "builtin", "caller", "cd", "command", "compgen",
            "complete", "continue", "declare", "dirs", "disown", "echo", "enable", "eval", "exec",
            "exit", "export", "false", "fc", "fg", "getopts", "hash", "help", "history", "jobs",
            "kill", "let", "local", "logout", "mapfile", "popd", "printf", "pushd", "pwd", "read",
            "readarray", "readonly", "return", "set", "shift", "shopt", "source", "suspend", "test",
            "times", "trap", "true", "type", "typeset", "ulimit", "umask", "unalias", "unset", "wait",
            ".", ":", "[", "[[", "]]", "function", "coproc", "select", "case", "for", "in", "esac",
            # bats' own
            "run", "load", "skip", "bats_load_library", "setup", "teardown", "fail"}
# Programs that run their arguments as a command, and how many words (or which options) to skip
# before it.  A number: that many positional words after the options; options are skipped, and
# those in the set take a value.
WRAPPERS = {
    "run": (0, set()), "!": (0, set()), "time": (0, {"-f", "--format", "-o", "--output"}),
    "exec": (0, {"-a"}), "nohup": (0, set()), "setsid": (0, set()), "stdbuf": (0, set()),
    "nice": (0, {"-n", "--adjustment"}), "ionice": (0, {"-c", "-n", "-p"}),
    "timeout": (1, {"-s", "--signal", "-k", "--kill-after"}), "taskset": (1, set()),
    "chrt": (1, set()), "xargs": (0, {"-n", "-I", "-i", "-P", "-d", "-L", "-s", "-E", "-a"}),
    "env": (0, {"-u", "--unset", "-C", "--chdir", "-S"}), "sudo": (0, {"-u", "-g"}),
    "flock": (1, {"-w", "-E", "--timeout"}), "unshare": (0, set()), "prlimit": (0, set()),
    "strace": (0, {"-o", "-e", "-p"}), "valgrind": (0, set()), "catchsegv": (0, set()),
    "builtin": (0, set()), "eatmydata": (0, set()), "faketime": (1, set()),
}
# Commands that only look a name up: `command -v X` runs nothing (X is then optional).
LOOKUPS = {"command", "type", "which", "hash"}
SHELLS = {"bash", "sh", "dash"}
PYTHONS = re.compile(r"^python3?(\.\d+)?$")
# Programs whose string arguments are plainly data: their first word is never a command.
DATA_SINKS = {"echo", "printf", "grep", "egrep", "fgrep", "sed", "awk", "test", "[", "[[", "local",
              "export", "declare", "readonly", "skip", "fail", "cat", "tr", "cut", "sort", "head",
              "tail", "wc", "diff", "cmp", "jq", "assert", "refute", "assert_output", "assert_equal",
              "printf_", "true", "false", ":", "basename", "dirname", "mkdir", "rm", "cp", "mv",
              "touch", "ln", "chmod", "cd", "read", "return", "exit", "set", "unset", "trap",
              "python3", "column", "tee", "seq", "date", "mktemp", "sleep", "kill", "wait", "ls",
              "find", "stat", "realpath", "readlink", "case", "for", "in"}
SHEBANG_SHELL = re.compile(r"^#!\s*(/usr)?/bin/(env\s+)?(ba|da)?sh\b")
SHEBANG_PYTHON = re.compile(r"^#!\s*\S*(env\s+)?python")


class Word:
    __slots__ = ("text", "quoted", "line", "assign")

    def __init__(self, text, quoted, line, assign=False):
        self.text, self.quoted, self.line, self.assign = text, quoted, line, assign

    def __repr__(self):
        return f"Word({self.text!r}, quoted={self.quoted})"


class Scan:
    def __init__(self):
        self.commands, self.files, self.maybe, self.python = [], [], [], []
        self.functions, self.make_goals = set(), []
        self.lookups = set()  # names looked up (`command -v X`): what the text can do without
        self.installs = []  # (command text, line): packages installed by what runs


class _Lexer:
    """Tokens of one bash text: Word, or an operator string ('\\n', ';', '&&', '(', ...).  Command
    substitutions, process substitutions and backticks are scanned on the spot (their commands run)."""

    def __init__(self, text, line, scan):
        self.s, self.i, self.line, self.scan = text, 0, line, scan
        self.heredocs = []  # (delimiter, strip tabs, quoted, owning token list index)
        self.bodies = []  # (body, quoted, line of its first line, index of the token after <<)

    def peek(self, k=0):
        j = self.i + k
        return self.s[j] if j < len(self.s) else ""

    def tokens(self, stop_at_paren=False):
        toks = []
        depth = 0
        while self.i < len(self.s):
            c = self.peek()
            if c == "\\" and self.peek(1) == "\n":
                self.i += 2
                self.line += 1
                continue
            if c in " \t\r":
                self.i += 1
                continue
            if c == "#":
                while self.i < len(self.s) and self.peek() != "\n":
                    self.i += 1
                continue
            if c == "\n":
                self.i += 1
                self.line += 1
                toks.append(("\n", self.line - 1))
                self.read_heredoc_bodies(toks)
                continue
            if c == ")" and stop_at_paren and depth == 0:
                self.i += 1
                return toks
            op = self.operator()
            if op:
                if op in ("<<", "<<-"):
                    self.heredoc_start(op, toks)
                    continue
                if op == "((":
                    self.skip_balanced("(", ")", 2)
                    toks.append(("arith", self.line))
                    continue
                if op == "(":
                    depth += 1
                elif op == ")":
                    depth -= 1
                toks.append((op, self.line))
                continue
            toks.append(self.word())
        return toks

    OPERATORS = ["&&", "||", ";;&", ";;", ";&", "|&", "<<<", "<<-", "<<", ">>", "&>>", "&>", ">&",
                 "<&", ">|", "<>", "((", "|", "&", ";", "(", ")", "<", ">"]

    def operator(self):
        for op in self.OPERATORS:
            if self.s.startswith(op, self.i):
                if op in ("<", ">") and self.peek(1) == "(":
                    return None  # a process substitution: read as a word
                self.i += len(op)
                return op
        return None

    def heredoc_start(self, op, toks):
        while self.peek() in (" ", "\t"):
            self.i += 1
        w = self.word()
        delim = w.text
        self.heredocs.append((delim, op == "<<-", w.quoted, len(toks)))
        toks.append(("heredoc", self.line))

    def read_heredoc_bodies(self, toks):
        while self.heredocs:
            delim, strip, quoted, at = self.heredocs.pop(0)
            first = self.line
            lines = []
            while self.i < len(self.s):
                end = self.s.find("\n", self.i)
                end = len(self.s) if end < 0 else end
                raw = self.s[self.i:end]
                self.i = end + 1
                self.line += 1
                if (raw.lstrip("\t") if strip else raw) == delim:
                    break
                lines.append(raw)
            body = "\n".join(lines)
            if not quoted:  # $(...) in an unquoted heredoc runs when the heredoc is read
                for m in re.finditer(r"(?<!\\)\$\((?!\()", body):
                    sub = _Lexer(body[m.end():], first + body.count("\n", 0, m.start()), self.scan)
                    _commands(sub.tokens(stop_at_paren=True), self.scan)
                body = re.sub(r"\\([$`\\])", r"\1", body)  # the text the file gets
            toks[at] = ("heredoc", toks[at][1], body, quoted, first)

    def skip_balanced(self, open_, close, skip):
        self.i += skip
        depth = 1
        while self.i < len(self.s) and depth:
            c = self.peek()
            if c == "\n":
                self.line += 1
            depth += (c == open_) - (c == close)
            self.i += 1

    def substitution(self):
        """At the character after `$(`, `<(`, `>(`: its commands, scanned; returns the text."""
        start = self.i
        sub = _Lexer(self.s, self.line, self.scan)
        sub.i = self.i
        _commands(sub.tokens(stop_at_paren=True), self.scan)
        self.i, self.line = sub.i, sub.line
        return self.s[start:self.i - 1]

    def word(self):
        out, quoted, line, assign = [], False, self.line, False
        while self.i < len(self.s):
            c = self.peek()
            if c in " \t\r\n;&|<>" and not (c in "<>" and self.peek(1) == "("):
                break
            if c == "(" or c == ")":
                if c == "(" and out and "".join(out).endswith("=") and re.match(r"^[A-Za-z_]\w*\+?=$", "".join(out)):
                    self.array()  # name=(a b c): words, not commands
                    assign = True
                    continue
                break
            if c == "\\":
                out.append(self.peek(1))
                self.i += 2
            elif c == "'":
                quoted = True
                end = self.s.find("'", self.i + 1)
                end = len(self.s) if end < 0 else end
                text = self.s[self.i + 1:end]
                self.line += text.count("\n")
                out.append(text)
                self.i = end + 1
            elif c == '"':
                quoted = True
                self.i += 1
                out.append(self.double_quoted())
            elif c == "`":
                end = self.s.find("`", self.i + 1)
                end = len(self.s) if end < 0 else end
                _commands(_Lexer(self.s[self.i + 1:end], self.line, self.scan).tokens(), self.scan)
                out.append("$(...)")
                self.i = end + 1
            elif c == "$" and self.peek(1) == "(" and self.peek(2) == "(":
                self.skip_balanced("(", ")", 3)
                self.skip_balanced("(", ")", 0) if self.peek() == ")" else None
                out.append("$((...))")
            elif c == "$" and self.peek(1) == "(":
                self.i += 2
                out.append("$(" + self.substitution() + ")")
            elif c in "<>" and self.peek(1) == "(":
                self.i += 2
                self.substitution()
                out.append("/dev/fd/0")
            elif c == "$" and self.peek(1) == "{":
                j = self.s.find("}", self.i)
                j = len(self.s) if j < 0 else j
                out.append(self.s[self.i:j + 1])
                self.i = j + 1
            else:
                out.append(c)
                self.i += 1
        text = "".join(out)
        return Word(text, quoted, line, assign or bool(re.match(r"^[A-Za-z_]\w*\+?=", text)))

    def double_quoted(self):
        out = []
        while self.i < len(self.s):
            c = self.peek()
            if c == '"':
                self.i += 1
                break
            if c == "\\" and self.peek(1) in '"\\$`\n':
                out.append(self.peek(1))
                self.i += 2
                continue
            if c == "$" and self.peek(1) == "(" and self.peek(2) != "(":
                self.i += 2
                out.append("$(" + self.substitution() + ")")
                continue
            if c == "`":
                end = self.s.find("`", self.i + 1)
                end = len(self.s) if end < 0 else end
                _commands(_Lexer(self.s[self.i + 1:end], self.line, self.scan).tokens(), self.scan)
                self.i = end + 1
                continue
            if c == "\n":
                self.line += 1
            out.append(c)
            self.i += 1
        return "".join(out)

    def array(self):
        self.i += 1
        while self.i < len(self.s) and self.peek() != ")":
            c = self.peek()
            if c in " \t\r":
                self.i += 1
            elif c == "\n":
                self.line += 1
                self.i += 1
            else:
                self.word()
        self.i += 1


def _simple_commands(toks):
    """[(words, heredocs)] of the simple commands in TOKS (case patterns already taken out by
    _case_aware), with redirection targets, `for` lists, `[[ ]]` operands and keywords dropped and
    a function header `name ()` turned into ['function', name]."""
    out = []
    words, heredocs, redirect_next, state = [], [], False, None  # state: 'test', 'for-list'
    for tok in toks + [("\n", 0)]:
        if isinstance(tok, Word):
            if redirect_next:
                redirect_next = False
            elif state == "test":
                state = None if tok.text == "]]" and not tok.quoted else state
            elif state == "for-list":
                state = None if tok.text == "do" and not tok.quoted else state
            elif not words and not tok.quoted and tok.text in KEYWORDS_BEFORE_COMMAND | KEYWORDS_AFTER:
                pass
            elif not words and not tok.quoted and tok.text == "[[":
                state = "test"
            elif not words and not tok.quoted and tok.text in ("for", "select"):
                state = "for-list"
            else:
                words.append(tok)
            continue
        op = tok[0]
        if op == "heredoc":
            if len(tok) > 2:
                heredocs.append(tok)
            continue
        if op in ("<", ">", ">>", "&>", "&>>", ">&", "<&", ">|", "<>", "<<<"):
            redirect_next = True
            if words and re.fullmatch(r"\d+", words[-1].text) and not words[-1].quoted:
                words.pop()  # 2>&1: the 2 belongs to the redirection
            continue
        if op == "arith":
            continue
        if op == "(" and len(words) == 1 and not words[0].quoted:
            out.append(([Word("function", False, words[0].line), words[0]], []))
            words = []
            continue
        if op == ")" and len(words) == 0:
            continue
        if words or heredocs:
            out.append((words, heredocs))
        words, heredocs = [], []
    return out


def _case_aware(toks):
    """TOKS with each case pattern (the words before its `)`) removed, the rest kept."""
    out, i, in_case, expect_pattern = [], 0, 0, False
    while i < len(toks):
        t = toks[i]
        if isinstance(t, Word) and not t.quoted and t.text == "case" and _at_command_start(out):
            # case WORD in: keep nothing of it; the patterns come next
            j = i + 1
            while j < len(toks) and not (isinstance(toks[j], Word) and toks[j].text == "in"):
                j += 1
            i, in_case, expect_pattern = j + 1, in_case + 1, True
            out.append(("\n", t.line))
            continue
        if in_case and expect_pattern:
            if isinstance(t, Word) and t.text == "esac" and not t.quoted:
                in_case -= 1
                expect_pattern = False  # an enclosing case goes on with commands
                out.append(("\n", t.line))
                i += 1
                continue
            if not isinstance(t, Word) and t[0] == ")":
                expect_pattern = False
                out.append(("\n", t[1]))
            i += 1
            continue
        if in_case and not isinstance(t, Word) and t[0] in (";;", ";&", ";;&"):
            expect_pattern = True
            out.append(("\n", t[1]))
            i += 1
            continue
        if in_case and isinstance(t, Word) and t.text == "esac" and not t.quoted and _at_command_start(out):
            in_case -= 1
            out.append(("\n", t.line))
            i += 1
            continue
        out.append(t)
        i += 1
    return out


def _at_command_start(out):
    return not out or not isinstance(out[-1], Word)


def _commands(toks, scan):
    for words, heredocs in _simple_commands(_case_aware(toks)):
        _interpret(words, heredocs, scan)


def _interpret(words, heredocs, scan):
    """What one simple command runs."""
    while words and words[0].assign:
        words.pop(0)
    if not words:
        return
    if words[0].text == "function" and not words[0].quoted:
        if len(words) > 1:
            scan.functions.add(words[1].text)
        return
    cmd, args = _unwrap(words, scan)
    if cmd is None:
        return
    name, line = cmd.text, cmd.line
    base = name.rsplit("/", 1)[-1]
    argv = [a.text for a in args]
    if "/" in name or name.startswith("$"):
        scan.files.append((name, line, "run", argv))
    else:
        scan.commands.append((name, line))
    if base in ("apt-get", "apt", "aptitude") and "install" in argv:
        scan.installs.append((" ".join([name] + argv), line))
    if base in LOOKUPS:
        scan.lookups.update(a for a in argv if not a.startswith("-"))
        return  # `command -v X`: looks X up, runs nothing
    if base in SHELLS:
        _shell_args(args, heredocs, scan)
    elif PYTHONS.match(base):
        _python_args(args, heredocs, scan)
    elif base in ("source", ".", "load") or name == "bats":
        for a in args[:1] if base != "bats" else args:
            if not a.text.startswith("-"):
                scan.files.append((a.text, a.line, "load" if base == "load" else "source" if base != "bats" else "bats", []))
    elif base in ("trap", "eval"):
        code = [a for a in args if not a.text.startswith("-")][:1 if base == "trap" else None]
        for a in code:
            _commands(_Lexer(a.text, a.line, scan).tokens(), scan)
    elif base == "make" or name == "$(MAKE)":
        for a in args:
            if not a.text.startswith("-") and "=" not in a.text and not a.text.startswith("$"):
                scan.make_goals.append((a.text, a.line))
    # Strings that are scripts (a test writes its own interestingness test or stand-in).
    for a in args:
        _maybe_script(a.text.replace("\\n", "\n") if base == "printf" else a.text, a.line, scan)
    for h in heredocs:
        _, line, body, _, first = h
        if base in SHELLS or PYTHONS.match(base):
            continue  # read as their code above
        if not _maybe_script(body, first, scan):
            for n, l in enumerate(body.split("\n")):
                m = re.match(r"^\s*([a-z][a-z0-9_+.-]*)(\s|$)", l)
                if m:
                    scan.maybe.append((m.group(1), first + n))
    if base not in DATA_SINKS and base not in SHELLS and not PYTHONS.match(base):
        for a in args:
            if a.quoted and " " in a.text.strip():
                first = a.text.split()[0]
                if "/" in first:
                    scan.files.append((first, a.line, "run", a.text.split()[1:]))
                elif first in ("import", "from"):
                    pass  # Python code handed to a Python whose name is in a variable
                elif re.fullmatch(r"[a-z][a-z0-9_+.-]*", first):
                    scan.maybe.append((first, a.line))


def _maybe_script(text, line, scan):
    first = text.lstrip("\n").split("\n", 1)[0]
    if SHEBANG_SHELL.match(first):
        _commands(_Lexer(text, line, scan).tokens(), scan)
        return True
    if SHEBANG_PYTHON.match(first) or re.match(r"^(import|from) [\w.]+", first):
        scan.python.append((text, line))
        return True
    return False


def _shell_args(args, heredocs, scan):
    i = 0
    while i < len(args):
        a = args[i].text
        if a == "-c" and i + 1 < len(args):
            _commands(_Lexer(args[i + 1].text, args[i + 1].line, scan).tokens(), scan)
            return
        if a.startswith("-"):
            i += 1
            continue
        scan.files.append((a, args[i].line, "shell", [x.text for x in args[i + 1:]]))
        return
    for h in heredocs:  # bash <<EOF ... EOF
        _commands(_Lexer(h[2], h[4], scan).tokens(), scan)


def _python_args(args, heredocs, scan):
    i = 0
    while i < len(args):
        a = args[i].text
        if a in ("-c",) and i + 1 < len(args):
            scan.python.append((args[i + 1].text, args[i + 1].line))
            return
        if a == "-m" and i + 1 < len(args):
            scan.python.append((f"import {args[i + 1].text}", args[i].line))
            return
        if a == "-":
            break
        if a.startswith("-"):
            i += 1
            continue
        scan.files.append((a, args[i].line, "python", [x.text for x in args[i + 1:]]))
        return
    for h in heredocs:
        scan.python.append((h[2], h[4]))


def _unwrap(words, scan):
    """(the command word, its arguments) past the wrappers that run their arguments (each
    wrapper is a command run too: timeout, nice, env, xargs)."""
    i = 0
    while i < len(words):
        w = words[i]
        if w.assign:
            i += 1
            continue
        base = w.text.rsplit("/", 1)[-1]
        spec = WRAPPERS.get(base)
        if spec is None or w.quoted:
            return w, words[i + 1:]
        scan.commands.append((w.text, w.line))
        positional, with_value = spec
        i += 1
        # the wrapper's own options (and assignments, for env), then its positional words
        while i < len(words) and (words[i].text.startswith("-") or (base == "env" and words[i].assign)):
            if words[i].text == "--":
                i += 1
                break
            i += 2 if words[i].text in with_value else 1
        i += positional
        if base == "run" and i < len(words) and words[i].text == "!":
            i += 1
    return None, []


def scan(text, line=1):
    """The commands, project files, maybes and Python code that TEXT (bash) runs."""
    result = Scan()
    # bats' `@test "name" {` is a function header
    text = re.sub(r'^(\s*)@test\s+("(?:[^"\\]|\\.)*"|\'[^\']*\')\s*\{', r"\1_bats_test() {", text, flags=re.M)
    _commands(_Lexer(text, line, result).tokens(), result)
    return result
