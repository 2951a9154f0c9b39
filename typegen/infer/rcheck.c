/* rcheck: parse and type-check Relay text; print inferred types. */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../support/cli.h"
#include "../../support/fileio.h"
#include "infer.h"

static const char usage[] =
    "usage: rcheck [options] FILE...\n"
    "Parses and type-checks Relay text (TVM's text format 0.0.5) as TVM's InferType does.\n"
    "FILE may be '-' for standard input.\n"
    "\n"
    "options:\n"
    "      --annotate   print the program with the inferred types as /* ty=... */ comments,\n"
    "                   where and as TVM's printer writes them\n"
    "      --json       print the type of every definition, parameter and binding as JSON\n"
    "      --tvm-strict also reject what TVM's parser rejects before typing: a call that leaves\n"
    "                   out an attribute TVM requires written out (nn.dense's units,\n"
    "                   strided_slice's axes: write units=None); by default its default is taken\n"
    "      --list-ops   print every operator the type checker knows, one a line, and exit (the\n"
    "                   chosen TVM release's Relay operators but two internal ones; a call of\n"
    "                   one it does not know is typed from its ty= comment or what pins its\n"
    "                   type, with a warning, or refused)\n"
    OP_TVM_VERSION_HELP
    "  -h, --help       show this help\n"
    "\n"
    "exit status: 0 well-typed, 1 a program was rejected (syntax or type error), 2 usage or I/O error\n";

enum { OPT_ANNOTATE = 256, OPT_JSON, OPT_LIST_OPS, OPT_STRICT, OPT_VERSION };

static char *type_text(const struct Type *t, size_t max) { return ty_str_upto(t, max); }

static json_t *type_json(const Type *t) {
  if (!t) return json_null();
  char *s = ty_str(t);
  json_t *j = json_string(s);
  free(s);
  return j;
}

static json_t *binding_json(const char *sigil, const char *name, const AstSpan *span, const Type *t) {
  char *full = malloc(strlen(name) + 2);
  sprintf(full, "%s%s", sigil, name);
  json_t *j = json_pack("{s:s, s:i, s:i, s:o}", "name", full, "line", (json_int_t)span->line, "col",
                        (json_int_t)span->col, "type", type_json(t));
  free(full);
  return j;
}

/* Bindings of a body, in order, including those of nested functions, lets and match arms. */
static void collect(const AstExpr *e, json_t *out);

static void collect_func(const AstFunc *f, json_t *out) {
  for (size_t i = 0; i < f->nparams; i++)
    json_array_append_new(out, binding_json("%", f->params[i]->name, &f->params[i]->node.span, f->params[i]->node.type));
  collect(f->body, out);
}

static void collect(const AstExpr *e, json_t *out) {
  if (!e) return;
  for (size_t i = 0; i < e->nstmts; i++) {
    const AstStmt *s = e->stmts[i];
    if (s->kind == AST_STMT_LET || s->kind == AST_STMT_FREE)
      json_array_append_new(out, binding_json("%", s->binder->name, &s->binder->node.span, s->binder->node.type));
    else if (s->kind == AST_STMT_GRAPH) json_array_append_new(out, binding_json("%", s->graph, &s->node.span, s->value_type));
    collect(s->value, out);
  }
  if (e->kind == AST_FN) {
    collect_func(e->fn, out);
    return;
  }
  if (e->kind == AST_SEQ) { /* its bindings came first, above */
    collect(e->a, out);
    return;
  }
  AstExpr **child;
  for (AstChildren it = ast_children((AstExpr *)e); (child = ast_next_child(&it));) collect(*child, out);
}

static json_t *module_json(const char *path, const AstModule *m) {
  json_t *defs = json_array();
  for (size_t i = 0; i < m->ndefs; i++) {
    const AstDef *d = m->defs[i];
    if (d->kind != AST_DEF_FN) continue;
    json_t *bindings = json_array();
    collect_func(d->fn, bindings);
    json_array_append_new(defs, json_pack("{s:s, s:o, s:o}", "name", d->name, "type", type_json(d->fn->type),
                                          "bindings", bindings));
  }
  json_t *j = json_pack("{s:s, s:s, s:o}", "file", path, "tvm_version", op_tvm_name(), "definitions", defs);
  if (m->body) {
    json_t *bindings = json_array();
    collect(m->body, bindings);
    json_object_set_new(j, "bindings", bindings);
  }
  return j;
}

static int check_file(const char *path, bool annotate, json_t *report) {
  size_t len;
  char *text = file_read(path, &len);
  if (!text) return 2;
  Diag diag;
  diag_init(&diag, strcmp(path, "-") ? path : "<stdin>", text, len);
  AstModule *m;
  TyTable *types;
  int status = 0;
  if (!check_text(text, len, true, &m, &types, &diag)) {
    fputs(diag.out.data ? diag.out.data : "rcheck: rejected\n", stderr);
    status = 1;
  } else if (diag.warnings && diag.out.data) {
    fputs(diag.out.data, stderr); /* accepted with warnings (unknown operators typed by comments) */
  }
  if (status == 0 && annotate) {
    /* TVM's parser runs InferType in module mode only: a parsed expression prints without types. */
    AstPrintOptions o = {.type_text = m->body ? NULL : type_text};
    char *out = ast_print(m, &o);
    fputs(out, stdout);
    free(out);
  } else if (status == 0 && report) {
    json_array_append_new(report, module_json(diag.file, m));
  }
  ast_free(m);
  ty_table_free(types);
  diag_free(&diag);
  free(text);
  return status;
}

/* What the command line asks for. */
typedef struct RcheckOptions {
  bool annotate, json;
} RcheckOptions;

/* --list-ops: every operator of the registry, sorted by name. */
static int list_ops(void) {
  size_t n;
  const OpDef *const *ops = op_all(&n);
  for (size_t k = 0; k < n; k++) puts(ops[k]->name);
  return 0;
}

/* Reads the options (leaving optind at the first file); -1 to go on, else the exit status (help,
   version, --list-ops, a usage error). */
static int parse_options(int argc, char **argv, RcheckOptions *o) {
  static const struct option longopts[] = {
      {"annotate", no_argument, NULL, OPT_ANNOTATE}, {"json", no_argument, NULL, OPT_JSON},
      {"list-ops", no_argument, NULL, OPT_LIST_OPS}, {"tvm-strict", no_argument, NULL, OPT_STRICT},
      {"help", no_argument, NULL, 'h'},              {"version", no_argument, NULL, OPT_VERSION},
      OP_TVM_VERSION_OPTION,                         {NULL, 0, NULL, 0},
  };
  bool list = false; /* after every option: --tvm-version may follow it */
  int c;
  cli_name(argv, "rcheck");
  while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
    switch (c) {
    case OPT_ANNOTATE: o->annotate = true; break;
    case OPT_STRICT: op_require_written(true); break;
    case OPT_JSON: o->json = true; break;
    case OPT_LIST_OPS: list = true; break;
    case OP_OPT_TVM_VERSION:
      if (!op_tvm_option(optarg)) return 2;
      break;
    case OPT_VERSION: return op_tvm_print_version("rcheck");
    case 'h': fputs(usage, stdout); return 0;
    default: return cli_bad_option("rcheck");
    }
  }
  if (list) return list_ops();
  if (optind >= argc) {
    fputs("rcheck: no input files (use '-' for standard input)\n", stderr);
    fputs(usage, stderr);
    return 2;
  }
  if (o->annotate && o->json) {
    fputs("rcheck: --annotate and --json cannot be combined\n", stderr);
    return 2;
  }
  return -1;
}

/* Checks every file, then prints the --json report; the worst status of them. */
static int check_files(char *const *files, int n, const RcheckOptions *o) {
  json_t *report = o->json ? json_array() : NULL;
  int status = 0;
  for (int i = 0; i < n; i++) {
    int s = check_file(files[i], o->annotate, report);
    if (s > status) status = s;
  }
  if (report) {
    json_dumpf(report, stdout, JSON_INDENT(2));
    fputc('\n', stdout);
    json_decref(report);
  }
  return status;
}

int main(int argc, char **argv) {
  RcheckOptions o = {0};
  int status = parse_options(argc, argv, &o);
  ast_parse_for(AST_TOOL_CHECK); /* for the memory an input needs */
  return cli_exit(status >= 0 ? status : check_files(argv + optind, argc - optind, &o));
}
