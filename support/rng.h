/* A small, fast, seedable random number generator (splitmix64), so that every random choice in
   relaykit is reproducible from a --seed, on every platform. */
#ifndef RELAYKIT_RNG_H
#define RELAYKIT_RNG_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct Rng {
  uint64_t state;
} Rng;

/* Seeds from (seed, stream): the k-th program of a run gets rng_seed(seed, k), so a larger -n only adds. */
Rng rng_seed(uint64_t seed, uint64_t stream);
uint64_t rng_next(Rng *r);
/* Uniform in [lo, hi] (inclusive); lo <= hi. */
int64_t rng_range(Rng *r, int64_t lo, int64_t hi);
/* True with probability num/den. */
bool rng_chance(Rng *r, uint32_t num, uint32_t den);
/* An index in [0, n) (n > 0). */
size_t rng_index(Rng *r, size_t n);

#endif
