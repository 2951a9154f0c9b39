#include "rng.h"

static uint64_t splitmix(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

Rng rng_seed(uint64_t seed, uint64_t stream) {
  uint64_t x = seed;
  uint64_t a = splitmix(&x);
  x = a ^ (stream * 0xd1b54a32d192ed03ULL);
  Rng r = {splitmix(&x)};
  return r;
}

uint64_t rng_next(Rng *r) { return splitmix(&r->state); }

int64_t rng_range(Rng *r, int64_t lo, int64_t hi) {
  uint64_t span = (uint64_t)(hi - lo) + 1;
  if (span == 0) return (int64_t)rng_next(r); /* the whole 64-bit range */
  /* Rejection sampling keeps the distribution uniform. */
  uint64_t limit = UINT64_MAX - UINT64_MAX % span;
  uint64_t v;
  do v = rng_next(r);
  while (v >= limit);
  return lo + (int64_t)(v % span);
}

bool rng_chance(Rng *r, uint32_t num, uint32_t den) { return rng_range(r, 1, den) <= num; }

size_t rng_index(Rng *r, size_t n) { return (size_t)rng_range(r, 0, (int64_t)n - 1); }
