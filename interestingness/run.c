#define _XOPEN_SOURCE 700
#include "run.h"

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
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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
  memset(r, 0, sizeof *r);
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
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
  bool ok = true;
  for (size_t off = 0; ok && off < len;) {
    ssize_t w = write(fd, text + off, len - off);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) ok = false;
    else off += (size_t)w;
  }
  return close(fd) == 0 && ok;
}

/* In the child: its own process group, the limits, the directory, the environment; then exec. */
static void child(const char *test, const char *file, const char *dir, const char *tmpdir, int out, const RunOptions *o) {
  setpgid(0, 0);
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
  signal(SIGPIPE, SIG_DFL);
  execl(test, test, file, (char *)NULL);
  fprintf(stderr, "relaykit: cannot run %s: %s\n", test, strerror(errno));
  _exit(127);
}

bool run_candidate(const char *test, const char *basename, const char *text, size_t len, const RunOptions *o,
              RunResult *r, char *err, size_t errlen) {
  memset(r, 0, sizeof *r);
  char abs_test[PATH_MAX];
  if (!realpath(test, abs_test)) {
    snprintf(err, errlen, "%s: %s", test, strerror(errno));
    return false;
  }
  const char *base = getenv("TMPDIR");
  char dir[PATH_MAX];
  snprintf(dir, sizeof dir, "%s/relaykit.XXXXXX", base && *base ? base : "/tmp");
  if (!mkdtemp(dir)) {
    snprintf(err, errlen, "cannot create a temporary directory in %s: %s", base && *base ? base : "/tmp", strerror(errno));
    return false;
  }
  char file[2 * PATH_MAX], tmpdir[PATH_MAX + 8];
  if ((size_t)snprintf(file, sizeof file, "%s/%s", dir, basename) >= sizeof file) {
    snprintf(err, errlen, "path too long: %s/%s", dir, basename);
    run_remove_tree(dir);
    return false;
  }
  snprintf(tmpdir, sizeof tmpdir, "%s/tmp", dir);
  if (!write_file(file, text, len) || mkdir(tmpdir, 0700) != 0) {
    snprintf(err, errlen, "cannot write the candidate in %s: %s", dir, strerror(errno));
    run_remove_tree(dir);
    return false;
  }
  int pipefd[2];
  if (pipe(pipefd) != 0) {
    snprintf(err, errlen, "pipe: %s", strerror(errno));
    run_remove_tree(dir);
    return false;
  }
  double start = now();
  pid_t pid = fork();
  if (pid < 0) {
    snprintf(err, errlen, "fork: %s", strerror(errno));
    close(pipefd[0]);
    close(pipefd[1]);
    run_remove_tree(dir);
    return false;
  }
  if (pid == 0) {
    close(pipefd[0]);
    child(abs_test, file, dir, tmpdir, pipefd[1], o);
  }
  setpgid(pid, pid); /* also from the parent: no race with the child's own call */
  close(pipefd[1]);
  fcntl(pipefd[0], F_SETFL, O_NONBLOCK);

  size_t cap = o->output_cap, used = 0;
  char *out = xmalloc(cap + 1);
  int status = 0;
  bool exited = false, pipe_open = true, term_sent = false;
  double term_at = 0;
  while (!exited) {
    double elapsed = now() - start;
    if (o->stop && *o->stop && !term_sent) {
      kill(-pid, SIGTERM); /* an interrupt: the test is abandoned, its verdict does not count */
      term_sent = true;
      term_at = now();
    }
    if (!term_sent && o->timeout > 0 && elapsed > o->timeout) {
      r->timed_out = true;
      kill(-pid, SIGTERM);
      term_sent = true;
      term_at = now();
    }
    if (term_sent && now() - term_at > o->grace) kill(-pid, SIGKILL);
    struct pollfd pfd = {pipefd[0], POLLIN, 0};
    if (pipe_open && poll(&pfd, 1, 20) > 0) {
      char buf[65536];
      ssize_t n = read(pipefd[0], buf, sizeof buf);
      if (n > 0) {
        size_t keep = used + (size_t)n > cap ? cap - used : (size_t)n; /* drain, keep what fits */
        memcpy(out + used, buf, keep);
        used += keep;
      } else if (n == 0) {
        pipe_open = false;
      }
    } else if (!pipe_open) {
      struct timespec ts = {0, 10 * 1000 * 1000};
      nanosleep(&ts, NULL);
    }
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) exited = true;
  }
  /* The test is over: whatever it started in its group goes too (forked sleepers, servers). */
  kill(-pid, SIGKILL);
  for (int i = 0; i < 64 && pipe_open; i++) { /* what the test wrote just before exiting */
    char buf[65536];
    ssize_t n = read(pipefd[0], buf, sizeof buf);
    if (n <= 0) break;
    size_t keep = used + (size_t)n > cap ? cap - used : (size_t)n;
    memcpy(out + used, buf, keep);
    used += keep;
  }
  close(pipefd[0]);
  out[used] = '\0';
  r->output = out;
  r->output_len = used;
  r->seconds = now() - start;
  if (WIFEXITED(status) && !r->timed_out) r->status = WEXITSTATUS(status);
  else {
    r->status = -1;
    r->signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  }
  if (o->keep_temps) r->dir = xstrdup(dir);
  else run_remove_tree(dir);
  return true;
}
