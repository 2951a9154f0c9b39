/* Triage: which group a failure belongs to, and its reduction by rreduce through the same oracle
   with the failing program's own check. */
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

#include "../interestingness/signature.h"
#include "../support/clock.h"
#include "../support/fileio.h"
#include "campaign.h"

static bool starts(const char *s, const char *prefix) { return s && !strncmp(s, prefix, strlen(prefix)); }

bool fuzz_is_timeout(bool timed_out, const char *sig) { return timed_out || starts(sig, "timeout"); }

void fuzz_group_key(const Outcome *f, bool timed_out, const char *sig, char **key, char **match) {
  StrBuf norm, ere, k;
  sb_init(&norm);
  sb_init(&ere);
  sb_init(&k);
  /* the stage is what the oracle says failed (a diff round's build crash is a build failure, as
     a build round's is), never the round's kind: one bug, one group */
  if (f && *f->stage) sb_printf(&k, "%s: ", f->stage);
  if (fuzz_is_timeout(timed_out, sig)) {
    sb_puts(&k, "timeout");
    *match = xstrdup("timeout");
  } else {
    run_signature_line(sig ? sig : "", sig ? strlen(sig) : 0, NULL, &norm, &ere);
    sb_puts(&k, norm.len ? norm.data : "(no signature)");
    *match = ere.len ? sb_take(&ere) : NULL;
  }
  /* TVM's innermost frame tells apart two bugs that share a message (a check in a helper many
     passes call), where its backtrace has frames */
  if (f && f->nframes) sb_printf(&k, " @ %s", f->frames[0]);
  *key = sb_take(&k);
  sb_free(&norm);
  sb_free(&ere);
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
