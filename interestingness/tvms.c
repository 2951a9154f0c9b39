/* Every TVM the user has (rfuzz --tvm, roracle --tvm): a failing program asked again of each
   other TVM build, through the same check started with that TVM on its path (tvms.h). */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../support/fileio.h"
#include "../support/strbuf.h"
#include "server.h"
#include "signature.h"
#include "tvms.h"

static bool is_dir(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* TVM's version as its python/tvm/_ffi/libinfo.py says (`__version__ = "0.19.0"`), or false. */
static bool read_version(const char *home, char *out, size_t outlen) {
  char path[PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/python/tvm/_ffi/libinfo.py", home);
  size_t len;
  char *text = file_read_text(path, &len);
  if (!text) return false;
  bool ok = false;
  for (char *p = strstr(text, "__version__"); p && !ok; p = strstr(p + 1, "__version__")) {
    if (p != text && p[-1] != '\n') continue;
    char *q = p + 11;
    while (*q == ' ') q++;
    if (*q++ != '=') continue;
    while (*q == ' ') q++;
    char quote = *q;
    if (quote != '"' && quote != '\'') continue;
    char *end = strchr(++q, quote);
    if (!end || end == q || (size_t)(end - q) >= outlen) continue;
    snprintf(out, outlen, "%.*s", (int)(end - q), q);
    ok = true;
  }
  free(text);
  return ok;
}

/* Where libtvm.so is: LIB when given, else HOME/build or HOME/lib; NULL when none has it. */
static char *library_dir(const char *home, const char *lib) {
  const char *tries[] = {lib, "build", "lib"};
  for (size_t i = lib ? 0 : 1; i < 3; i++) {
    char dir[PATH_MAX + 16], so[PATH_MAX + 32];
    if (i == 0) snprintf(dir, sizeof dir, "%s", lib);
    else snprintf(dir, sizeof dir, "%s/%s", home, tries[i]);
    snprintf(so, sizeof so, "%s/libtvm.so", dir);
    if (is_file(so)) return xstrdup(dir);
    if (i == 0) return NULL; /* a library path given is the one meant */
  }
  return NULL;
}

bool tvm_add(Tvms *t, const char *spec, char *err, size_t errlen) {
  const char *colon = strchr(spec, ':');
  char home[PATH_MAX], lib[PATH_MAX];
  snprintf(home, sizeof home, "%.*s", (int)(colon ? (size_t)(colon - spec) : strlen(spec)), spec);
  snprintf(lib, sizeof lib, "%s", colon ? colon + 1 : "");
  char version[64];
  if (!*home || !is_dir(home)) {
    snprintf(err, errlen, "--tvm %s: %s is not a directory (give TVM_HOME, a TVM source tree, or TVM_HOME:TVM_LIBRARY_PATH)",
             spec, *home ? home : "''");
    return false;
  }
  if (!read_version(home, version, sizeof version)) {
    snprintf(err, errlen, "--tvm %s: not a TVM: %s/python/tvm/_ffi/libinfo.py says no __version__", spec, home);
    return false;
  }
  char *libdir = library_dir(home, *lib ? lib : NULL);
  if (!libdir) {
    snprintf(err, errlen, "--tvm %s: TVM %s at %s is not built: no libtvm.so in %s (scripts/tvm-build.sh builds one)",
             spec, version, home, *lib ? lib : "its build/ or lib/");
    return false;
  }
  for (size_t i = 0; i < t->len; i++)
    if (!strcmp(t->items[i].version, version)) {
      snprintf(err, errlen, "--tvm %s: TVM %s twice (also %s): give each release once", spec, version, t->items[i].home);
      free(libdir);
      return false;
    }
  char real[PATH_MAX];
  VEC_PUSH(*t, ((Tvm){xstrdup(realpath(home, real) ? real : home), libdir, xstrdup(version)}));
  return true;
}

void tvms_free(Tvms *t) {
  for (size_t i = 0; i < t->len; i++) {
    free(t->items[i].home);
    free(t->items[i].lib);
    free(t->items[i].version);
  }
  free(t->items);
  memset(t, 0, sizeof *t);
}

static void sh_quote(StrBuf *sb, const char *s) {
  sb_putc(sb, '\'');
  for (; *s; s++)
    if (*s == '\'') sb_puts(sb, "'\\''");
    else sb_putc(sb, *s);
  sb_putc(sb, '\'');
}

/* The oracle command run with TVM `t` on the path, and relaykit's tools checking against the
   release it is nearest to. */
static char *env_prefix(const Tvm *t) {
  StrBuf sb, py;
  sb_init(&sb);
  sb_init(&py);
  sb_puts(&sb, "env TVM_HOME=");
  sh_quote(&sb, t->home);
  sb_printf(&py, "%s/python", t->home);
  sb_puts(&sb, " PYTHONPATH=");
  sh_quote(&sb, py.data);
  sb_puts(&sb, " TVM_LIBRARY_PATH=");
  sh_quote(&sb, t->lib);
  sb_printf(&sb, " RELAYKIT_TVM_VERSION=%s ", t->version);
  sb_free(&py);
  return sb_take(&sb);
}

/* Whether release a ("0.19.0") is newer than b ("0.13.0"), by major and minor. */
static bool newer(const char *a, const char *b) {
  int amaj = 0, amin = 0, bmaj = 0, bmin = 0;
  sscanf(a, "%d.%d", &amaj, &amin);
  sscanf(b, "%d.%d", &bmaj, &bmin);
  return amaj != bmaj ? amaj > bmaj : amin > bmin;
}

bool tvm_same_failure(const char *a, const char *b) {
  size_t n = strcspn(a, "@"), m = strcspn(b, "@");
  while (n && a[n - 1] == ' ') n--; /* "MESSAGE @ FRAME" and "MESSAGE" (no frame) alike */
  while (m && b[m - 1] == ' ') m--;
  return n == m && !strncmp(a, b, n);
}

/* The words for what TVM t said (r), against the key the program failed with first. */
static void say(const Tvm *t, const RunResult *r, bool server, const char *key, const char *base, StrBuf *out) {
  const char *sig = r->output ? r->output : "";
  Outcome fo;
  outcome_read(&fo, r->outcome);
  bool failed = server ? r->status == 0 : r->status != 0;
  char *k = NULL, *match = NULL;
  sb_printf(out, "v%s: ", t->version);
  /* this release cannot read the program (an attribute it renamed, an operator it lacks): its
     failure says nothing of the bug, unless reading was where the program failed first */
  bool unreadable = !strcmp(fo.stage, "frontend") && !(key && !strncmp(key, "frontend:", 9));
  if (r->timed_out) {
    sb_puts(out, "hangs");
  } else if (failed && unreadable) {
    sb_printf(out, "not comparable (this release cannot read the program: %s)", sig);
  } else if (failed && (!server || *sig)) {
    RunSignature s = {0};
    if (!server || !*fo.signature) run_signature(r->output ? r->output : "", r->output_len, NULL, &s);
    fail_group_key(&fo, false, *fo.signature ? fo.signature : s.text ? s.text : sig, &k, &match);
    run_signature_free(&s);
    /* the same failure: the same key but for TVM's frames, which move between releases */
    if (key && tvm_same_failure(k, key)) sb_puts(out, "fails");
    else sb_printf(out, "fails differently (%s)", k);
  } else if (!failed && (!server || !*sig)) {
    sb_puts(out, "passes");
    if (base && newer(t->version, base)) sb_printf(out, " (fixed by v%s)", t->version);
  } else if (!strcmp(fo.stage, "frontend")) {
    sb_printf(out, "not comparable (this release cannot read the program: %s)", sig);
  } else if (server && r->status == 1) {
    sb_printf(out, "an earlier stage fails (%s)", sig);
  } else {
    sb_printf(out, "not comparable (the check could not run: %s)", *sig ? sig : "no answer");
  }
  free(k);
  free(match);
  outcome_free(&fo);
}

void tvm_verdicts(const Tvms *tvms, const TvmCheck *check, const char *text, const char *key, const char *base,
                  StrBuf *out) {
  for (size_t i = 0; i < tvms->len; i++) {
    const Tvm *t = &tvms->items[i];
    if (i) sb_puts(out, "; ");
    char *prefix = env_prefix(t), err[256];
    RunOptions ro;
    run_options_default(&ro);
    ro.timeout = check->timeout > 0 ? check->timeout : 300;
    RunResult r;
    bool ran = false;
    if (check->server) {
      StrBuf cmd;
      sb_init(&cmd);
      sb_printf(&cmd, "%s%s", prefix, check->server);
      ServerPool *pool = server_pool_new(cmd.data, 1, &ro);
      RunSide side = {{"args"}, {check->args}, check->args ? 1 : 0};
      ServerJob *job = server_start(pool, check->basename, text, strlen(text), &side, err, sizeof err);
      if (job) server_finish(pool, job, &r), ran = true;
      server_pool_free(pool);
      sb_free(&cmd);
    } else {
      /* a command test runs with this process's environment: the TVM's, for this run */
      const char *names[] = {"TVM_HOME", "PYTHONPATH", "TVM_LIBRARY_PATH", "RELAYKIT_TVM_VERSION"};
      char *saved[4];
      StrBuf py;
      sb_init(&py);
      sb_printf(&py, "%s/python", t->home);
      const char *values[] = {t->home, py.data, t->lib, t->version};
      for (int k = 0; k < 4; k++) {
        const char *v = getenv(names[k]);
        saved[k] = v ? xstrdup(v) : NULL;
        setenv(names[k], values[k], 1);
      }
      ran = run_candidate(check->test, check->basename, text, strlen(text), &ro, &r, err, sizeof err);
      for (int k = 0; k < 4; k++) {
        if (saved[k]) setenv(names[k], saved[k], 1);
        else unsetenv(names[k]);
        free(saved[k]);
      }
      sb_free(&py);
    }
    if (ran) {
      say(t, &r, check->server != NULL, key, base, out);
      run_result_free(&r);
    } else {
      sb_printf(out, "v%s: not comparable (the check could not start: %s)", t->version, err);
    }
    free(prefix);
  }
}
