#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool cli_executable(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
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
