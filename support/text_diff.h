/* A unified diff of two texts (libgit2's, no diff process): rreduce --print-diff shows each
   accepted step this way. */
#ifndef RELAYKIT_TEXT_DIFF_H
#define RELAYKIT_TEXT_DIFF_H

/* `diff -u a/NAME b/NAME` of before and after (malloc'd; "" when they are equal), or NULL when
   libgit2 fails.  Nothing to set up first: libgit2 is made ready on the first diff (libgit.h). */
char *text_diff(const char *before, const char *after, const char *name);

#endif
