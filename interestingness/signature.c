#include "signature.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "../support/pattern.h"
#include "../support/xalloc.h"

static bool is_space(char c) { return isspace((unsigned char)c) != 0; }
static bool is_word(char c) { return isalnum((unsigned char)c) || c == '_'; }
static bool is_digit(char c) { return isdigit((unsigned char)c) != 0; }
static bool is_hex(char c) { return isxdigit((unsigned char)c) != 0; }
/* Characters that may stand in a file name (a basename is masked only at a name's start). */
static bool is_name(char c) { return is_word(c) || c == '.' || c == '-' || c == '+'; }
/* Characters a /tmp/ path runs over: it ends at white space, quotes, brackets and separators. */
static bool is_path(char c) { return c && !is_space(c) && !strchr("\"'`()[]{}<>:,;|", c); }

static bool starts(const char *s, size_t n, const char *prefix) {
  size_t k = strlen(prefix);
  return n >= k && !memcmp(s, prefix, k);
}

/* The normalised line and its --match pattern, built in step; `kept` counts the normalised bytes. */
typedef struct Out {
  StrBuf *norm, *ere;
  size_t kept;
} Out;

static void put_literal(Out *o, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    bool printable = (unsigned char)c >= 0x20 && (unsigned char)c < 0x7f;
    if (o->norm) sb_putc(o->norm, printable ? c : '?');
    if (o->ere) {
      if (!printable) sb_putc(o->ere, '.');
      else {
        if (strchr("\\.[]()*+?{}|^$", c)) sb_putc(o->ere, '\\');
        sb_putc(o->ere, c);
      }
    }
  }
  o->kept += n;
}

static void put_mask(Out *o, const char *label, const char *pattern) {
  if (o->norm) sb_puts(o->norm, label);
  if (o->ere) sb_puts(o->ere, pattern);
  o->kept += strlen(label);
}

/* Length of the longest masked directory at s, or 0. */
static size_t dir_at(const char *s, size_t n, const RunSigMasks *m) {
  size_t best = 0;
  for (int k = 0; m && k < RUN_SIG_MAX_DIRS; k++) {
    const char *d = m->dirs[k];
    size_t dl = d ? strlen(d) : 0;
    while (dl > 1 && d[dl - 1] == '/') dl--;
    if (dl > best && n >= dl && !memcmp(s, d, dl)) best = dl;
  }
  return best;
}

/* A word (letters, digits, _): an address, a number, a hash, a number with a unit, or a name. */
static void put_word(Out *o, const char *w, size_t k) {
  size_t digits = 0, hex = 0;
  while (digits < k && is_digit(w[digits])) digits++;
  while (hex < k && is_hex(w[hex])) hex++;
  if (k > 2 && w[0] == '0' && (w[1] == 'x' || w[1] == 'X')) {
    size_t h = 2;
    while (h < k && is_hex(w[h])) h++;
    if (h == k) return put_mask(o, "<addr>", "0[xX][0-9a-fA-F]+");
  }
  if (digits == k) return put_mask(o, "<n>", "[0-9]+");
  if (hex == k && k >= 7) {
    for (size_t i = 0; i < k; i++)
      if (is_digit(w[i])) return put_mask(o, "<hex>", "[0-9a-fA-F]+");
  }
  if (digits) { /* 10ms, 224x224: the number goes, the unit stays */
    put_mask(o, "<n>", "[0-9]+");
    w += digits;
    k -= digits;
  }
  /* Inside a name, digits that number things (foo_1957, fused_add_3) or are long (a seed, an id)
     go; short ones that are part of the name (conv2d, int32, float16, x86_64) stay. */
  size_t start = 0;
  for (size_t i = 0; i < k;) {
    if (!is_digit(w[i])) {
      i++;
      continue;
    }
    size_t j = i;
    while (j < k && is_digit(w[j])) j++;
    bool numbering = i > 1 && w[i - 1] == '_' && !is_digit(w[i - 2]); /* add_3, not x86_64 */
    if (numbering || j - i >= 4) {
      put_literal(o, w + start, i - start);
      put_mask(o, "<n>", "[0-9]+");
      start = j;
    }
    i = j;
  }
  put_literal(o, w + start, k - start);
}

void run_signature_line(const char *s, size_t n, const RunSigMasks *m, StrBuf *norm, StrBuf *ere) {
  run_signature_line_cap(s, n, m, norm, ere, RUN_SIG_LINE_MAX);
}

void run_signature_line_cap(const char *s, size_t n, const RunSigMasks *m, StrBuf *norm, StrBuf *ere, size_t cap) {
  Out o = {norm, ere, 0};
  size_t i = 0;
  while (i < n && is_space(s[i])) i++;
  while (n > i && is_space(s[n - 1])) n--;
  const char *base = m && m->basename && *m->basename ? m->basename : NULL;
  while (i < n && o.kept < cap) {
    size_t k;
    if (is_space(s[i])) { /* one blank stays itself in the pattern (easier to read), a longer run does not */
      for (k = i; k < n && is_space(s[k]);) k++;
      put_mask(&o, " ", k - i == 1 && s[i] == ' ' ? " " : "[[:space:]]+");
      i = k;
    } else if ((k = dir_at(s + i, n - i, m))) {
      put_mask(&o, "<tmp>", ".+");
      i += k;
    } else if (base && starts(s + i, n - i, base) && (i == 0 || !is_name(s[i - 1]))) {
      put_mask(&o, "<file>", ".+");
      i += strlen(base);
    } else if (starts(s + i, n - i, "/tmp/")) {
      for (i += 5; i < n && is_path(s[i]);) i++;
      put_mask(&o, "<tmp>", "/tmp/[^[:space:]]*");
    } else if (is_word(s[i])) {
      /* a word is cut at the cap too: a megabyte-long one would otherwise become the signature
         and a megabyte-long pattern (a prefix still matches) */
      size_t room = cap - o.kept;
      for (k = i; k < n && k - i < room && is_word(s[k]);) k++;
      put_word(&o, s + i, k - i);
      i = k;
    } else {
      put_literal(&o, s + i, 1);
      i++;
    }
  }
}

/* ------------------------------------------------------------------ root-cause masks */

static bool word_in(const char *w, size_t k, const char *const *list) {
  for (; *list; list++)
    if (strlen(*list) == k && !memcmp(w, *list, k)) return true;
  return false;
}

/* A dtype's name as TVM prints it: bool, int8 ... uint64, float16 ... float64, bfloat16. */
static bool dtype_word(const char *w, size_t k) {
  static const char *const names[] = {"bool", "int1", "int4", "int8", "int16", "int32", "int64", "uint1", "uint4", "uint8",
                                      "uint16", "uint32", "uint64", "float8", "float16", "float32", "float64", "bfloat16",
                                      NULL};
  return word_in(w, k, names);
}

/* A name TVM generates for a fused or lowered function: one per program, never per cause. */
static bool generated_name(const char *w, size_t k) {
  static const char *const prefixes[] = {"fused_", "tvmgen_", "vm_mod_", "default_function", NULL};
  for (const char *const *p = prefixes; *p; p++)
    if (k >= strlen(*p) && !memcmp(w, *p, strlen(*p))) return true;
  for (size_t i = 0; i + 7 <= k; i++)
    if (!memcmp(w + i, "_fused_", 7)) return true;
  return false;
}

/* Where a list of masked numbers in brackets ends ("[<n>, <n>]", "(<n>)", "[]"), or 0.  A symbolic
   dimension counts as a number: TVM prints it "?" in types and "T.Any()" in TIR ("Cannot allocate
   memory symbolic tensor shape [T.Any(), T.Any()]" is one cause at every rank). */
static size_t shape_at(const char *s) {
  char close = s[0] == '[' ? ']' : s[0] == '(' ? ')' : 0;
  if (!close) return 0;
  size_t i = 1, items = 0;
  for (;;) {
    while (s[i] == ' ') i++;
    if (s[i] == close) return items || close == ']' ? i + 1 : 0;
    if (!strncmp(s + i, "<n>", 3)) i += 3;
    else if (s[i] == '?' || !strncmp(s + i, "<shape>", 7)) i += s[i] == '?' ? 1 : 7;
    else if (!strncmp(s + i, "T.Any()", 7)) i += 7;
    else return 0;
    items++;
    while (s[i] == ' ') i++;
    if (s[i] == ',') i++;
    else if (s[i] != close) return 0;
  }
}

/* Where a bracketed list of loop variables TVM names ("[i1]", "[i0, ax2]": letters then a short
   number) ends, or 0.  The same unbound-variable check names whichever loop it met. */
static size_t loop_vars_at(const char *s) {
  if (s[0] != '[') return 0;
  size_t i = 1, items = 0;
  for (;;) {
    size_t letters = 0, digits = 0;
    while (isalpha((unsigned char)s[i + letters]) || s[i + letters] == '_') letters++;
    while (is_digit(s[i + letters + digits])) digits++;
    if (!letters || !digits || letters > 3 || digits > 3 || dtype_word(s + i, letters + digits)) return 0;
    i += letters + digits;
    items++;
    if (s[i] == ']') return i + 1;
    if (s[i] != ',') return 0;
    for (i++; s[i] == ' ';) i++;
  }
}

void run_signature_root(const char *norm, StrBuf *out) {
  for (const char *p = norm; *p;) {
    size_t k;
    if ((k = shape_at(p))) {
      sb_puts(out, "<shape>");
      p += k;
    } else if ((k = loop_vars_at(p))) {
      sb_puts(out, "[<vars>]");
      p += k;
    } else if (is_word(*p)) {
      const char *w = p;
      while (is_word(*p) || !strncmp(p, "<n>", 3)) p += is_word(*p) ? 1 : 3;
      k = (size_t)(p - w);
      if (generated_name(w, k)) sb_puts(out, "<fn>");
      else if (dtype_word(w, k)) sb_puts(out, "<dtype>");
      else sb_putn(out, w, k);
    } else {
      sb_putc(out, *p++);
    }
  }
}

/* The name in a frame's text: arguments cut (not a leading "(anonymous namespace)"), trimmed. */
static bool frame_name(const char *p, const char *e, const char **name, size_t *name_len) {
  while (p < e && is_space(*p)) p++;
  for (const char *q = p; q < e; q++)
    if (*q == '(' && q > p && !starts(q, (size_t)(e - q), "(anonymous")) {
      e = q;
      break;
    }
  while (e > p && is_space(e[-1])) e--;
  if (e == p) return false;
  *name = p;
  *name_len = (size_t)(e - p);
  return true;
}

/* "(/lib/libc.so.6+0x29d90)" or "/lib/libtvm.so(f+0x1b)": the function, else the module's basename. */
static bool module_frame(const char *p, const char *e, const char **name, size_t *name_len) {
  const char *open = memchr(p, '(', (size_t)(e - p));
  if (open && open > p) { /* lib(f+0x1b) */
    const char *q = open + 1, *end = q;
    while (end < e && *end != '+' && *end != ')') end++;
    if (end > q) return frame_name(q, end, name, name_len);
    e = open;
  } else if (open) { /* (lib+0x29d90) */
    p = open + 1;
    const char *end = p;
    while (end < e && *end != '+' && *end != ')') end++;
    e = end;
  }
  for (const char *q = p; q < e; q++)
    if (*q == '/') p = q + 1;
  return frame_name(p, e, name, name_len);
}

bool run_signature_frame(const char *line, size_t n, bool in_trace, const char **name, size_t *name_len) {
  const char *p = line, *e = line + n;
  while (p < e && is_space(*p)) p++;
  while (e > p && is_space(e[-1])) e--;
  size_t rest = (size_t)(e - p);
  if (starts(p, rest, "File \"")) { /* Python: File "x.py", line 3, in f */
    for (const char *q = p; q + 5 <= e; q++)
      if (!memcmp(q, ", in ", 5)) return frame_name(q + 5, e, name, name_len);
    return false;
  }
  if (rest > 1 && p[0] == '#' && is_digit(p[1])) { /* gdb, ASan: #3 0x7f.. in f (args) file:line */
    const char *q = p + 1;
    while (q < e && is_digit(*q)) q++;
    if (q == e || !is_space(*q)) return false;
    while (q < e && is_space(*q)) q++;
    bool addr = starts(q, (size_t)(e - q), "0x");
    if (addr) {
      while (q < e && !is_space(*q)) q++;
      while (q < e && is_space(*q)) q++;
    }
    if (!addr && !in_trace) return false;
    if (starts(q, (size_t)(e - q), "in ")) q += 3;
    else if (q < e && *q == '(') return module_frame(q, e, name, name_len);
    while (q < e && is_space(*q)) q++;
    const char *end = q; /* the name runs to white space outside parentheses: f(int, float) */
    for (int depth = 0; end < e && (depth > 0 || !is_space(*end)); end++)
      depth += *end == '(' ? 1 : *end == ')' && depth > 0 ? -1 : 0;
    return frame_name(q, end, name, name_len);
  }
  if (starts(p, rest, "[bt] (")) { /* TVM's old traces: [bt] (3) /lib/libtvm.so(f+0x1b) [0x7f..] */
    const char *q = memchr(p + 6, ')', rest - 6);
    if (!q) return false;
    for (q++; q < e && is_space(*q);) q++;
    const char *end = e;
    for (const char *b = q; b + 1 < e; b++)
      if (b[0] == ' ' && b[1] == '[') {
        end = b;
        break;
      }
    return module_frame(q, end, name, name_len);
  }
  if (in_trace && is_digit(*p)) { /* TVM: 3: tvm::relay::f(...) */
    const char *q = p;
    while (q < e && is_digit(*q)) q++;
    if (q + 1 < e && q[0] == ':' && q[1] == ' ') return frame_name(q + 2, e, name, name_len);
  }
  return false;
}

static bool trace_header(const char *line, size_t n) {
  while (n && is_space(*line)) line++, n--;
  if (starts(line, n, "Traceback") || starts(line, n, "Backtrace")) return true;
  for (size_t i = 0; i < n; i++)
    if (starts(line + i, n - i, "Stack trace:") || starts(line + i, n - i, "Traceback (most recent call last)"))
      return true;
  return false;
}

static bool blank(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!is_space(s[i])) return false;
  return true;
}

/* The pattern must match the output the way rreduce --match runs it; else there is none. */
static char *checked(char *pattern, const char *out, size_t len) {
  char err[256];
  Pattern *re = pattern ? pattern_compile(pattern, err, sizeof err) : NULL;
  bool ok = re && pattern_search(re, out, len);
  pattern_free(re);
  if (!ok) free(pattern);
  return ok ? pattern : NULL;
}

/* Where "Check failed: CONDITION" starts in the line (TVM's ICHECK), or NULL: the last one, since
   TVM wraps a failed check in another ("Check failed: (false) is false: [12:00:01] f.h:414:
   InternalError: Check failed: (0 <= i) is false: ..."), whose time stamp says nothing. */
static const char *check_failed(const char *p, size_t n) {
  const char *last = NULL;
  for (size_t i = 0; i + 14 <= n; i++)
    if (!memcmp(p + i, "Check failed: ", 14) && !blank(p + i + 14, n - i - 14)) last = p + i;
  return last;
}

/* A diagnostic "error: ..." at the line's start (TVM's DiagnosticContext renders them so). */
static bool diagnostic(const char *p, size_t n) {
  while (n && is_space(*p)) p++, n--;
  return starts(p, n, "error: ") && n > 7;
}

/* "tvm.error.InternalError: message": where the class's last component starts, or NULL.  Not
   when the message is only a pointer elsewhere (a trace follows, or diagnostics were printed). */
static const char *exception_line(const char *p, size_t n) {
  const char *e = p + n, *q = p;
  while (q < e && is_space(*q)) q++;
  const char *cls = q;
  while (q < e && (is_word(*q) || *q == '.')) {
    if (*q == '.') cls = q + 1;
    q++;
  }
  size_t k = (size_t)(q - cls);
  bool named = (k > 5 && !memcmp(q - 5, "Error", 5)) || (k > 9 && !memcmp(q - 9, "Exception", 9));
  if (!named || e - q < 3 || q[0] != ':' || q[1] != ' ') return NULL;
  const char *msg = q + 2;
  if (starts(msg, (size_t)(e - msg), "Traceback")) return NULL;
  for (const char *r = msg; r + 19 <= e; r++)
    if (!memcmp(r, "diagnostics were em", 19)) return NULL;
  return cls;
}

/* A log line TVM prints on its way, not the failure: a warning ("One or more operators have not
   been tuned. Please tune your model ...", "[10:01:02] x.cc:12: Warning: ..."). */
static bool log_line(const char *p, size_t n) {
  static const char *const words[] = {"Warning: ", "WARNING:", "have not been tuned", NULL};
  for (const char *const *w = words; *w; w++)
    for (size_t i = 0, k = strlen(*w); i + k <= n; i++)
      if (!memcmp(p + i, *w, k)) return true;
  return false;
}

void run_signature(const char *out, size_t len, const RunSigMasks *m, RunSignature *s) {
  const char *first = NULL, *last = NULL, *top = NULL, *bottom = NULL, *cause = NULL, *diag = NULL, *exc = NULL;
  size_t first_n = 0, last_n = 0, top_n = 0, bottom_n = 0, cause_n = 0, diag_n = 0, exc_n = 0;
  bool in_trace = false;
  const char *logged = NULL;
  size_t logged_n = 0;
  for (const char *p = out, *e = out + len; p < e;) {
    const char *nl = memchr(p, '\n', (size_t)(e - p));
    size_t n = nl ? (size_t)(nl - p) : (size_t)(e - p);
    const char *name, *at;
    size_t name_n;
    if (!cause && (at = check_failed(p, n))) cause = at, cause_n = n - (size_t)(at - p);
    if (!diag && diagnostic(p, n)) diag = p, diag_n = n;
    if ((at = exception_line(p, n))) exc = at, exc_n = n - (size_t)(at - p);
    if (trace_header(p, n)) in_trace = true;
    else if (run_signature_frame(p, n, in_trace, &name, &name_n)) {
      if (!top) top = name, top_n = name_n;
      bottom = name, bottom_n = name_n;
    }
    if (!blank(p, n) && !log_line(p, n)) {
      if (!first) first = p, first_n = n;
      last = p, last_n = n;
    } else if (!blank(p, n)) { /* an output of warnings alone still has a signature */
      if (!logged) logged = p, logged_n = n;
    }
    p += n + 1;
  }
  if (!first && logged) first = last = logged, first_n = last_n = logged_n;
  /* The failure's own words name it better than frames that many failures share (distinct
     type-relation errors all pass through TypeSolver::Solve): a failed check, else a
     diagnostic, else the (last: the one that ended the run) exception. */
  if (!cause && diag) cause = diag, cause_n = diag_n;
  if (!cause && exc) cause = exc, cause_n = exc_n;
  StrBuf text, ere;
  sb_init(&text);
  sb_init(&ere);
  if (cause) {
    run_signature_line(cause, cause_n, m, &text, &ere);
  } else if (top) {
    sb_puts(&text, "stack: ");
    run_signature_line(top, top_n, m, &text, NULL);
    if (bottom != top) {
      sb_puts(&text, " | ");
      run_signature_line(bottom, bottom_n, m, &text, NULL);
    }
    /* The longer name says more (the shorter is often main or <module>). */
    if (bottom_n > top_n) run_signature_line(bottom, bottom_n, m, NULL, &ere);
    else run_signature_line(top, top_n, m, NULL, &ere);
  } else if (first) {
    run_signature_line(first, first_n, m, &text, &ere);
    if (last != first) {
      sb_puts(&text, " | ");
      run_signature_line(last, last_n, m, &text, NULL);
    }
  }
  s->text = first ? sb_take(&text) : NULL;
  s->match = first ? checked(sb_take(&ere), out, len) : NULL;
  sb_free(&text);
  sb_free(&ere);
}

void run_signature_free(RunSignature *s) {
  free(s->text);
  free(s->match);
  s->text = s->match = NULL;
}
