/* The search over a pass's opportunities as a value (sweep.h). */
#include "sweep.h"

enum { AHEAD_MAX = 128 }; /* red_sweep_ahead looks at most this far */

void red_sweep_start(RedSweep *s, RedSearch search, size_t n, size_t resume) {
  *s = (RedSweep){.search = search, .size = 1, .went_left = true};
  if (search == RED_FIRST) {
    s->hi = n;
    return;
  }
  s->i = resume;
  /* a paused sweep goes on one by one from where it stopped; a fresh one starts with everything */
  if (search == RED_CHUNKS && resume == 0 && n > 1) s->size = n;
}

bool red_sweep_next(RedSweep *s, size_t n, RedChunk *out) {
  if (s->search == RED_FIRST) {
    if (s->lo >= s->hi) return false;
    size_t m = s->lo + (s->hi - s->lo) / 2;
    s->last = *out = (RedChunk){m, m + 1};
    return true;
  }
  while (s->i >= n) {
    if (s->size == 1) return false;
    s->size = (s->size + 1) / 2; /* the next sweep, with chunks half as large */
    s->i = 0;
  }
  s->last = *out = (RedChunk){s->i, n - s->i > s->size ? s->i + s->size : n};
  s->i = s->last.hi;
  return true;
}

void red_sweep_verdict(RedSweep *s, bool interesting) {
  if (s->search != RED_FIRST) {
    if (interesting) s->i = s->last.lo; /* the same index now names the next opportunity */
    return;
  }
  s->went_left = interesting;
  if (interesting) {
    s->hi = s->last.lo;
    s->found = true;
  } else {
    s->lo = s->last.lo + 1;
  }
}

bool red_sweep_answer(const RedSweep *s, RedChunk *out) {
  if (s->search != RED_FIRST || !s->found) return false;
  *out = (RedChunk){s->hi, s->hi + 1};
  return true;
}

size_t red_sweep_ahead(const RedSweep *s, size_t n, RedChunk *out, size_t max) {
  if (max > AHEAD_MAX) max = AHEAD_MAX;
  size_t k = 0;
  if (s->search != RED_FIRST) {
    RedSweep copy = *s;
    while (k < max && red_sweep_next(&copy, n, &out[k])) k++;
    return k;
  }
  /* Breadth first over the halves; the side the last verdict went to first at every level (the
     answer's side tends to repeat: a crash near the end makes every probe before it uninteresting). */
  size_t qlo[2 * AHEAD_MAX + 2], qhi[2 * AHEAD_MAX + 2], head = 0, tail = 0;
  qlo[tail] = s->lo, qhi[tail++] = s->hi;
  while (k < max && head < tail) {
    size_t a = qlo[head], b = qhi[head++];
    if (a >= b) continue;
    size_t m = a + (b - a) / 2;
    out[k++] = (RedChunk){m, m + 1};
    qlo[tail] = s->went_left ? a : m + 1, qhi[tail++] = s->went_left ? m : b;
    qlo[tail] = s->went_left ? m + 1 : a, qhi[tail++] = s->went_left ? b : m;
  }
  return k;
}
