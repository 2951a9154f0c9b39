/*
 * The sweep (reduce/sweep.h) on its own, with no program and no test process: the sequence of
 * chunks each search tries under every verdict pattern of small inputs, against a straightforward
 * model of the order rreduce has always used, and what red_sweep_ahead predicts.
 *
 * The abstract pass: n items, of which some are needed.  A chunk (a set of items to remove) is
 * interesting when it removes no needed item; an accepted chunk removes its items, so the same
 * index names the next item (as a reduction pass's opportunities renumber after a step).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../../reduce/sweep.h"

enum { N_MAX = 9, TRACE_MAX = 4096 };

typedef struct Trace {
  RedChunk chunk[TRACE_MAX];
  size_t n;
} Trace;

/* items[0..n): which remain, by their original number; needed: a bit per original number. */
static bool removes_needed(const int *items, RedChunk c, unsigned needed) {
  for (size_t i = c.lo; i < c.hi; i++)
    if (needed >> items[i] & 1) return true;
  return false;
}

static void remove_chunk(int *items, size_t *n, RedChunk c) {
  size_t w = 0;
  for (size_t i = 0; i < *n; i++)
    if (i < c.lo || i >= c.hi) items[w++] = items[i];
  *n = w;
}

/* The sweep driven to its end; the chunks it tried, and the items left. */
static void run_sweep(RedSearch search, size_t n0, unsigned needed, Trace *t, int *items, size_t *n) {
  for (size_t i = 0; i < n0; i++) items[i] = (int)i;
  *n = n0;
  t->n = 0;
  RedSweep s;
  red_sweep_start(&s, search, n0, 0);
  RedChunk c;
  while (red_sweep_next(&s, *n, &c)) {
    assert_true(t->n < TRACE_MAX);
    assert_true(c.lo < c.hi && c.hi <= *n);
    t->chunk[t->n++] = c;
    bool interesting = !removes_needed(items, c, needed);
    red_sweep_verdict(&s, interesting);
    if (interesting && red_sweep_accepts_at_once(&s)) remove_chunk(items, n, c);
  }
  RedChunk answer;
  if (red_sweep_answer(&s, &answer)) remove_chunk(items, n, answer);
}

/* The order rreduce's driver has always used for RED_CHUNKS (RED_ONE_BY_ONE: size 1 from the
   start), written out as plainly as possible: sweeps of one chunk size from index 0, the size
   halved (rounding up) after a sweep, an accepted chunk's index trying again on the new items. */
static void model_chunks(bool chunks, size_t n0, unsigned needed, Trace *t, int *items, size_t *n) {
  for (size_t i = 0; i < n0; i++) items[i] = (int)i;
  *n = n0;
  t->n = 0;
  size_t size = chunks && n0 > 1 ? n0 : 1, i = 0;
  for (;;) {
    if (i >= *n) {
      if (size == 1) break;
      size = (size + 1) / 2;
      i = 0;
      continue;
    }
    RedChunk c = {i, *n - i > size ? i + size : *n};
    t->chunk[t->n++] = c;
    if (!removes_needed(items, c, needed)) remove_chunk(items, n, c); /* i names the next item */
    else i = c.hi;
  }
}

static void assert_same_trace(const Trace *a, const Trace *b) {
  assert_int_equal(a->n, b->n);
  for (size_t k = 0; k < a->n; k++) {
    assert_int_equal(a->chunk[k].lo, b->chunk[k].lo);
    assert_int_equal(a->chunk[k].hi, b->chunk[k].hi);
  }
}

/* Chunks and one-by-one: the model's sequence for every n <= N_MAX and every set of needed items,
   and the result 1-minimal (exactly the needed items are left). */
static void test_chunks_every_pattern(void **state) {
  (void)state;
  static Trace got, want;
  int items[N_MAX], model[N_MAX];
  for (int chunks = 0; chunks < 2; chunks++)
    for (size_t n0 = 0; n0 <= N_MAX; n0++)
      for (unsigned needed = 0; needed < 1u << n0; needed++) {
        size_t n, mn;
        run_sweep(chunks ? RED_CHUNKS : RED_ONE_BY_ONE, n0, needed, &got, items, &n);
        model_chunks(chunks, n0, needed, &want, model, &mn);
        assert_same_trace(&got, &want);
        assert_int_equal(n, (size_t)__builtin_popcount(needed));
        for (size_t k = 0; k < n; k++) assert_true(needed >> items[k] & 1);
      }
}

/* Delta debugging's point: removing all but one of 64 items costs far fewer tests than 64. */
static void test_chunks_logarithmic(void **state) {
  (void)state;
  static Trace t;
  int items[64];
  size_t n;
  RedSweep s;
  red_sweep_start(&s, RED_CHUNKS, 64, 0);
  for (size_t i = 0; i < 64; i++) items[i] = (int)i;
  n = 64;
  t.n = 0;
  RedChunk c;
  unsigned long long needed = 1ull << 37;
  while (red_sweep_next(&s, n, &c)) {
    t.n++;
    bool hit = false;
    for (size_t i = c.lo; i < c.hi; i++) hit |= (needed >> items[i] & 1) != 0;
    red_sweep_verdict(&s, !hit);
    if (!hit) remove_chunk(items, &n, c);
  }
  assert_int_equal(n, 1);
  assert_int_equal(items[0], 37);
  assert_true(t.n <= 16);
}

/* A paused sweep resumes one by one where it stopped, whatever its search. */
static void test_resume(void **state) {
  (void)state;
  RedSweep s;
  RedChunk c;
  red_sweep_start(&s, RED_CHUNKS, 10, 4);
  assert_true(red_sweep_next(&s, 10, &c));
  assert_int_equal(c.lo, 4);
  assert_int_equal(c.hi, 5);
  assert_int_equal(red_sweep_position(&s), 5);
  red_sweep_start(&s, RED_ONE_BY_ONE, 3, 3);
  assert_false(red_sweep_next(&s, 3, &c));
  red_sweep_start(&s, RED_CHUNKS, 1, 0); /* one opportunity: one chunk of it */
  assert_true(red_sweep_next(&s, 1, &c));
  assert_int_equal(c.hi - c.lo, 1);
  assert_false(red_sweep_next(&s, 1, &c));
}

/* Bisection: the first interesting opportunity when the interesting ones form a suffix, in at most
   ceil(log2(n + 1)) probes; under any pattern, an answer is always an interesting opportunity. */
static void test_first_every_pattern(void **state) {
  (void)state;
  for (size_t n = 0; n <= 16; n++)
    for (size_t first = 0; first <= n; first++) { /* opportunities >= first are interesting */
      RedSweep s;
      red_sweep_start(&s, RED_FIRST, n, 0);
      RedChunk c;
      unsigned probes = 0;
      while (red_sweep_next(&s, n, &c)) {
        probes++;
        red_sweep_verdict(&s, c.lo >= first);
      }
      unsigned bound = 0;
      while ((1u << bound) < n + 1) bound++;
      assert_true(probes <= bound);
      RedChunk a;
      if (first == n) {
        assert_false(red_sweep_answer(&s, &a));
      } else {
        assert_true(red_sweep_answer(&s, &a));
        assert_int_equal(a.lo, first);
      }
    }
  for (size_t n = 1; n <= N_MAX; n++)
    for (unsigned pattern = 0; pattern < 1u << n; pattern++) {
      RedSweep s;
      red_sweep_start(&s, RED_FIRST, n, 0);
      RedChunk c, a;
      while (red_sweep_next(&s, n, &c)) red_sweep_verdict(&s, pattern >> c.lo & 1);
      if (red_sweep_answer(&s, &a)) assert_true(pattern >> a.lo & 1);
      else assert_int_equal(pattern & (1u << (n - 1)), 0); /* the last probe's side was never interesting */
    }
}

/* red_sweep_ahead: its first chunk is what next() returns; in chunks, the rest is the sequence after
   rejections; in a bisection, the probes after either verdict are among the first three. */
static void test_ahead(void **state) {
  (void)state;
  RedChunk ahead[128], c;
  for (int search = RED_ONE_BY_ONE; search <= RED_CHUNKS; search++) {
    RedSweep s;
    red_sweep_start(&s, (RedSearch)search, 9, 0);
    size_t na = red_sweep_ahead(&s, 9, ahead, 128);
    RedSweep copy = s;
    size_t k = 0;
    while (red_sweep_next(&copy, 9, &c)) {
      assert_true(k < na);
      assert_int_equal(c.lo, ahead[k].lo);
      assert_int_equal(c.hi, ahead[k].hi);
      k++;
    }
    assert_int_equal(k, na);
    assert_int_equal(na, search == RED_CHUNKS ? 1 + 2 + 3 + 5 + 9 : 9); /* sizes 9, 5, 3, 2, 1 */
  }
  for (int verdict = 0; verdict < 2; verdict++) {
    RedSweep s;
    red_sweep_start(&s, RED_FIRST, 100, 0);
    size_t na = red_sweep_ahead(&s, 100, ahead, 3);
    assert_int_equal(na, 3);
    assert_true(red_sweep_next(&s, 100, &c));
    assert_int_equal(c.lo, ahead[0].lo);
    red_sweep_verdict(&s, verdict);
    assert_true(red_sweep_next(&s, 100, &c));
    /* the side the last verdict went to comes first: left (interesting) is ahead[1] */
    assert_int_equal(c.lo, ahead[verdict ? 1 : 2].lo);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_chunks_every_pattern), cmocka_unit_test(test_chunks_logarithmic),
                                     cmocka_unit_test(test_resume), cmocka_unit_test(test_first_every_pattern),
                                     cmocka_unit_test(test_ahead)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
