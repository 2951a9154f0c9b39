/* A program both tools work on: parse + type (the guard), print, copy, clone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../typegen/infer.h"
#include "program.h"

bool prog_check(Program *p, const char *text, bool expressions_ok, Diag *diag) {
  memset(p, 0, sizeof *p);
  return check_text(text, strlen(text), expressions_ok, &p->m, &p->types, diag);
}

bool prog_load(Program *p, const char *name, const char *text, bool expressions_ok, char *err, size_t errlen) {
  Diag d;
  diag_init(&d, name, text, strlen(text));
  bool ok = prog_check(p, text, expressions_ok, &d);
  if (!ok && err) snprintf(err, errlen, "%s", d.out.data ? d.out.data : "rejected");
  diag_free(&d);
  return ok;
}

void prog_free(Program *p) {
  ast_free(p->m);
  if (!p->shared_types) ty_table_free(p->types);
  memset(p, 0, sizeof *p);
}

char *prog_print(const Program *p, bool strip_annotations) {
  AstPrintOptions o = {.strip_types = strip_annotations || p->comments >= PROG_COMMENTS_USER,
                       .strip_comments = p->comments == PROG_COMMENTS_NONE};
  return ast_print(p->m, &o);
}

bool prog_copy(const Program *p, Program *copy) {
  char *text = prog_print(p, false);
  bool ok = prog_load(copy, "candidate", text, true, NULL, 0);
  copy->comments = p->comments;
  free(text);
  return ok;
}

void prog_clone(const Program *p, Program *clone) {
  *clone = (Program){ast_module_clone(p->m), p->types, true, p->comments};
}

bool prog_adopt_if_typed(Program *out, Program *trial) {
  Program checked;
  if (!prog_copy(trial, &checked)) {
    prog_free(trial);
    return false;
  }
  prog_free(trial);
  prog_free(out);
  *out = checked;
  return true;
}
