/*
 * The search over one pass's opportunities as a small value (C-Vise's BinaryState): where it
 * starts, which chunk of opportunities comes next, and what a verdict on that chunk changes.  The
 * driver runs a pass as one loop over a sweep; the speculative jobs ask a *copy* of it what the
 * sequential run would try next (after a rejection, or after an acceptance), so the order is
 * written once, here, and every -j takes the same steps to the same result.
 *
 * Three searches (RedSearch in reduce.h):
 *   RED_ONE_BY_ONE  [i, i+1) for i from the start on; an accepted chunk's index names the next
 *                   opportunity of the new program, so the sweep goes on from there.
 *   RED_CHUNKS      delta debugging: one chunk of all N, then halves, quarters ... then single
 *                   opportunities, each size swept from 0; an acceptance keeps the size and index.
 *   RED_FIRST       bisection for the first interesting opportunity (those after an interesting
 *                   one assumed interesting too): log2(N) probes; the answer is accepted at the end.
 * A sweep holds no program: the caller passes the current count of opportunities to next().
 */
#ifndef RELAYKIT_SWEEP_H
#define RELAYKIT_SWEEP_H

#include <stdbool.h>
#include <stddef.h>

#include "reduce.h"

typedef struct RedChunk {
  size_t lo, hi; /* opportunities [lo, hi) applied together */
} RedChunk;

typedef struct RedSweep {
  RedSearch search;
  size_t i, size;  /* ONE_BY_ONE, CHUNKS: the next chunk starts at i and is `size` long */
  size_t lo, hi;   /* FIRST: the answer is in [lo, hi), or is `hi` when found */
  bool went_left;  /* FIRST: the last verdict was interesting (the next probes look left first) */
  bool found;      /* FIRST: some probe was interesting: `hi` is the first such so far */
  RedChunk last;   /* the chunk next() returned last: what a verdict is about */
} RedSweep;

/* A sweep over n opportunities, starting at `resume` (where a paused sweep of the pass stopped; 0
   starts afresh, which for RED_CHUNKS means one chunk of all n).  RED_FIRST always starts afresh. */
void red_sweep_start(RedSweep *s, RedSearch search, size_t n, size_t resume);

/* The next chunk to try when the current program has n opportunities; false when the sweep is
   over.  The chunk is consumed: next() again moves on, as after a rejection (a chunk that proposes
   nothing needs no verdict in ONE_BY_ONE and CHUNKS; in FIRST it counts as not interesting). */
bool red_sweep_next(RedSweep *s, size_t n, RedChunk *out);

/* The verdict on the chunk next() returned last.  In ONE_BY_ONE and CHUNKS an interesting chunk is
   accepted at once (red_sweep_accepts_at_once) and the sweep goes on at its index on the new
   program; in FIRST it becomes the answer so far and the bisection goes on to its left. */
void red_sweep_verdict(RedSweep *s, bool interesting);

/* Whether an interesting chunk is taken at once (the program changes under the sweep), or only
   when the sweep is over (FIRST: red_sweep_answer). */
static inline bool red_sweep_accepts_at_once(const RedSweep *s) { return s->search != RED_FIRST; }

/* FIRST, once over: the answer (the first interesting opportunity found); false when none was. */
bool red_sweep_answer(const RedSweep *s, RedChunk *out);

/* Where the next chunk starts (a paused sweep resumes there), for ONE_BY_ONE and CHUNKS. */
static inline size_t red_sweep_position(const RedSweep *s) { return s->i; }

/* The chunks the next steps may need, most needed first, at most max of them: the sequence after
   rejections (ONE_BY_ONE, CHUNKS), or both halves' probes breadth first, the side the last
   verdict went to first (FIRST).  The first is what next() returns.  n: as for next(). */
size_t red_sweep_ahead(const RedSweep *s, size_t n, RedChunk *out, size_t max);

#endif
