/* --git corpus.git: mutants committed into a git repository with libgit2, one commit per batch,
   the manifest in the commit message, so corpora are shareable and deduplicated by git. */
#ifndef RELAYKIT_CORPUS_GIT_H
#define RELAYKIT_CORPUS_GIT_H

#include <stdbool.h>
#include <stddef.h>

typedef struct CorpusGit CorpusGit;

/* Opens or creates (bare) the repository; its HEAD tree is the starting point of the next commit. */
CorpusGit *corpus_git_open(const char *path, char *err, size_t errlen);
/* Adds (or replaces) a file in the batch being built. */
bool corpus_git_add(CorpusGit *g, const char *name, const char *text, size_t len, char *err, size_t errlen);
/* Commits the batch on top of HEAD with `message`. */
bool corpus_git_commit(CorpusGit *g, const char *message, char *err, size_t errlen);
void corpus_git_close(CorpusGit *g);

#endif
