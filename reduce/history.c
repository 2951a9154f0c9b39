/* The reduction history: a git repository (support/git_repo.c) with one commit per accepted step,
   each holding the program at that step. */
#include "history.h"

#include <stdlib.h>
#include <string.h>

#include "../support/git_repo.h"
#include "../support/xalloc.h"

struct RedHistory {
  GitRepo *repo;
  char *basename;
};

RedHistory *red_history_open(const char *path, const char *basename, const char *text, char *err, size_t errlen) {
  RedHistory *h = xcalloc(1, sizeof *h);
  h->basename = xstrdup(basename);
  h->repo = git_repo_open(path, "rreduce", err, errlen);
  if (!h->repo || (!git_repo_holds(h->repo, basename, text, strlen(text)) &&
                   !red_history_commit(h, text, "rreduce: the input", err, errlen))) {
    red_history_close(h);
    return NULL;
  }
  return h;
}

bool red_history_commit(RedHistory *h, const char *text, const char *message, char *err, size_t errlen) {
  return git_repo_add(h->repo, h->basename, text, strlen(text), err, errlen) &&
         git_repo_commit(h->repo, message, err, errlen);
}

void red_history_close(RedHistory *h) {
  if (!h) return;
  git_repo_close(h->repo);
  free(h->basename);
  free(h);
}
