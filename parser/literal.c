#include "literal.h"

#include <errno.h>
#include <stdio.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Leading '-' characters: TVM takes the parity of their count as the sign. */
static const char *sign_prefix(const char *t, bool *negative) {
  *negative = false;
  while (*t == '-') {
    *negative = !*negative;
    t++;
  }
  return t;
}

static bool width_suffix(const char *digits, int *bits, const char **err) {
  if (*digits == '\0') return true; /* no width: the default */
  if (!strcmp(digits, "16")) *bits = 16;
  else if (!strcmp(digits, "32")) *bits = 32;
  else if (!strcmp(digits, "64")) *bits = 64;
  else {
    *err = "unsupported literal width (Relay accepts 16, 32 or 64)";
    return false;
  }
  return true;
}

bool lit_int(const char *text, int64_t *value, int *bits, const char **err) {
  bool negative;
  const char *p = sign_prefix(text, &negative);
  uint64_t mag = 0;
  if (*p < '0' || *p > '9') {
    *err = "invalid integer literal";
    return false;
  }
  bool overflow = false;
  for (; *p >= '0' && *p <= '9'; p++) {
    unsigned d = (unsigned)(*p - '0');
    if (mag > (UINT64_MAX - d) / 10) overflow = true;
    else mag = mag * 10 + d;
  }
  int width = 0;
  if (*p == 'i') {
    if (!width_suffix(p + 1, &width, err)) return false;
    if (width == 0) width = 32;
  } else if (*p != '\0') {
    *err = "invalid integer literal";
    return false;
  }
  /* The magnitude limit of a width: 2^(bits-1) for negatives, one less for positives. */
  uint64_t limit64 = negative ? (uint64_t)1 << 63 : ((uint64_t)1 << 63) - 1;
  if (overflow || mag > limit64) {
    *err = "integer literal does not fit in 64 bits";
    return false;
  }
  if (width == 0) width = mag > (negative ? (uint64_t)1 << 31 : ((uint64_t)1 << 31) - 1) ? 64 : 32;
  uint64_t limit = negative ? (uint64_t)1 << (width - 1) : ((uint64_t)1 << (width - 1)) - 1;
  if (mag > limit) {
    *err = width == 16 ? "integer literal does not fit in int16" : width == 32 ? "integer literal does not fit in int32" : "integer literal does not fit in int64";
    return false;
  }
  *value = negative ? (int64_t)(0 - mag) : (int64_t)mag;
  *bits = width;
  return true;
}

bool lit_float(const char *text, double *value, int *bits, const char **err) {
  bool negative;
  const char *p = sign_prefix(text, &negative);
  int width = 32;
  double v;
  if (!strncmp(p, "inff", 4) && p[4] == '\0') {
    v = INFINITY;
  } else {
    char *end;
    errno = 0;
    v = strtod(p, &end);
    if (end == p || *end != 'f' || (*p < '0' || *p > '9')) {
      *err = "invalid float literal";
      return false;
    }
    if (!width_suffix(end + 1, &width, err)) return false;
    if (width == 0) width = 32;
    double max = width == 16 ? 65504.0 : width == 32 ? (double)FLT_MAX : DBL_MAX;
    if (errno == ERANGE && isinf(v)) v = INFINITY;
    if (!(v <= max)) {
      *err = width == 16 ? "float literal does not fit in float16" : width == 32 ? "float literal does not fit in float32" : "float literal does not fit in float64";
      return false;
    }
  }
  *value = negative ? -v : v;
  *bits = width;
  return true;
}

void lit_spell_int(int64_t value, int bits, char *buf) {
  snprintf(buf, LIT_SPELLING_MAX, "%lld%s", (long long)value, bits == 16 ? "i16" : bits == 64 ? "i64" : "");
}

void lit_spell_float(double value, int bits, char *buf) {
  const char *suffix = bits == 16 ? "f16" : bits == 64 ? "f64" : "f";
  if (isnan(value)) snprintf(buf, LIT_SPELLING_MAX, "nan%s", suffix);
  else if (isinf(value)) snprintf(buf, LIT_SPELLING_MAX, "%sinf%s", value < 0 ? "-" : "", suffix);
  else snprintf(buf, LIT_SPELLING_MAX, "%g%s", value, suffix); /* %g is C++'s default stream format */
}
