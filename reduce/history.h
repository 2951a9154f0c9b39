/* --history DIR.git: every accepted step of a reduction as a commit (libgit2), so `git log -p`
   tells the story of the reduction. */
#ifndef RELAYKIT_HISTORY_H
#define RELAYKIT_HISTORY_H

#include <stdbool.h>
#include <stddef.h>

typedef struct RedHistory RedHistory;

/* Opens (or creates, bare) the repository at `path`; the program is stored as `basename`.  When
   the repository is new, or its last commit holds another program, `text` is committed first as
   the starting point.  NULL with a message on failure. */
RedHistory *red_history_open(const char *path, const char *basename, const char *text, char *err, size_t errlen);
/* Commits `text` with `message` on top of the last commit. */
bool red_history_commit(RedHistory *h, const char *text, const char *message, char *err, size_t errlen);
void red_history_close(RedHistory *h);

#endif
