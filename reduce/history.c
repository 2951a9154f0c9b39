/* The reduction history as a git repository, written with libgit2: one commit per accepted step,
   each holding the program at that step, on the branch HEAD points at. */
#include "history.h"

#include <git2.h>
#include <stdio.h>
#include <string.h>

#include "../support/xalloc.h"

struct RedHistory {
  git_repository *repo;
  char *basename;
};

static bool fail(char *err, size_t errlen, const char *what) {
  const git_error *e = git_error_last();
  snprintf(err, errlen, "%s: %s", what, e && e->message ? e->message : "unknown libgit2 error");
  return false;
}

/* The blob of `basename` in HEAD's tree, compared with text; false when there is no HEAD. */
static bool head_holds(RedHistory *h, const char *text) {
  git_object *obj = NULL;
  char spec[1024];
  snprintf(spec, sizeof spec, "HEAD:%s", h->basename);
  if (git_revparse_single(&obj, h->repo, spec) != 0) return false;
  bool same = false;
  if (git_object_type(obj) == GIT_OBJECT_BLOB) {
    const git_blob *b = (const git_blob *)obj;
    same = (size_t)git_blob_rawsize(b) == strlen(text) && !memcmp(git_blob_rawcontent(b), text, strlen(text));
  }
  git_object_free(obj);
  return same;
}

RedHistory *red_history_open(const char *path, const char *basename, const char *text, char *err, size_t errlen) {
  git_libgit2_init();
  RedHistory *h = xcalloc(1, sizeof *h);
  h->basename = xstrdup(basename);
  if (git_repository_open_bare(&h->repo, path) != 0 && git_repository_init(&h->repo, path, 1) != 0) {
    fail(err, errlen, path);
    red_history_close(h);
    return NULL;
  }
  if (!head_holds(h, text) && !red_history_commit(h, text, "rreduce: the input", err, errlen)) {
    red_history_close(h);
    return NULL;
  }
  return h;
}

bool red_history_commit(RedHistory *h, const char *text, const char *message, char *err, size_t errlen) {
  git_oid blob, tree_id, commit;
  git_treebuilder *tb = NULL;
  git_tree *tree = NULL;
  git_signature *sig = NULL;
  git_commit *parent = NULL;
  git_object *head = NULL;
  bool ok = false;
  if (git_blob_create_from_buffer(&blob, h->repo, text, strlen(text)) != 0 ||
      git_treebuilder_new(&tb, h->repo, NULL) != 0 ||
      git_treebuilder_insert(NULL, tb, h->basename, &blob, GIT_FILEMODE_BLOB) != 0 ||
      git_treebuilder_write(&tree_id, tb) != 0 || git_tree_lookup(&tree, h->repo, &tree_id) != 0 ||
      git_signature_now(&sig, "rreduce", "rreduce@relaykit.invalid") != 0) {
    fail(err, errlen, "history");
    goto done;
  }
  if (git_revparse_single(&head, h->repo, "HEAD^{commit}") == 0) parent = (git_commit *)head;
  const git_commit *parents[1] = {parent};
  if (git_commit_create(&commit, h->repo, "HEAD", sig, sig, NULL, message, tree, parent ? 1 : 0, parents) != 0) {
    fail(err, errlen, "history commit");
    goto done;
  }
  ok = true;
done:
  git_object_free(head);
  git_signature_free(sig);
  git_tree_free(tree);
  git_treebuilder_free(tb);
  return ok;
}

void red_history_close(RedHistory *h) {
  if (!h) return;
  git_repository_free(h->repo);
  free(h->basename);
  free(h);
  git_libgit2_shutdown();
}
