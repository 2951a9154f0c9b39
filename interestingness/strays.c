#include "strays.h"

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "../support/xalloc.h"

static pid_t *tracked;
static size_t ntracked, cap;

void strays_track(pid_t pid) {
  static bool subreaper;
#ifdef __linux__
  if (!subreaper) prctl(PR_SET_CHILD_SUBREAPER, 1);
#endif
  subreaper = true;
  if (ntracked == cap) tracked = xrealloc(tracked, (cap = cap ? 2 * cap : 16) * sizeof *tracked);
  tracked[ntracked++] = pid;
}

void strays_untrack(pid_t pid) {
  for (size_t i = 0; i < ntracked; i++)
    if (tracked[i] == pid) {
      tracked[i] = tracked[--ntracked];
      return;
    }
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
