/*
 * librelaykit_cov.so: the coverage runtime an instrumented TVM is linked with
 * (scripts/tvm-instrumented.sh; issue 32).  TVM's compiler is built with clang's SanitizerCoverage
 * (-fsanitize-coverage=inline-8bit-counters,pc-table): every edge of its control flow bumps a byte
 * counter, and each instrumented module hands its counters to this runtime when it is loaded.
 *
 * tvm-server forks a child per candidate, so the child's counters would be its own copy-on-write
 * pages, lost when it dies.  relaykit_cov_share() maps the counters' pages as shared memory in the
 * server before any fork: a child's edges are read by the server after the child ends, however
 * it ended (a crash loses nothing).  The pages at either end of a module's counters may hold other
 * data of TVM's; the server does not run TVM while a child runs, and restores those bytes after
 * each child (relaykit_cov_reset snapshots them, relaykit_cov_hits puts them back).
 *
 * Without relaykit_cov_share the counters stay where the compiler put them and nothing is read:
 * the instrumented TVM works as any other.  Edge k is the k-th counter over the modules in the
 * order they were loaded: stable for one build and one import order.
 *
 * API for the server (ctypes):
 *   size_t relaykit_cov_edges(void)                   counters in all modules
 *   int    relaykit_cov_share(void)                   0, or -1 with errno
 *   void   relaykit_cov_reset(void)                   zero every counter (before a fork)
 *   size_t relaykit_cov_hits(uint32_t *out, size_t max) the edges a child hit, ascending (after it)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum { MODULES_MAX = 64 };

typedef struct Module {
  uint8_t *start, *end;        /* its counters */
  uint8_t *page_start, *page_end;
  uint8_t *head, *tail;        /* snapshots of the other bytes of the first and last page */
  size_t head_len, tail_len;
  size_t first;                /* its first edge's global index */
} Module;

static Module modules[MODULES_MAX];
static size_t nmodules, nedges;
static int shared;

void __sanitizer_cov_8bit_counters_init(uint8_t *start, uint8_t *end) {
  if (nmodules == MODULES_MAX || start >= end) return;
  for (size_t i = 0; i < nmodules; i++)
    if (modules[i].start == start) return; /* a module initialised twice */
  long page = sysconf(_SC_PAGESIZE);
  Module *m = &modules[nmodules++];
  m->start = start;
  m->end = end;
  m->page_start = (uint8_t *)((uintptr_t)start & ~(uintptr_t)(page - 1));
  m->page_end = (uint8_t *)(((uintptr_t)end + (uintptr_t)page - 1) & ~(uintptr_t)(page - 1));
  m->first = nedges;
  nedges += (size_t)(end - start);
}

/* The PC table says which instruction each counter stands for; the edges' identity here is
   their index, so it is only accepted. */
void __sanitizer_cov_pcs_init(const uintptr_t *beg, const uintptr_t *end) {
  (void)beg;
  (void)end;
}

size_t relaykit_cov_edges(void) { return nedges; }

/* Maps m's pages anew, shared (a memfd holding their current bytes, mapped over them). */
static int share_module(Module *m) {
  size_t len = (size_t)(m->page_end - m->page_start);
  int fd = memfd_create("relaykit-cov", 0);
  if (fd < 0) return -1;
  if (ftruncate(fd, (off_t)len) != 0 || write(fd, m->page_start, len) != (ssize_t)len) {
    int e = errno;
    close(fd);
    errno = e;
    return -1;
  }
  void *p = mmap(m->page_start, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);
  close(fd);
  if (p == MAP_FAILED) return -1;
  m->head_len = (size_t)(m->start - m->page_start);
  m->tail_len = (size_t)(m->page_end - m->end);
  m->head = malloc(m->head_len + 1);
  m->tail = malloc(m->tail_len + 1);
  return m->head && m->tail ? 0 : -1;
}

int relaykit_cov_share(void) {
  if (shared) return 0;
  for (size_t i = 0; i < nmodules; i++)
    if (share_module(&modules[i]) != 0) return -1;
  shared = 1;
  return 0;
}

void relaykit_cov_reset(void) {
  for (size_t i = 0; i < nmodules; i++) {
    Module *m = &modules[i];
    if (shared) {
      memcpy(m->head, m->page_start, m->head_len);
      memcpy(m->tail, m->end, m->tail_len);
    }
    memset(m->start, 0, (size_t)(m->end - m->start));
  }
}

size_t relaykit_cov_hits(uint32_t *out, size_t max) {
  size_t n = 0;
  for (size_t i = 0; i < nmodules; i++) {
    Module *m = &modules[i];
    for (uint8_t *c = m->start; c < m->end; c++) {
      if (!*c) continue;
      if (n < max) out[n] = (uint32_t)(m->first + (size_t)(c - m->start));
      n++;
    }
    if (shared) { /* TVM's own bytes on those pages, as the server left them */
      memcpy(m->page_start, m->head, m->head_len);
      memcpy(m->end, m->tail, m->tail_len);
    }
  }
  return n;
}
