#include "memory.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* A /proc/meminfo field in bytes, or SIZE_MAX. */
static size_t meminfo(const char *key) {
  FILE *f = fopen("/proc/meminfo", "r");
  char line[256];
  size_t n = strlen(key), v = SIZE_MAX;
  unsigned long long kb;
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, key, n) && line[n] == ':' && sscanf(line + n + 1, "%llu", &kb) == 1) {
      v = (size_t)kb * 1024;
      break;
    }
  if (f) fclose(f);
  return v;
}

/* This process's virtual size, from /proc/self/statm (pages). */
static size_t virtual_size(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  unsigned long long pages = 0;
  if (f && fscanf(f, "%llu", &pages) != 1) pages = 0;
  if (f) fclose(f);
  return (size_t)pages * (size_t)sysconf(_SC_PAGESIZE);
}

size_t mem_available(void) {
  size_t avail = meminfo("MemAvailable"), swap = meminfo("SwapFree");
  if (avail != SIZE_MAX && swap != SIZE_MAX) avail += swap;
  int limits[] = {RLIMIT_AS, RLIMIT_DATA};
  for (size_t i = 0; i < sizeof limits / sizeof *limits; i++) {
    struct rlimit rl;
    if (getrlimit(limits[i], &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) continue;
    size_t used = virtual_size(), cap = (size_t)rl.rlim_cur;
    size_t left = cap > used ? cap - used : 0;
    if (left < avail) avail = left;
  }
  return avail;
}
