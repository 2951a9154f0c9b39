#define _GNU_SOURCE /* close_range */
#include "strays.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "../support/xalloc.h"

static pid_t *tracked;
static size_t ntracked, cap;
static int watch_fd = -1;    /* the write end of the watchdog's pipe */
static pid_t watchdog_pid;

static void add(pid_t **set, size_t *n, size_t *setcap, pid_t pid) {
  if (*n == *setcap) *set = xrealloc(*set, (*setcap = *setcap ? 2 * *setcap : 16) * sizeof **set);
  (*set)[(*n)++] = pid;
}

static void drop(pid_t *set, size_t *n, pid_t pid) {
  for (size_t i = 0; i < *n; i++)
    if (set[i] == pid) {
      set[i] = set[--*n];
      return;
    }
}

/* The watchdog: +pid tracks a group, -pid forgets it; at the end of the pipe the groups left are
   killed.  It holds no descriptor of the parent's (a test's output pipe, a server's input, the
   lock), so nothing waits on it. */
static _Noreturn void watchdog(int in) {
  setpgid(0, 0); /* a Ctrl-C or a kill of the parent's group leaves it to do its job */
  signal(SIGINT, SIG_IGN);
  signal(SIGHUP, SIG_IGN);
  signal(SIGQUIT, SIG_IGN);
  signal(SIGTERM, SIG_DFL);
  dup2(in, STDIN_FILENO);
  int devnull = open("/dev/null", O_RDWR);
  if (devnull >= 0) dup2(devnull, STDOUT_FILENO), dup2(devnull, STDERR_FILENO);
  close_range(3, ~0U, 0);
  pid_t *groups = NULL;
  size_t n = 0, groupcap = 0;
  int32_t v;
  while (read(STDIN_FILENO, &v, sizeof v) == (ssize_t)sizeof v) { /* writes of 4 bytes are atomic */
    if (v > 0) add(&groups, &n, &groupcap, v);
    else drop(groups, &n, -v);
  }
  for (size_t i = 0; i < n; i++) kill(-groups[i], SIGKILL);
  _exit(0);
}

static void tell_watchdog(pid_t pid) {
  int32_t v = (int32_t)pid;
  /* Never blocks: a watchdog too slow to read misses a group rather than stalling the run. */
  if (watch_fd >= 0 && write(watch_fd, &v, sizeof v) < 0) {}
}

/* At a normal end the watchdog finds no group left and ends too; it is waited for, so nothing of
   this process outlives it. */
static void stop_watchdog(void) {
  if (watch_fd < 0) return;
  close(watch_fd);
  watch_fd = -1;
  waitpid(watchdog_pid, NULL, 0);
}

static void start_watchdog(void) {
  int p[2];
  if (pipe(p) != 0) return;
  pid_t pid = fork();
  if (pid == 0) {
    close(p[1]);
    watchdog(p[0]);
  }
  close(p[0]);
  if (pid < 0) {
    close(p[1]);
    return;
  }
  fcntl(p[1], F_SETFD, FD_CLOEXEC); /* a test must not hold it open: the pipe would never close */
  fcntl(p[1], F_SETFL, O_NONBLOCK);
  watch_fd = p[1];
  watchdog_pid = pid;
  add(&tracked, &ntracked, &cap, pid); /* a child of ours, not a stray */
  atexit(stop_watchdog);
}

void strays_track(pid_t pid) {
  static bool subreaper;
#ifdef __linux__
  if (!subreaper) prctl(PR_SET_CHILD_SUBREAPER, 1);
#endif
  if (!subreaper) start_watchdog();
  subreaper = true;
  add(&tracked, &ntracked, &cap, pid);
  tell_watchdog(pid);
}

void strays_untrack(pid_t pid) {
  drop(tracked, &ntracked, pid);
  tell_watchdog(-pid);
}

static bool is_tracked(pid_t pid) {
  for (size_t i = 0; i < ntracked; i++)
    if (tracked[i] == pid) return true;
  return false;
}

/* This process's children, from /proc/self/task/<tid>/children (Linux); how many fit in out. */
static size_t children(pid_t *out, size_t max) {
  size_t n = 0;
  DIR *d = opendir("/proc/self/task");
  struct dirent *e;
  while (d && (e = readdir(d)) && n < max) {
    if (e->d_name[0] == '.') continue;
    char path[300];
    snprintf(path, sizeof path, "/proc/self/task/%s/children", e->d_name);
    FILE *f = fopen(path, "r");
    long pid;
    while (f && n < max && fscanf(f, "%ld", &pid) == 1) out[n++] = (pid_t)pid;
    if (f) fclose(f);
  }
  if (d) closedir(d);
  return n;
}

unsigned strays_reap(void) {
  if (!ntracked && !tracked) return 0; /* never ran a test: not a subreaper, nothing to look for */
  pid_t kids[256];
  unsigned killed = 0;
  size_t n = children(kids, sizeof kids / sizeof *kids);
  for (size_t i = 0; i < n; i++) {
    if (is_tracked(kids[i])) continue;
    kill(-kids[i], SIGKILL); /* it left the test's group for one of its own (setsid) */
    kill(kids[i], SIGKILL);
    waitpid(kids[i], NULL, 0);
    killed++;
  }
  return killed;
}
