/* A bare git repository as a store of text files, written with libgit2: files are added to the
   next commit's tree (which starts as HEAD's), and each commit goes on top of HEAD.  rmutate's
   --git corpora (a commit per batch) and rreduce's --history (a commit per accepted step). */
#ifndef RELAYKIT_GIT_REPO_H
#define RELAYKIT_GIT_REPO_H

#include <stdbool.h>
#include <stddef.h>

typedef struct GitRepo GitRepo;

/* Opens or creates (bare) the repository; commits are signed by `author`. */
GitRepo *git_repo_open(const char *path, const char *author, char *err, size_t errlen);
/* Whether HEAD's tree holds `name` with exactly this text (false when there is no HEAD). */
bool git_repo_holds(GitRepo *g, const char *name, const char *text, size_t len);
/* Adds (or replaces) a file in the next commit. */
bool git_repo_add(GitRepo *g, const char *name, const char *text, size_t len, char *err, size_t errlen);
/* Commits on top of HEAD with `message`. */
bool git_repo_commit(GitRepo *g, const char *message, char *err, size_t errlen);
void git_repo_close(GitRepo *g);

#endif
