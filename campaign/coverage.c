/*
 * TVM's edge coverage as feedback (issue 32): the edges a program reached, as the oracle's
 * outcome says them (interestingness/PROTOCOL.md, "coverage": ascending edge indices, their gaps
 * in LEB128, base64), and the campaign's union of them, kept in CAMPAIGN/coverage.edges in the
 * same encoding (without base64), saved with campaign.json.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/fileio.h"
#include "campaign.h"

enum { EDGES_MAX = 1 << 28 }; /* far beyond any build's counters: a larger index is garbage */

const char *const fuzz_feedback_names[4] = {"auto", "features", "coverage", "both"};

void fuzz_edges_free(FuzzEdges *e) {
  free(e->bits);
  memset(e, 0, sizeof *e);
}

bool fuzz_edges_has(const FuzzEdges *e, uint32_t i) {
  return (size_t)i / 8 < e->cap && (e->bits[i / 8] >> (i % 8) & 1);
}

bool fuzz_edges_add(FuzzEdges *e, uint32_t i) {
  if ((size_t)i / 8 >= e->cap) {
    size_t cap = e->cap ? e->cap : 1024;
    while (cap <= (size_t)i / 8) cap *= 2;
    e->bits = xrealloc(e->bits, cap);
    memset(e->bits + e->cap, 0, cap - e->cap);
    e->cap = cap;
  }
  if (fuzz_edges_has(e, i)) return false;
  e->bits[i / 8] |= (uint8_t)(1u << (i % 8));
  e->count++;
  return true;
}

/* base64 (RFC 4648, padded or not) into out; false on a byte that is not base64. */
static bool base64_decode(const char *s, uint8_t **out, size_t *n) {
  size_t len = strlen(s);
  *out = xmalloc(len / 4 * 3 + 3);
  *n = 0;
  uint32_t acc = 0;
  int bits = 0;
  for (size_t i = 0; i < len; i++) {
    char ch = s[i];
    int v = ch >= 'A' && ch <= 'Z' ? ch - 'A' : ch >= 'a' && ch <= 'z' ? ch - 'a' + 26 : ch >= '0' && ch <= '9' ? ch - '0' + 52
            : ch == '+' ? 62 : ch == '/' ? 63 : ch == '=' ? -2 : -1;
    if (v == -2) break;
    if (v < 0) return false;
    acc = acc << 6 | (uint32_t)v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      (*out)[(*n)++] = (uint8_t)(acc >> bits);
    }
  }
  return true;
}

/* Ascending indices from their LEB128 gaps; false when an index runs past EDGES_MAX or a number
   is cut short. */
static bool gaps_decode(const uint8_t *b, size_t n, uint32_t **out, size_t *count) {
  *out = xmalloc((n + 1) * sizeof **out);
  *count = 0;
  uint64_t last = (uint64_t)-1, gap = 0;
  unsigned shift = 0;
  for (size_t i = 0; i < n; i++) {
    if (shift > 35) return false;
    gap |= (uint64_t)(b[i] & 0x7F) << shift;
    shift += 7;
    if (b[i] & 0x80) continue;
    last = last + gap + 1;
    if (last >= EDGES_MAX) return false;
    (*out)[(*count)++] = (uint32_t)last;
    gap = 0, shift = 0;
  }
  return shift == 0;
}

bool fuzz_edges_decode(const char *b64, uint32_t **out, size_t *n) {
  uint8_t *raw;
  size_t len;
  *out = NULL;
  *n = 0;
  bool ok = base64_decode(b64, &raw, &len) && gaps_decode(raw, len, out, n);
  free(raw);
  if (!ok) {
    free(*out);
    *out = NULL;
    *n = 0;
  }
  return ok;
}

bool fuzz_coverage_read(const char *outcome, FuzzCoverage *cov) {
  memset(cov, 0, sizeof *cov);
  json_t *o = outcome ? json_loads(outcome, 0, NULL) : NULL;
  json_t *c = json_object_get(o, "coverage");
  bool ok = true;
  if (json_is_object(c)) {
    json_t *set = json_object_get(c, "set"), *total = json_object_get(c, "total");
    cov->present = true;
    cov->total = json_is_integer(total) && json_integer_value(total) > 0 ? (size_t)json_integer_value(total) : 0;
    ok = json_is_string(set) && fuzz_edges_decode(json_string_value(set), &cov->edges, &cov->n);
  } else if (c && !json_is_null(c)) {
    ok = false; /* a coverage field that is not an object: garbage */
  }
  json_decref(o);
  if (!ok) fuzz_coverage_free(cov);
  return ok;
}

void fuzz_coverage_free(FuzzCoverage *cov) {
  free(cov->edges);
  memset(cov, 0, sizeof *cov);
}

size_t fuzz_coverage_new(const FuzzEdges *seen, const FuzzCoverage *cov) {
  size_t n = 0;
  for (size_t i = 0; i < cov->n; i++) n += !fuzz_edges_has(seen, cov->edges[i]);
  return n;
}

size_t fuzz_coverage_add(FuzzEdges *seen, const FuzzCoverage *cov) {
  size_t n = 0;
  for (size_t i = 0; i < cov->n; i++) n += fuzz_edges_add(seen, cov->edges[i]);
  return n;
}

/* ------------------------------------------------------------------ the campaign's file */

bool fuzz_edges_save(const FuzzEdges *e, const char *path, char *err, size_t errlen) {
  uint8_t *buf = xmalloc(e->count * 5 + 1);
  size_t n = 0;
  int64_t last = -1;
  for (size_t byte = 0; byte < e->cap; byte++) {
    if (!e->bits[byte]) continue;
    for (unsigned bit = 0; bit < 8; bit++) {
      if (!(e->bits[byte] >> bit & 1)) continue;
      int64_t i = (int64_t)(byte * 8 + bit);
      uint64_t gap = (uint64_t)(i - last - 1);
      last = i;
      do {
        uint8_t b = gap & 0x7F;
        gap >>= 7;
        buf[n++] = b | (gap ? 0x80 : 0);
      } while (gap);
    }
  }
  bool ok = file_replace(path, (const char *)buf, n);
  if (!ok) snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
  free(buf);
  return ok;
}

bool fuzz_edges_load(FuzzEdges *e, const char *path, char *err, size_t errlen) {
  size_t len;
  char *raw = file_read(path, &len);
  if (!raw) {
    snprintf(err, errlen, "cannot read %s (the campaign's coverage)", path);
    return false;
  }
  uint32_t *edges;
  size_t n;
  bool ok = gaps_decode((const uint8_t *)raw, len, &edges, &n);
  if (ok)
    for (size_t i = 0; i < n; i++) fuzz_edges_add(e, edges[i]);
  else
    snprintf(err, errlen, "%s is damaged (not the campaign's coverage)", path);
  free(edges);
  free(raw);
  return ok;
}
