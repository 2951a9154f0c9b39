/* Every TVM the user has (rfuzz --tvm): each bug group's reduced program asked again of each other
   TVM build, through the campaign's own oracle started with that TVM on its path, so the report
   can say "fails on v0.13.0 and v0.19.0" or "fixed by v0.19.0". */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../interestingness/server.h"
#include "../support/fileio.h"
#include "../typegen/ops/ops.h"
#include "campaign.h"

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

bool fuzz_tvm_add(FuzzTvms *t, const char *spec, char *err, size_t errlen) {
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
  VEC_PUSH(*t, ((FuzzTvm){xstrdup(realpath(home, real) ? real : home), libdir, xstrdup(version)}));
  return true;
}

void fuzz_tvms_free(FuzzTvms *t) {
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
static char *oracle_with(const FuzzTvm *t, const char *oracle) {
  StrBuf sb;
  sb_init(&sb);
  sb_puts(&sb, "env TVM_HOME=");
  sh_quote(&sb, t->home);
  sb_puts(&sb, " PYTHONPATH=");
  StrBuf py;
  sb_init(&py);
  sb_printf(&py, "%s/python", t->home);
  sh_quote(&sb, py.data);
  sb_free(&py);
  sb_puts(&sb, " TVM_LIBRARY_PATH=");
  sh_quote(&sb, t->lib);
  sb_printf(&sb, " RELAYKIT_TVM_VERSION=%s %s", t->version, oracle);
  return sb_take(&sb);
}

/* Whether release a ("0.19.0") is newer than b ("0.13.0"), by major and minor. */
static bool newer(const char *a, const char *b) {
  int amaj = 0, amin = 0, bmaj = 0, bmin = 0;
  sscanf(a, "%d.%d", &amaj, &amin);
  sscanf(b, "%d.%d", &bmaj, &bmin);
  return amaj != bmaj ? amaj > bmaj : amin > bmin;
}

/* What TVM t says of the group's reduced program, in a few words. */
static void one_verdict(const FuzzTvm *t, const char *oracle, const FuzzGroup *g, const char *text, StrBuf *out) {
  char *cmd = oracle_with(t, oracle);
  RunOptions ro;
  run_options_default(&ro);
  ro.timeout = 300;
  ServerPool *pool = server_pool_new(cmd, 1, &ro);
  char err[256];
  RunSide side = {{"args"}, {g->args}, 1};
  ServerJob *job = server_start(pool, "program.relay", text, strlen(text), &side, err, sizeof err);
  sb_printf(out, "v%s: ", t->version);
  if (!job) {
    sb_printf(out, "not comparable (the oracle could not start: %s)", err);
  } else {
    RunResult r;
    server_finish(pool, job, &r);
    const char *sig = r.output ? r.output : "";
    Outcome fo;
    outcome_read(&fo, r.outcome);
    char *key = NULL, *match = NULL;
    if (r.timed_out) sb_puts(out, "hangs");
    else if (r.status == 0) {
      fail_group_key(&fo, false, sig, &key, &match);
      /* the same failure: the same key but for TVM's frames, which move between releases */
      size_t n = strcspn(key, "@"), m = g->reduced_key ? strcspn(g->reduced_key, "@") : 0;
      if (g->reduced_key && n == m && !strncmp(key, g->reduced_key, n)) sb_puts(out, "fails");
      else sb_printf(out, "fails differently (%s)", key);
    } else if (r.status == 1 && !*sig) {
      sb_puts(out, "passes");
      if (newer(t->version, op_tvm_name())) sb_printf(out, " (fixed by v%s)", t->version);
    }
    else if (r.status == 1 && !strcmp(fo.stage, "frontend"))
      sb_printf(out, "not comparable (this release cannot read the program: %s)", sig);
    else if (r.status == 1) sb_printf(out, "an earlier stage fails (%s)", sig);
    else sb_printf(out, "not comparable (the oracle could not check it: %s)", *sig ? sig : "no answer");
    free(key);
    free(match);
    outcome_free(&fo);
    run_result_free(&r);
  }
  server_pool_free(pool);
  free(cmd);
}

void fuzz_tvm_verdicts(const Campaign *c, FuzzGroup *g, const FuzzTvms *tvms, const char *oracle) {
  if (!tvms->len || g->reduced_bytes < 0 || g->merged_into || g->cls != FAIL_BUG) return;
  char *path = campaign_path(c, "groups/%03u/reduced.relay", g->id);
  size_t len;
  char *text = file_read_text(path, &len);
  free(path);
  if (!text) return;
  StrBuf sb;
  sb_init(&sb);
  for (size_t i = 0; i < tvms->len; i++) {
    if (i) sb_puts(&sb, "; ");
    one_verdict(&tvms->items[i], oracle, g, text, &sb);
  }
  free(g->tvm_verdicts);
  g->tvm_verdicts = sb_take(&sb);
  free(text);
}
