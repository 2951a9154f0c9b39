/* rfmt: print Relay text in TVM's canonical layout. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/cli.h"
#include "../support/fileio.h"
#include "../support/xalloc.h"
#include "ast.h"
#include "join.h"

static const char usage[] =
    "usage: rfmt [options] FILE...\n"
    "Prints Relay text (TVM's text format 0.0.5) in the canonical layout TVM's printer writes.\n"
    "FILE may be '-' for standard input.\n"
    "\n"
    "options:\n"
    "  -i, --in-place     rewrite each FILE (atomically) instead of printing it\n"
    "      --check        print nothing; exit 1 and name each FILE that is not canonical\n"
    "      --strip-types  drop the /* ty=... */ and /* span=... */ comments TVM writes\n"
    "      --ast          print the syntax tree as an S-expression (no spans, no comments)\n"
    "      --join         print ONE module made of every FILE: their definitions (a global\n"
    "                     renamed NAME_K when an earlier FILE has it), and an @main that takes\n"
    "                     every @main's parameters and returns the tuple of their results;\n"
    "                     a repro joined to a model makes a large test case for rreduce\n"
    "  -h, --help         show this help\n"
    "\n"
    "exit status: 0 success, 1 an input was rejected or is not canonical (--check),\n"
    "             2 usage or I/O error\n";

enum { OPT_CHECK = 256, OPT_STRIP, OPT_AST, OPT_JOIN, OPT_VERSION };

typedef struct Options {
  bool in_place, check, ast, join;
  AstPrintOptions print;
} Options;

/* Formats one file; returns the exit status for it. */
static int format_file(const char *path, const Options *o) {
  size_t len;
  char *text = file_read(path, &len);
  if (!text) return 2;
  Diag diag;
  diag_init(&diag, strcmp(path, "-") ? path : "<stdin>", text, len);
  AstModule *m = ast_parse(text, len, &diag);
  int status = 0;
  if (!m) {
    fputs(diag.out.data ? diag.out.data : "rfmt: parse failed\n", stderr);
    status = 1;
  } else {
    char *out = o->ast ? ast_dump(m) : ast_print(m, &o->print);
    size_t out_len = strlen(out);
    if (o->check) {
      if (out_len != len || memcmp(out, text, len) != 0) {
        fprintf(stderr, "%s: not in canonical form\n", path);
        status = 1;
      }
    } else if (o->in_place && strcmp(path, "-") != 0) {
      if ((out_len != len || memcmp(out, text, len) != 0) && !file_replace(path, out, out_len)) status = 2;
    } else if (fwrite(out, 1, out_len, stdout) != out_len || fflush(stdout) != 0) {
      status = 2; /* cli_exit says so */
    }
    free(out);
    ast_free(m);
  }
  diag_free(&diag);
  free(text);
  return status;
}

/* rfmt --join: every file parsed, then one module printed (without TVM's annotations: the
   joined program's types are for the checker to find). */
static int join_files(char **paths, int n, const Options *o) {
  char **texts = xcalloc((size_t)n, sizeof *texts);
  Diag *diags = xcalloc((size_t)n, sizeof *diags);
  AstModule **mods = xcalloc((size_t)n, sizeof *mods);
  int status = 0;
  for (int i = 0; i < n && !status; i++) {
    size_t len;
    texts[i] = file_read(paths[i], &len);
    if (!texts[i]) {
      status = 2;
      break;
    }
    diag_init(&diags[i], strcmp(paths[i], "-") ? paths[i] : "<stdin>", texts[i], len);
    mods[i] = ast_parse(texts[i], len, &diags[i]);
    if (!mods[i]) {
      fputs(diags[i].out.data ? diags[i].out.data : "rfmt: parse failed\n", stderr);
      status = 1;
    }
  }
  if (!status) {
    char err[512];
    AstModule *joined = ast_join(mods, (size_t)n, err, sizeof err);
    if (!joined) {
      fprintf(stderr, "rfmt: cannot join: %s\n", err);
      status = 1;
    } else {
      AstPrintOptions print = o->print;
      print.strip_types = true;
      char *out = ast_print(joined, &print);
      size_t out_len = strlen(out);
      if (fwrite(out, 1, out_len, stdout) != out_len || fflush(stdout) != 0) {
        status = 2; /* cli_exit says so */
      }
      free(out);
      ast_free(joined);
    }
  }
  for (int i = 0; i < n; i++) {
    if (mods[i]) ast_free(mods[i]);
    if (texts[i]) diag_free(&diags[i]); /* initialised exactly when read */
    free(texts[i]);
  }
  free(texts), free(diags), free(mods);
  return status;
}

int main(int argc, char **argv) {
  static const struct option longopts[] = {
      {"in-place", no_argument, NULL, 'i'},  {"check", no_argument, NULL, OPT_CHECK},
      {"strip-types", no_argument, NULL, OPT_STRIP}, {"ast", no_argument, NULL, OPT_AST}, {"join", no_argument, NULL, OPT_JOIN},
      {"help", no_argument, NULL, 'h'}, {"version", no_argument, NULL, OPT_VERSION},      {NULL, 0, NULL, 0},
  };
  Options o = {0};
  int c;
  cli_name(argv, "rfmt");
  while ((c = getopt_long(argc, argv, "ih", longopts, NULL)) != -1) {
    switch (c) {
    case 'i': o.in_place = true; break;
    case OPT_CHECK: o.check = true; break;
    case OPT_STRIP: o.print.strip_types = true; break;
    case OPT_AST: o.ast = true; break;
    case OPT_JOIN: o.join = true; break;
    case OPT_VERSION: return cli_exit(cli_version("rfmt"));
    case 'h': fputs(usage, stdout); return cli_exit(0);
    default: return cli_bad_option("rfmt");
    }
  }
  if (optind >= argc) {
    fputs("rfmt: no input files (use '-' for standard input)\n", stderr);
    fputs(usage, stderr);
    return 2;
  }
  if (o.in_place && (o.check || o.ast)) {
    fputs("rfmt: -i cannot be combined with --check or --ast\n", stderr);
    return 2;
  }
  if (o.join && (o.in_place || o.check || o.ast)) {
    fputs("rfmt: --join cannot be combined with -i, --check or --ast\n", stderr);
    return 2;
  }
  if (o.join) return cli_exit(join_files(argv + optind, argc - optind, &o));
  int status = 0;
  for (int i = optind; i < argc; i++) {
    int s = format_file(argv[i], &o);
    if (s > status) status = s;
  }
  return cli_exit(status);
}
