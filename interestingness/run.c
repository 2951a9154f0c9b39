#define _XOPEN_SOURCE 700
#include "../support/clock.h"
#include "run.h"
#include "strays.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../support/fileio.h"
#include "../support/xalloc.h"

void run_options_default(RunOptions *o) {
  memset(o, 0, sizeof *o);
  o->timeout = 300;
  o->grace = 1;
  o->output_cap = 1 << 20;
}

void run_result_free(RunResult *r) {
  free(r->output);
  free(r->dir);
  free(r->outcome);
  memset(r, 0, sizeof *r);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)ftw;
  /* A test may leave read-only directories: open them up before removing what is inside. */
  if (flag == FTW_DP || flag == FTW_D) chmod(path, 0700);
  remove(path);
  return 0;
}

void run_remove_tree(const char *dir) {
  chmod(dir, 0700);
  nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static bool write_file(const char *path, const char *text, size_t len) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return false;
  bool ok = fd_write_all(fd, text, len); /* no fsync: a test's scratch copy, on the hot path */
  return close(fd) == 0 && ok;
}

bool run_prepare_dir(const char *basename, const char *text, size_t len, const RunSide *side, char dir[PATH_MAX],
                     char *file, size_t filelen, char *err, size_t errlen) {
  const char *base = getenv("TMPDIR");
  snprintf(dir, PATH_MAX, "%s/relaykit.XXXXXX", base && *base ? base : "/tmp");
  if (!mkdtemp(dir)) {
    snprintf(err, errlen, "cannot create a temporary directory in %s: %s", base && *base ? base : "/tmp", strerror(errno));
    return false;
  }
  char tmpdir[PATH_MAX + 8];
  snprintf(tmpdir, sizeof tmpdir, "%s/tmp", dir);
  if ((size_t)snprintf(file, filelen, "%s/%s", dir, basename) >= filelen) {
    snprintf(err, errlen, "path too long: %s/%s", dir, basename);
    run_remove_tree(dir);
    return false;
  }
  if (!write_file(file, text, len) || mkdir(tmpdir, 0700) != 0) {
    snprintf(err, errlen, "cannot write the candidate in %s: %s", dir, strerror(errno));
    run_remove_tree(dir);
    return false;
  }
  for (size_t i = 0; side && i < side->n; i++) {
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s.%s", file, side->suffix[i]);
    if (!write_file(path, side->text[i], strlen(side->text[i]))) {
      snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
      run_remove_tree(dir);
      return false;
    }
  }
  return true;
}

enum { OUTCOME_MAX = 4 << 20 };

char *run_read_outcome(const char *file) {
  char path[PATH_MAX + 16];
  snprintf(path, sizeof path, "%s.outcome", file);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd < 0) return NULL;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) { /* a FIFO or a directory is no outcome */
    close(fd);
    return NULL;
  }
  size_t cap = st.st_size < OUTCOME_MAX ? (size_t)st.st_size : OUTCOME_MAX;
  char *buf = xmalloc(cap + 1);
  size_t used = 0;
  ssize_t n;
  while (used < cap && (n = read(fd, buf + used, cap - used)) > 0) used += (size_t)n;
  close(fd);
  buf[used] = '\0';
  return buf;
}

/* In the child: its own process group, the limits, the directory, the environment; then exec. */
static void child(const char *test, const char *file, const char *dir, const char *tmpdir, int out, const RunOptions *o,
                  pid_t parent) {
  setpgid(0, 0);
#ifdef __linux__
  /* A parent killed outright (SIGKILL, the OOM killer) cannot kill the test's group: the test
     asks to die with it instead, so no orphaned test keeps running. */
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(127);
#else
  (void)parent;
#endif
  int devnull = open("/dev/null", O_RDONLY);
  if (devnull >= 0) dup2(devnull, STDIN_FILENO);
  dup2(out, STDOUT_FILENO);
  dup2(out, STDERR_FILENO);
  if (o->limit_mem) {
    struct rlimit rl = {(rlim_t)o->limit_mem, (rlim_t)o->limit_mem};
    setrlimit(RLIMIT_AS, &rl);
  }
  if (o->limit_cpu) {
    struct rlimit rl = {(rlim_t)o->limit_cpu, (rlim_t)o->limit_cpu + 1};
    setrlimit(RLIMIT_CPU, &rl);
  }
  if (chdir(dir) != 0) _exit(127);
  setenv("TMPDIR", tmpdir, 1);
  setenv(RUN_OUTCOME_ENV, "1", 1); /* BASENAME.outcome is read back (PROTOCOL.md) */
  signal(SIGPIPE, SIG_DFL);
  signal(SIGALRM, SIG_DFL);
  if (o->timeout > 0) {
    /* The kernel times the test, not the parent: a parent busy building the next candidate
       (rreduce -j) would otherwise notice a slow test late, and a test's verdict would depend on
       how busy the parent was.  The timer survives exec; SIGALRM ends the test at its timeout. */
    double whole = (double)(long)o->timeout;
    struct itimerval t = {{0, 0}, {(time_t)whole, (suseconds_t)((o->timeout - whole) * 1e6)}};
    if (t.it_value.tv_sec == 0 && t.it_value.tv_usec == 0) t.it_value.tv_usec = 1;
    setitimer(ITIMER_REAL, &t, NULL);
  }
  execl(test, test, file, (char *)NULL);
  fprintf(stderr, "relaykit: cannot run %s: %s\n", test, strerror(errno));
  _exit(127);
}

/* A running test: its process group, its output so far, its clock. */
struct RunJob {
  RunOptions o;
  pid_t pid;
  int fd;                 /* read end of the output pipe, -1 once closed */
  char *out;
  size_t used;
  double start, term_at, end;
  bool term_sent, timed_out, exited, cancelled;
  int status;
  char dir[PATH_MAX];
  char file[2 * PATH_MAX];  /* the candidate */
};

RunJob *run_start(const char *test, const char *basename, const char *text, size_t len, const RunSide *side,
                  const RunOptions *o, char *err, size_t errlen) {
  char abs_test[PATH_MAX];
  if (!realpath(test, abs_test)) {
    snprintf(err, errlen, "%s: %s", test, strerror(errno));
    return NULL;
  }
  RunJob *j = xcalloc(1, sizeof *j);
  j->o = *o;
  char tmpdir[PATH_MAX + 8];
  const char *file = j->file;
  int pipefd[2] = {-1, -1};
  if (!run_prepare_dir(basename, text, len, side, j->dir, j->file, sizeof j->file, err, errlen)) {
    free(j);
    return NULL;
  }
  snprintf(tmpdir, sizeof tmpdir, "%s/tmp", j->dir);
  if (pipe(pipefd) != 0) {
    snprintf(err, errlen, "pipe: %s", strerror(errno));
    goto fail;
  }
  j->start = clock_seconds();
  pid_t parent = getpid();
  j->pid = fork();
  if (j->pid < 0) {
    snprintf(err, errlen, "fork: %s", strerror(errno));
    close(pipefd[0]);
    close(pipefd[1]);
    goto fail;
  }
  if (j->pid == 0) {
    close(pipefd[0]);
    child(abs_test, file, j->dir, tmpdir, pipefd[1], o, parent);
  }
  setpgid(j->pid, j->pid); /* also from the parent: no race with the child's own call */
  strays_track(j->pid);
  close(pipefd[1]);
  fcntl(pipefd[0], F_SETFL, O_NONBLOCK);
  fcntl(pipefd[0], F_SETFD, FD_CLOEXEC); /* later tests must not hold this pipe open */
  j->fd = pipefd[0];
  j->out = xmalloc(o->output_cap + 1);
  return j;
fail:
  run_remove_tree(j->dir);
  free(j);
  return NULL;
}

/* Reads what is there (draining past the cap, keeping what fits); closes the pipe at its end. */
static void drain(RunJob *j) {
  for (int i = 0; i < 64 && j->fd >= 0; i++) {
    char buf[65536];
    ssize_t n = read(j->fd, buf, sizeof buf);
    if (n > 0) {
      size_t keep = j->used + (size_t)n > j->o.output_cap ? j->o.output_cap - j->used : (size_t)n;
      memcpy(j->out + j->used, buf, keep);
      j->used += keep;
    } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
      close(j->fd);
      j->fd = -1;
    } else {
      break;
    }
  }
}

static void terminate(RunJob *j) {
  kill(-j->pid, SIGTERM);
  j->term_sent = true;
  j->term_at = clock_seconds();
}

/* The process's end, timeouts, interrupts.  The end is looked for first: a test that ended while
   the parent was busy elsewhere ended in time, however late the parent looks (the kernel's timer
   set in child() ended it if it ran too long, which the parent reads from its status). */
static void advance(RunJob *j) {
  if (j->exited) return;
  drain(j);
  if (waitpid(j->pid, &j->status, WNOHANG) == j->pid) {
    j->exited = true;
    j->end = clock_seconds();
    if (!j->term_sent && j->o.timeout > 0 && WIFSIGNALED(j->status) && WTERMSIG(j->status) == SIGALRM)
      j->timed_out = true;
    kill(-j->pid, SIGKILL); /* whatever it started in its group goes too (forked sleepers, servers) */
    strays_untrack(j->pid);
    strays_reap(); /* and what it started outside its group, now orphaned to this process */
    drain(j);              /* what it wrote just before exiting */
    return;
  }
  if (!j->term_sent && ((j->o.stop && *j->o.stop) || j->cancelled)) terminate(j);
  /* Still running past its timeout: it did run that long (a test that ignores SIGALRM). */
  if (!j->term_sent && j->o.timeout > 0 && clock_seconds() - j->start > j->o.timeout) {
    j->timed_out = true;
    terminate(j);
  }
  if (j->term_sent && clock_seconds() - j->term_at > j->o.grace) kill(-j->pid, SIGKILL);
}

void run_wait(RunJob *const *jobs, size_t n, int ms) {
  struct pollfd pfd[64];
  size_t np = 0;
  for (size_t i = 0; i < n && np < 64; i++)
    if (jobs[i] && !jobs[i]->exited && jobs[i]->fd >= 0) pfd[np++] = (struct pollfd){jobs[i]->fd, POLLIN, 0};
  if (np) poll(pfd, np, ms < 20 ? ms : 20);
  else if (ms > 0) nanosleep(&(struct timespec){0, 5 * 1000 * 1000}, NULL);
  for (size_t i = 0; i < n; i++)
    if (jobs[i]) advance(jobs[i]);
}

bool run_done(const RunJob *j) { return j->exited; }

void run_cancel(RunJob *j) {
  j->cancelled = true;
  if (!j->exited && !j->term_sent) {
    kill(-j->pid, SIGKILL); /* a losing speculative job: nothing to wait for */
    j->term_sent = true;
    j->term_at = clock_seconds();
  }
}

void run_finish(RunJob *j, RunResult *r) {
  while (!j->exited) run_wait(&j, 1, 20);
  if (j->fd >= 0) close(j->fd);
  memset(r, 0, sizeof *r);
  j->out[j->used] = '\0';
  r->output = j->out;
  r->output_len = j->used;
  r->seconds = j->end - j->start;
  r->timed_out = j->timed_out;
  if (WIFEXITED(j->status) && !j->timed_out) r->status = WEXITSTATUS(j->status);
  else {
    r->status = -1;
    r->signal = WIFSIGNALED(j->status) ? WTERMSIG(j->status) : 0;
  }
  r->outcome = run_read_outcome(j->file);
  if (j->o.keep_temps) r->dir = xstrdup(j->dir);
  else run_remove_tree(j->dir);
  free(j);
}

bool run_candidate(const char *test, const char *basename, const char *text, size_t len, const RunOptions *o,
                   RunResult *r, char *err, size_t errlen) {
  memset(r, 0, sizeof *r);
  RunJob *j = run_start(test, basename, text, len, NULL, o, err, errlen);
  if (!j) return false;
  run_finish(j, r);
  return true;
}
