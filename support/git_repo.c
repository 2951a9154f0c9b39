/* Text files in a bare git repository (libgit2): see git_repo.h. */
#include "git_repo.h"

#include <git2.h>
#include <stdio.h>
#include <stdlib.h>

#include <string.h>

#include "libgit.h"
#include "xalloc.h"

struct GitRepo {
  git_repository *repo;
  git_treebuilder *tb;
  char *author;
};

static bool fail(char *err, size_t errlen, const char *what) {
  const git_error *e = git_error_last();
  snprintf(err, errlen, "%s: %s", what, e && e->message ? e->message : "libgit2 error");
  return false;
}

GitRepo *git_repo_open(const char *path, const char *author, char *err, size_t errlen) {
  libgit_ready();
  GitRepo *g = xcalloc(1, sizeof *g);
  g->author = xstrdup(author);
  if (git_repository_open_bare(&g->repo, path) != 0 && git_repository_init(&g->repo, path, 1) != 0) {
    fail(err, errlen, path);
    git_repo_close(g);
    return NULL;
  }
  git_object *tree = NULL;
  git_revparse_single(&tree, g->repo, "HEAD^{tree}"); /* none in a new repository */
  if (git_treebuilder_new(&g->tb, g->repo, (git_tree *)tree) != 0) {
    git_object_free(tree);
    fail(err, errlen, "tree");
    git_repo_close(g);
    return NULL;
  }
  git_object_free(tree);
  return g;
}

bool git_repo_holds(GitRepo *g, const char *name, const char *text, size_t len) {
  git_object *obj = NULL;
  char spec[1024];
  snprintf(spec, sizeof spec, "HEAD:%s", name);
  if (git_revparse_single(&obj, g->repo, spec) != 0) return false;
  bool same = git_object_type(obj) == GIT_OBJECT_BLOB && (size_t)git_blob_rawsize((git_blob *)obj) == len &&
              !memcmp(git_blob_rawcontent((git_blob *)obj), text, len);
  git_object_free(obj);
  return same;
}

bool git_repo_add(GitRepo *g, const char *name, const char *text, size_t len, char *err, size_t errlen) {
  git_oid blob;
  if (git_blob_create_from_buffer(&blob, g->repo, text, len) != 0 ||
      git_treebuilder_insert(NULL, g->tb, name, &blob, GIT_FILEMODE_BLOB) != 0)
    return fail(err, errlen, name);
  return true;
}

bool git_repo_commit(GitRepo *g, const char *message, char *err, size_t errlen) {
  git_oid tree_id, commit;
  git_tree *tree = NULL;
  git_signature *sig = NULL;
  git_object *head = NULL;
  bool ok = git_treebuilder_write(&tree_id, g->tb) == 0 && git_tree_lookup(&tree, g->repo, &tree_id) == 0 &&
            git_signature_now(&sig, g->author, "relaykit@relaykit.invalid") == 0;
  if (ok) {
    git_revparse_single(&head, g->repo, "HEAD^{commit}");
    const git_commit *parents[1] = {(git_commit *)head};
    ok = git_commit_create(&commit, g->repo, "HEAD", sig, sig, NULL, message, tree, head ? 1 : 0, parents) == 0;
  }
  if (!ok) fail(err, errlen, "commit");
  git_object_free(head);
  git_signature_free(sig);
  git_tree_free(tree);
  return ok;
}

void git_repo_close(GitRepo *g) {
  if (!g) return;
  free(g->author);
  git_treebuilder_free(g->tb);
  git_repository_free(g->repo);
  free(g);
}
