/* Triage: which group a failure belongs to, and its reduction by rreduce through the same oracle
   with the failing program's own check. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../support/clock.h"
#include "../support/fileio.h"
#include "../typegen/ops/ops.h"
#include "campaign.h"

/* ------------------------------------------------------------------ skeletons */

static bool sk_word(char c) { return isalnum((unsigned char)c) || c == '_' || c == '.'; }

static bool sk_dtype(const char *w, size_t k) {
  static const char *const names[] = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                                      "float16", "float32", "float64", "bfloat16", "int1", "int4", "uint1", NULL};
  for (const char *const *n = names; *n; n++)
    if (strlen(*n) == k && !memcmp(w, *n, k)) return true;
  return false;
}

typedef VEC(char *) SkNames;

/* The index of name w in the table (added when new). */
static size_t sk_name(SkNames *names, const char *w, size_t k) {
  for (size_t i = 0; i < names->len; i++)
    if (strlen(names->items[i]) == k && !memcmp(names->items[i], w, k)) return i;
  char *copy = xmalloc(k + 1);
  memcpy(copy, w, k);
  copy[k] = '\0';
  VEC_PUSH(*names, copy);
  return names->len - 1;
}

char *fuzz_skeleton(const char *text) {
  StrBuf out;
  sb_init(&out);
  SkNames locals = {0}, globals = {0};
  bool numbers = false; /* the last token was a run of numbers (a shape): N, N, N is one N* */
  for (const char *p = text; *p;) {
    if (isspace((unsigned char)*p)) {
      p++;
      continue;
    }
    if (!strncmp(p, "/*", 2)) { /* TVM's ty= and span= comments, the user's */
      const char *e = strstr(p + 2, "*/");
      p = e ? e + 2 : p + strlen(p);
      continue;
    }
    if (!strncmp(p, "//", 2) || (*p == '#' && strncmp(p, "#[version", 9))) {
      if (!strncmp(p, "#[metadata]", 11)) break;
      p += strcspn(p, "\n");
      continue;
    }
    const char *w = p;
    if (isdigit((unsigned char)*p) || (*p == '-' && isdigit((unsigned char)p[1]))) {
      for (p++; sk_word(*p) || ((*p == '-' || *p == '+') && (p[-1] == 'e' || p[-1] == 'E'));) p++;
      if (!numbers) sb_puts(&out, " N*");
      numbers = true;
      continue;
    }
    if (*p == ',' && numbers) { /* inside a run of numbers */
      const char *q = p + 1;
      while (isspace((unsigned char)*q)) q++;
      if (isdigit((unsigned char)*q) || (*q == '-' && isdigit((unsigned char)q[1]))) {
        p = q;
        continue;
      }
    }
    numbers = false;
    if ((*p == '%' || *p == '@') && sk_word(p[1])) {
      for (p++; sk_word(*p);) p++;
      size_t k = (size_t)(p - w);
      if (*w == '@' && k == 5 && !memcmp(w, "@main", 5)) sb_puts(&out, " @main");
      else sb_printf(&out, " %c%zu", *w, sk_name(*w == '%' ? &locals : &globals, w + 1, k - 1));
    } else if (sk_word(*p)) {
      while (sk_word(*p)) p++;
      /* NAME=None is an attribute left unset, as TVM prints one: the same as leaving it out */
      const char *q = p;
      while (*q == ' ') q++;
      if (*q == '=' && !strncmp(q + 1 + strspn(q + 1, " "), "None", 4) && !sk_word(q[1 + strspn(q + 1, " ") + 4])) {
        p = q + 1 + strspn(q + 1, " ") + 4;
        if (out.len >= 2 && !strcmp(out.data + out.len - 2, " ,")) out.data[out.len -= 2] = '\0'; /* its comma too */
        continue;
      }
      if (sk_dtype(w, (size_t)(p - w))) sb_puts(&out, " DT");
      else sb_printf(&out, " %.*s", (int)(p - w), w);
    } else if (*p == '"') {
      const char *e = p + 1;
      while (*e && *e != '"') e += *e == '\\' && e[1] ? 2 : 1;
      if (sk_dtype(p + 1, (size_t)(e - p - 1))) sb_puts(&out, " \"DT\"");
      else sb_printf(&out, " %.*s", (int)(e - p + (*e ? 1 : 0)), p);
      p = *e ? e + 1 : e;
    } else {
      sb_printf(&out, " %c", *p++);
    }
  }
  for (size_t i = 0; i < locals.len; i++) free(locals.items[i]);
  for (size_t i = 0; i < globals.len; i++) free(globals.items[i]);
  free(locals.items);
  free(globals.items);
  return sb_take(&out);
}

/* Whether the program text calls operator name w (k bytes): `w(` outside comments, roughly (a
   reduced program is small, and a stray match only masks one more word of a key). */
static bool sk_calls(const char *text, const char *w, size_t k) {
  for (const char *p = strstr(text, "("); p; p = strstr(p + 1, "(")) {
    const char *b = p;
    while (b > text && sk_word(b[-1])) b--;
    if ((size_t)(p - b) == k && !memcmp(b, w, k)) return true;
  }
  return false;
}

/* "tvm.relay.expr.Call": the kind of Relay expression a Python error names (a Call, a Var where
   a Constant was expected): one cause whichever kind reached it. */
static bool expr_kind(const char *w, size_t k) {
  static const char prefix[] = "tvm.relay.expr.";
  size_t n = sizeof prefix - 1;
  if (k <= n || memcmp(w, prefix, n)) return false;
  for (const char *q = w + n; q < w + k; q++)
    if (!isalnum((unsigned char)*q)) return false;
  return true;
}

char *fuzz_family_key(const char *key, const char *text) {
  StrBuf out;
  sb_init(&out);
  for (const char *p = key; *p;) {
    if (!sk_word(*p)) { /* a word is read whole below: p never stops inside one */
      sb_putc(&out, *p++);
      continue;
    }
    const char *w = p;
    while (sk_word(*p)) p++;
    size_t k = (size_t)(p - w);
    if (expr_kind(w, k)) {
      sb_puts(&out, "tvm.relay.expr.<expr>");
      continue;
    }
    char name[128];
    const char *op = w;
    size_t n = k;
    bool tir = n > 4 && !memcmp(w, "tir.", 4); /* the TIR intrinsic an operator lowers to */
    if (tir) op += 4, n -= 4;
    bool masked = false;
    if (n < sizeof name) {
      memcpy(name, op, n);
      name[n] = '\0';
      masked = op_lookup(name) && sk_calls(text, op, n);
    }
    if (masked) sb_puts(&out, tir ? "tir.<op>" : "<op>");
    else sb_putn(&out, w, k);
  }
  return sb_take(&out);
}

/* One precondition TVM checks only when it lowers an operator, in words its stages put
   differently: QNN's lowering (canonicalize, legalize, requantize's helpers) reads every scale and
   zero point as a constant, while the type relations accept any scalar expression.  Met through
   three operators it reads "Expr must be a constant expr" (a C++ helper), "Input scale should be
   constant" (softmax's canonicalization) and "<Var> has no attribute data" (a Python legalization
   reading a Constant's .data): no masking of names joins those, so the evidence is both the words
   and the program: a qnn.* call given a value that is no constant. */
static const char *const constant_words[] = {"must be a constant", "should be constant", "has no attribute data",
                                             "is not a constant", NULL};

/* Whether text calls a qnn.* operator with an argument after its first (its data) that is a
   variable or a call (anything but a literal or a meta constant). */
static bool qnn_call_with_nonconstant(const char *text) {
  for (const char *p = strstr(text, "qnn."); p; p = strstr(p + 1, "qnn.")) {
    if (p > text && sk_word(p[-1])) continue;
    const char *q = p;
    while (sk_word(*q)) q++;
    if (*q != '(') continue;
    int depth = 0, arg = 0; /* the first argument is the data: scales and zero points come after */
    bool start = true;     /* at the start of an argument */
    for (q++; *q; q++) {
      if (start && depth == 0) {
        while (*q == ' ' || *q == '\n') q++;
        if (*q == '%' && arg > 0) return true;
        const char *w = q;
        while (sk_word(*q)) q++;
        if (*q == '(' && q > w && strncmp(w, "meta", 4) && arg > 0) return true; /* a call */
        start = false;
        if (!*q) break;
      }
      if (*q == '(' || *q == '[') depth++;
      else if ((*q == ')' || *q == ']') && depth-- == 0) break; /* the call's own ) */
      else if (*q == ',' && depth == 0) start = true, arg++;
    }
  }
  return false;
}

const char *fuzz_precondition(const char *key, const char *text) {
  for (const char *const *w = constant_words; *w; w++)
    if (strstr(key, *w) && qnn_call_with_nonconstant(text))
      return "QNN's type relations accept a scale or zero point that is not a constant; its lowering fails on it";
  return NULL;
}

/* Group g's reduced program, or NULL. */
static char *reduced_text(const Campaign *c, const FuzzGroup *g) {
  char *path = campaign_path(c, "groups/%03u/reduced.relay", g->id);
  size_t len;
  char *text = file_read_text(path, &len);
  free(path);
  return text;
}

/* A key without its " @ frame" part: its length. */
static size_t key_unframed(const char *key) {
  const char *at = strstr(key, " @ ");
  return at ? (size_t)(at - key) : strlen(key);
}

FuzzGroup *fuzz_root_group(const Campaign *c, FuzzGroup *g) {
  for (size_t hops = 0; g->merged_into && hops < c->groups.len; hops++) {
    FuzzGroup *next = NULL;
    for (size_t i = 0; i < c->groups.len && !next; i++)
      if (c->groups.items[i].id == g->merged_into) next = &c->groups.items[i];
    if (!next) break;
    g = next;
  }
  return g;
}

bool fuzz_one_cause(const Campaign *c, const FuzzGroup *g, const FuzzGroup *h) {
  if (!g->reduced_key || !h->reduced_key) return false;
  if (!strcmp(h->reduced_key, g->reduced_key)) return true;
  char *gt = reduced_text(c, g), *ht = reduced_text(c, h);
  bool same = false;
  if (gt && ht) {
    size_t n = key_unframed(g->reduced_key);
    if (n == key_unframed(h->reduced_key) && !strncmp(g->reduced_key, h->reduced_key, n)) {
      char *a = fuzz_skeleton(gt), *b = fuzz_skeleton(ht);
      same = !strcmp(a, b);
      free(a);
      free(b);
    }
    if (!same && g->cls == h->cls) { /* a missing TOpPattern: qnn.<op>'s a limitation, nn.<op>'s a bug */
      char *a = fuzz_family_key(g->reduced_key, gt), *b = fuzz_family_key(h->reduced_key, ht);
      same = strcmp(a, g->reduced_key) && !strcmp(a, b); /* something was masked, and nothing else differs */
      free(a);
      free(b);
    }
    if (!same && g->cls == h->cls) { /* one precondition, put in different words */
      const char *a = fuzz_precondition(g->reduced_key, gt), *b = fuzz_precondition(h->reduced_key, ht);
      same = a && b && !strcmp(a, b);
    }
  }
  free(gt);
  free(ht);
  return same;
}

bool fuzz_reduced_key(const Campaign *c, FuzzGroup *g, ServerPool *pool, char *why, size_t whylen) {
  char *text = reduced_text(c, g);
  if (!text) return snprintf(why, whylen, "no reduced.relay"), false;
  /* the reduced program with its reduced pipeline: what rreduce found failing (with the first
     program's pipeline it may fail otherwise, or not at all) */
  char *path = campaign_path(c, "groups/%03u/reduced.relay.pipeline", g->id);
  size_t plen;
  char *pipeline = file_read_text_if_there(path, &plen); /* none: reduced alone */
  free(path);
  RunSide side = {{"args", "pipeline"}, {g->args, pipeline}, pipeline ? 2 : 1};
  char err[512];
  ServerJob *job = server_start(pool, "program.relay", text, strlen(text), &side, err, sizeof err);
  free(text);
  free(pipeline);
  if (!job) return snprintf(why, whylen, "%s", err), false;
  RunResult res;
  server_finish(pool, job, &res);
  const char *sig = res.output ? res.output : "";
  bool ok = res.status == 0 && *sig;
  if (!ok) /* it no longer fails, or the oracle could not say */
    snprintf(why, whylen, "%s", res.timed_out ? "the oracle timed out"
                                : res.status    ? "it does not fail with its reduced pipeline"
                                                : "the oracle gave no signature");
  if (ok) {
    Outcome fo;
    outcome_read(&fo, res.outcome);
    char *match;
    fail_group_key(&fo, res.timed_out, sig, &g->reduced_key, &match);
    free(match);
    if (*fo.step) {
      free(g->step);
      g->step = xstrdup(fo.step);
    }
    outcome_free(&fo);
  }
  run_result_free(&res);
  return ok;
}

char *fuzz_repro_args(const char *args, int status) {
  if (status == 0) return xstrdup(args);
  /* the failure was "something else broke" for this check: make that the interesting answer;
     rreduce --match then keeps it to this signature */
  const char *nl = strchr(args, '\n');
  StrBuf sb;
  sb_init(&sb);
  if (!nl) sb_printf(&sb, "%s\n--other-status\n0\n", args);
  else sb_printf(&sb, "%.*s--other-status\n0\n%s", (int)(nl - args + 1), args, nl + 1);
  return sb_take(&sb);
}

char *fuzz_oracle_for_file(const char *oracle, const char *args_file) {
  const char *at = strstr(oracle, "--args-beside");
  if (!at) return NULL;
  StrBuf sb;
  sb_init(&sb);
  sb_printf(&sb, "%.*s--args-from '", (int)(at - oracle), oracle);
  for (const char *p = args_file; *p; p++) { /* sh single quotes */
    if (*p == '\'') sb_puts(&sb, "'\\''");
    else sb_putc(&sb, *p);
  }
  sb_printf(&sb, "'%s", at + strlen("--args-beside"));
  return sb_take(&sb);
}

static void set_status(FuzzGroup *g, const char *fmt, const char *detail) {
  free(g->status);
  size_t n = strlen(fmt) + (detail ? strlen(detail) : 0) + 1;
  g->status = xmalloc(n);
  snprintf(g->status, n, fmt, detail ? detail : "");
}

void fuzz_reduce_group(const Campaign *c, FuzzGroup *g, const char *rreduce, const char *oracle, double minutes,
                       volatile sig_atomic_t *stop) {
  char *args_path = campaign_path(c, "groups/%03u/args", g->id);
  char *first = campaign_path(c, "groups/%03u/first.relay", g->id);
  char *out = campaign_path(c, "groups/%03u/reduced.relay", g->id);
  char *report = campaign_path(c, "groups/%03u/report.md", g->id);
  char *log = campaign_path(c, "groups/%03u/rreduce.log", g->id);
  char *server = fuzz_oracle_for_file(oracle, args_path);
  if (!file_replace(args_path, g->args, strlen(g->args))) {
    set_status(g, "not reduced: cannot write the args file", NULL);
    goto done;
  }
  const char *argv[24];
  size_t n = 0;
  argv[n++] = rreduce;
  argv[n++] = "--server";
  argv[n++] = server;
  if (g->match) {
    argv[n++] = "--match";
    argv[n++] = g->match;
  }
  if (g->frame) { /* the same crash: a message alone ("signal SIGSEGV") lets it slip into another */
    argv[n++] = "--frame";
    argv[n++] = g->frame;
  }
  argv[n++] = "-j";
  argv[n++] = "1";
  argv[n++] = "--report";
  argv[n++] = report;
  argv[n++] = "-o";
  argv[n++] = out;
  argv[n++] = first;
  argv[n] = NULL;
  unlink(out);
  pid_t pid = fork();
  if (pid < 0) {
    set_status(g, "not reduced: fork: %s", strerror(errno));
    goto done;
  }
  if (pid == 0) {
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int null = open("/dev/null", O_RDONLY);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
    }
    if (null >= 0) dup2(null, 0);
    setpgid(0, 0); /* our Ctrl-C reaches it through us, once */
    execvp(rreduce, (char *const *)argv); /* a bare name: from PATH */
    _exit(127);
  }
  double deadline = clock_seconds() + minutes * 60;
  int status = 0;
  bool interrupted = false;
  for (;;) {
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) break;
    if (!interrupted && ((stop && *stop) || clock_seconds() > deadline)) {
      kill(pid, SIGINT); /* rreduce keeps the best program so far in OUT */
      interrupted = true;
      deadline = clock_seconds() + 30;
    } else if (interrupted && clock_seconds() > deadline) {
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
    }
    struct timespec ts = {0, 50 * 1000 * 1000};
    nanosleep(&ts, NULL);
  }
  struct stat st;
  bool have = stat(out, &st) == 0;
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (stop && *stop) {
    set_status(g, "new", NULL); /* reduced again when the campaign resumes */
  } else if (have && (code == 0 || code == 3 || code == 130)) {
    g->reduced_bytes = (long)st.st_size;
    set_status(g, code == 130 ? "reduced (stopped at the time limit)" : "reduced", NULL);
  } else {
    char why[96];
    snprintf(why, sizeof why, "rreduce exit %d, see rreduce.log", code);
    set_status(g, "not reduced: %s", why);
  }
done:
  free(args_path);
  free(first);
  free(out);
  free(report);
  free(log);
  free(server);
}

void fuzz_tvm_verdicts(const Campaign *c, FuzzGroup *g, const Tvms *tvms, const char *oracle) {
  if (!tvms->len || !fuzz_is_root_bug(g)) return;
  char *path = campaign_path(c, "groups/%03u/reduced.relay", g->id);
  size_t len;
  char *text = file_read_text(path, &len);
  free(path);
  if (!text) return;
  TvmCheck check = {.server = oracle, .args = g->args, .basename = "program.relay"};
  StrBuf sb;
  sb_init(&sb);
  tvm_verdicts(tvms, &check, text, g->reduced_key ? g->reduced_key : g->key, op_tvm_name(), &sb);
  free(g->tvm_verdicts);
  g->tvm_verdicts = sb_take(&sb);
  free(text);
}
