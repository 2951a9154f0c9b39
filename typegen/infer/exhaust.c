/*
 * Exhaustiveness by the usefulness algorithm on pattern matrices (Maranget, "Warnings for pattern
 * matching", 2007): a match is exhaustive when a row of wildcards is not useful after its arms.
 * Rows are vectors of patterns (NULL is a wildcard); columns carry the types that say which
 * constructors a column can hold.
 */
#include "infer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../support/strbuf.h"
#include "../../support/xalloc.h"

typedef struct Matrix {
  AstPattern ***rows; /* rows[r][c] */
  size_t nrows, ncols;
} Matrix;

static bool is_wild(const AstPattern *p) { return !p || p->kind == AST_PAT_WILDCARD || p->kind == AST_PAT_VAR; }

static void matrix_free(Matrix *m) {
  for (size_t r = 0; r < m->nrows; r++) free(m->rows[r]);
  free(m->rows);
}

/* Rows whose first column can hold constructor/tuple `head` (with `arity` fields), the first
   column replaced by its fields.  head NULL with tuple=true means a tuple pattern. */
static Matrix specialize(const Matrix *m, const char *head, bool tuple, size_t arity) {
  Matrix out = {xmalloc((m->nrows ? m->nrows : 1) * sizeof *out.rows), 0, m->ncols - 1 + arity};
  for (size_t r = 0; r < m->nrows; r++) {
    AstPattern *p = m->rows[r][0];
    AstPattern **row = xcalloc(out.ncols ? out.ncols : 1, sizeof *row);
    if (is_wild(p)) {
      /* wildcards for every field */
    } else if ((tuple && p->kind == AST_PAT_TUPLE && p->nitems == arity) ||
               (!tuple && p->kind == AST_PAT_CTOR && !strcmp(p->name, head))) {
      for (size_t i = 0; i < arity && i < p->nitems; i++) row[i] = p->items[i];
    } else {
      free(row);
      continue;
    }
    memcpy(row + arity, m->rows[r] + 1, (m->ncols - 1) * sizeof *row);
    out.rows[out.nrows++] = row;
  }
  return out;
}

/* Rows whose first column is a wildcard, without that column. */
static Matrix defaults(const Matrix *m) {
  Matrix out = {xmalloc((m->nrows ? m->nrows : 1) * sizeof *out.rows), 0, m->ncols - 1};
  for (size_t r = 0; r < m->nrows; r++) {
    if (!is_wild(m->rows[r][0])) continue;
    AstPattern **row = xcalloc(out.ncols ? out.ncols : 1, sizeof *row);
    memcpy(row, m->rows[r] + 1, out.ncols * sizeof *row);
    out.rows[out.nrows++] = row;
  }
  return out;
}

/* Is some value of types[0..ncols) matched by no row?  If so, describes it (its first column). */
static bool has_unmatched(const Matrix *m, const Type *const *types, const AdtInfo *adts, StrBuf *example) {
  /* No row left: every value of the remaining columns is unmatched (and recursive ADTs stop here). */
  if (m->nrows == 0) {
    if (example->len == 0) sb_puts(example, "_");
    return true;
  }
  if (m->ncols == 0) return false;
  const Type *t = types[0];
  bool result = false;
  if (t->kind == TY_CALL) {
    const char *const *names;
    const Type *const *const *fields;
    const size_t *nfields;
    size_t n = adts->ctors(adts->ctx, t->name, &names, &fields, &nfields);
    /* Maranget's rule: split on constructors only when the column names all of them; otherwise
       the values of the missing ones are matched exactly by the wildcard rows (the default). */
    size_t absent = n;
    for (size_t c = 0; c < n; c++) {
      bool seen = false;
      for (size_t r = 0; r < m->nrows && !seen; r++)
        seen = !is_wild(m->rows[r][0]) && m->rows[r][0]->kind == AST_PAT_CTOR && !strcmp(m->rows[r][0]->name, names[c]);
      if (!seen) {
        absent = c;
        break;
      }
    }
    if (n > 0 && absent == n) {
      for (size_t c = 0; c < n && !result; c++) {
        Matrix s = specialize(m, names[c], false, nfields[c]);
        const Type **sub = xmalloc((s.ncols ? s.ncols : 1) * sizeof *sub);
        for (size_t i = 0; i < nfields[c]; i++) sub[i] = fields[c][i];
        memcpy(sub + nfields[c], types + 1, (m->ncols - 1) * sizeof *sub);
        StrBuf inner;
        sb_init(&inner);
        if (has_unmatched(&s, sub, adts, &inner)) {
          result = true;
          sb_puts(example, names[c]);
          /* the fields' own examples are not tracked column by column: show wildcards */
          for (size_t i = 0; i < nfields[c]; i++) sb_puts(example, i ? ", _" : "(_");
          if (nfields[c]) sb_putc(example, ')');
        }
        sb_free(&inner);
        free(sub);
        matrix_free(&s);
      }
      return result;
    }
    if (n > 0) {
      Matrix d = defaults(m);
      StrBuf inner;
      sb_init(&inner);
      result = has_unmatched(&d, types + 1, adts, &inner);
      sb_free(&inner);
      matrix_free(&d);
      if (result) {
        sb_puts(example, names[absent]);
        for (size_t i = 0; i < nfields[absent]; i++) sb_puts(example, i ? ", _" : "(_");
        if (nfields[absent]) sb_putc(example, ')');
      }
      return result;
    }
  } else if (t->kind == TY_TUPLE) {
    bool any_tuple = false;
    for (size_t r = 0; r < m->nrows; r++) any_tuple |= !is_wild(m->rows[r][0]);
    if (any_tuple) {
      Matrix s = specialize(m, NULL, true, t->nargs);
      const Type **sub = xmalloc((s.ncols ? s.ncols : 1) * sizeof *sub);
      memcpy(sub, t->args, t->nargs * sizeof *sub);
      memcpy(sub + t->nargs, types + 1, (m->ncols - 1) * sizeof *sub);
      result = has_unmatched(&s, sub, adts, example);
      if (result && example->len == 0) sb_puts(example, "a tuple");
      free(sub);
      matrix_free(&s);
      return result;
    }
  }
  /* Tensors, functions, type variables: only a wildcard covers them. */
  Matrix d = defaults(m);
  result = has_unmatched(&d, types + 1, adts, example);
  if (result && example->len == 0) sb_puts(example, "_");
  matrix_free(&d);
  return result;
}

bool match_is_exhaustive(AstMatchArm *const *arms, size_t narms, const Type *scrutinee, const AdtInfo *adts,
                         char *missing, size_t missing_len) {
  Matrix m = {xmalloc((narms ? narms : 1) * sizeof *m.rows), narms, 1};
  for (size_t i = 0; i < narms; i++) {
    m.rows[i] = xmalloc(sizeof *m.rows[i]);
    m.rows[i][0] = arms[i]->pattern;
  }
  StrBuf example;
  sb_init(&example);
  bool unmatched = has_unmatched(&m, &scrutinee, adts, &example);
  snprintf(missing, missing_len, "%s", example.data ? example.data : "_");
  sb_free(&example);
  matrix_free(&m);
  return !unmatched;
}
