#include "text_diff.h"

#include <git2.h>
#include <string.h>

#include "libgit.h"
#include "xalloc.h"

char *text_diff(const char *before, const char *after, const char *name) {
  libgit_ready();
  git_patch *patch = NULL;
  git_diff_options opts;
  git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
  opts.flags |= GIT_DIFF_FORCE_TEXT; /* a Relay file with a NUL byte is still shown as text */
  if (git_patch_from_buffers(&patch, before, strlen(before), name, after, strlen(after), name, &opts) != 0) return NULL;
  git_buf buf = {0};
  char *out = NULL;
  if (!patch) out = xstrdup(""); /* no difference */
  else if (git_patch_to_buf(&buf, patch) == 0) out = xstrdup(buf.ptr ? buf.ptr : "");
  git_buf_dispose(&buf);
  git_patch_free(patch);
  return out;
}
