/*
 * Every TVM the user has (rfuzz --tvm, roracle --tvm): other TVM builds, named by TVM_HOME (and
 * TVM_LIBRARY_PATH), each known by the release its python/tvm/_ffi/libinfo.py says; a failing
 * program is asked again of each, through the same check started with that TVM on its path
 * (TVM_HOME, PYTHONPATH, TVM_LIBRARY_PATH, and RELAYKIT_TVM_VERSION for relaykit's tools), and the
 * answer said in a few words: "v0.19.0: fails", "v0.19.0: passes (fixed by v0.19.0)", "v0.19.0:
 * not comparable (this release cannot read the program: ...)", never "fixed" for a program a
 * release cannot read.
 */
#ifndef RELAYKIT_TVMS_H
#define RELAYKIT_TVMS_H

#include <stdbool.h>
#include <stddef.h>

#include "../support/strbuf.h"
#include "../support/xalloc.h"
#include "outcome.h"

typedef struct Tvm {
  char *home;    /* TVM_HOME: the source tree, python/ in it */
  char *lib;     /* where its libtvm.so is (TVM_LIBRARY_PATH) */
  char *version; /* its tvm.__version__, read from python/tvm/_ffi/libinfo.py */
} Tvm;
typedef VEC(Tvm) Tvms;

/* Adds the TVM that SPEC (HOME or HOME:LIBRARY_PATH) names; false with a message (saying what is
   expected) when it is no TVM (no version), not built (no libtvm.so in LIBRARY_PATH, HOME/build
   or HOME/lib), or a release already given. */
bool tvm_add(Tvms *t, const char *spec, char *err, size_t errlen);
void tvms_free(Tvms *t);

/* How a program is checked: an oracle server (with the program's args side file, or none) or a
   command test, as rfuzz and roracle run them. */
typedef struct TvmCheck {
  const char *server; /* a server command, or NULL */
  const char *args;   /* the args side file's text (server with --args-beside), or NULL */
  const char *test;   /* a command test, when server is NULL */
  const char *basename;
  double timeout;     /* seconds; 0: 300 */
} TvmCheck;

/* Whether group keys a and b are one failure: one key but for TVM's frames (after " @ "), which
   move between releases, and which one release's message may lack. */
bool tvm_same_failure(const char *a, const char *b);

/* Appends to out what each TVM says of program `text` ("; " between): compared with `key`, the
   group key it failed with first (fail_group_key), and `base`, the release that key came from
   ("0.13.0": a newer release where it passes fixed it). */
void tvm_verdicts(const Tvms *tvms, const TvmCheck *check, const char *text, const char *key, const char *base,
                  StrBuf *out);

#endif
