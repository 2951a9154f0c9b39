#include "keys.h"

#include <stdlib.h>
#include <termios.h>
#include <unistd.h>

static struct termios saved;
static bool active;

/* A background job that touches the terminal is stopped (SIGTTOU, SIGTTIN): only the foreground
   one reads keys, and the check is repeated since a job can be moved with Ctrl-Z and bg. */
static bool foreground(void) { return tcgetpgrp(STDIN_FILENO) == getpgrp(); }

void red_keys_stop(void) {
  if (active && foreground()) tcsetattr(STDIN_FILENO, TCSANOW, &saved);
  active = false;
}

bool red_keys_start(void) {
  if (!isatty(STDIN_FILENO) || !foreground() || tcgetattr(STDIN_FILENO, &saved) != 0) return false;
  struct termios raw = saved;
  raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO); /* ISIG stays: Ctrl-C still interrupts */
  raw.c_cc[VMIN] = 0;
  raw.c_cc[VTIME] = 0;
  if (tcsetattr(STDIN_FILENO, TCSANOW, &raw) != 0) return false;
  static bool registered;
  if (!registered) atexit(red_keys_stop);
  registered = active = true;
  return true;
}

bool red_keys_skip(void) {
  if (!active || !foreground()) return false;
  char buf[64];
  bool skip = false;
  ssize_t n;
  while ((n = read(STDIN_FILENO, buf, sizeof buf)) > 0)
    for (ssize_t i = 0; i < n; i++) skip |= buf[i] == 's' || buf[i] == 'S';
  return skip;
}
