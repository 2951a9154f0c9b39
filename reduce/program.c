/* A program the passes work on: parse + type (the guard), print, copy. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../typegen/infer.h"
#include "reduce.h"

bool red_program_load(RedProgram *p, const char *text, char *err, size_t errlen) {
  memset(p, 0, sizeof *p);
  Diag d;
  diag_init(&d, "candidate", text, strlen(text));
  bool ok = check_text(text, strlen(text), true, &p->m, &p->types, &d);
  if (!ok) snprintf(err, errlen, "%s", d.out.data ? d.out.data : "rejected");
  diag_free(&d);
  return ok;
}

void red_program_free(RedProgram *p) {
  ast_free(p->m);
  ty_table_free(p->types);
  memset(p, 0, sizeof *p);
}

char *red_program_print(const RedProgram *p, bool strip_annotations) {
  AstPrintOptions o = {.strip_types = strip_annotations || p->comments >= RED_COMMENTS_USER,
                       .strip_comments = p->comments == RED_COMMENTS_NONE};
  return ast_print(p->m, &o);
}

bool red_program_copy(const RedProgram *p, RedProgram *copy) {
  char *text = red_program_print(p, false);
  char err[256];
  bool ok = red_program_load(copy, text, err, sizeof err);
  copy->comments = p->comments;
  free(text);
  return ok;
}

bool red_program_adopt_if_typed(RedProgram *out, RedProgram *trial) {
  RedProgram checked;
  if (!red_program_copy(trial, &checked)) {
    red_program_free(trial);
    return false;
  }
  red_program_free(trial);
  red_program_free(out);
  *out = checked;
  return true;
}
