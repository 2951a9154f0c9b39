/* rfmt: print Relay text in TVM's canonical layout. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/cli.h"
#include "../support/fileio.h"
#include "ast.h"

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
    "  -h, --help         show this help\n"
    "\n"
    "exit status: 0 success, 1 an input was rejected or is not canonical (--check),\n"
    "             2 usage or I/O error\n";

enum { OPT_CHECK = 256, OPT_STRIP, OPT_AST, OPT_VERSION };

typedef struct Options {
  bool in_place, check, ast;
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
      fprintf(stderr, "rfmt: cannot write to standard output\n");
      status = 2;
    }
    free(out);
    ast_free(m);
  }
  diag_free(&diag);
  free(text);
  return status;
}

int main(int argc, char **argv) {
  static const struct option longopts[] = {
      {"in-place", no_argument, NULL, 'i'},  {"check", no_argument, NULL, OPT_CHECK},
      {"strip-types", no_argument, NULL, OPT_STRIP}, {"ast", no_argument, NULL, OPT_AST},
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
    case OPT_VERSION: return cli_version("rfmt");
    case 'h': fputs(usage, stdout); return 0;
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
  int status = 0;
  for (int i = optind; i < argc; i++) {
    int s = format_file(argv[i], &o);
    if (s > status) status = s;
  }
  fflush(stdout);
  return status;
}
