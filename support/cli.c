#define _GNU_SOURCE /* program_invocation_short_name */
#include "cli.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdio_ext.h> /* __fpending */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "version.h"
#include "xalloc.h"

const char *cli_tool(void) { return program_invocation_short_name; }

bool cli_executable(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

void cli_on_stop_signals(void (*handler)(int)) {
  static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
  struct sigaction sa = {0};
  sa.sa_handler = handler;
  for (size_t i = 0; i < sizeof stop_signals / sizeof *stop_signals; i++) sigaction(stop_signals[i], &sa, NULL);
}

char *cli_sibling(const char *name) {
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (slash) {
      size_t len = (size_t)(slash - self) + 1 + strlen(name) + 1;
      char *path = xmalloc(len);
      snprintf(path, len, "%.*s/%s", (int)(slash - self), self, name);
      if (cli_executable(path)) return path;
      free(path);
    }
  }
  return xstrdup(name);
}

bool cli_runnable(const char *path, char *why, size_t whylen) {
  if (!cli_executable(path)) return snprintf(why, whylen, "not an executable file"), false;
  char head[4] = {0};
  FILE *f = fopen(path, "rb");
  size_t n = f ? fread(head, 1, sizeof head, f) : 0;
  if (f) fclose(f);
  if ((n >= 2 && head[0] == '#' && head[1] == '!') || (n == 4 && !memcmp(head, "\x7f" "ELF", 4))) return true;
  snprintf(why, whylen, "has no #! line, so it cannot be run on its own (start it with #!/bin/sh)");
  return false;
}

bool cli_in_list(const char *list, const char *name) {
  size_t n = strlen(name);
  for (const char *p = list; p && *p;) {
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    if (len == n && !strncmp(p, name, n)) return true;
    p = comma ? comma + 1 : NULL;
  }
  return false;
}

bool cli_count_arg(const char *prog, const char *opt, const char *arg, long min, long *out) {
  char *end;
  errno = 0;
  long v = strtol(arg, &end, 10);
  if (errno || *end || end == arg || v < min) {
    fprintf(stderr, "%s: %s takes a whole number >= %ld, not '%s'\n", prog, opt, min, arg);
    return false;
  }
  *out = v;
  return true;
}

void cli_name(char **argv, const char *prog) { argv[0] = (char *)prog; }

int cli_bad_option(const char *prog) {
  fprintf(stderr, "Try '%s --help' for more information.\n", prog);
  return 2;
}

int cli_version(const char *prog) {
  printf("%s (relaykit) %s\n", prog, RELAYKIT_VERSION);
  return 0;
}

int cli_exit(int status) {
  bool pending = __fpending(stdout) != 0, failed = ferror(stdout) != 0;
  errno = 0;
  if (fclose(stdout) != 0 && (pending || errno != EBADF)) failed = true;
  if (!failed) return status;
  fprintf(stderr, "%s: cannot write to standard output\n", cli_tool());
  return 2;
}

bool cli_known_names(const char *prog, const char *opt, const char *what, const char *list, const char *const *known,
                     size_t n) {
  for (const char *p = list; p && *p;) {
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    bool found = false;
    for (size_t i = 0; i < n && !found; i++) found = strlen(known[i]) == len && !strncmp(known[i], p, len);
    if (!found) {
      fprintf(stderr, "%s: %s: unknown %s '%.*s' (one of:", prog, opt, what, (int)len, p);
      for (size_t i = 0; i < n; i++) fprintf(stderr, "%s %s", i ? "," : "", known[i]);
      fputs(")\n", stderr);
      return false;
    }
    p = comma ? comma + 1 : p + len;
  }
  return true;
}
