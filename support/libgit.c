#include "libgit.h"

#include <git2.h>
#include <stdbool.h>
#include <stdlib.h>

static void shut_down(void) { git_libgit2_shutdown(); }

void libgit_ready(void) {
  static bool ready;
  if (ready) return;
  ready = true;
  git_libgit2_init();
  atexit(shut_down); /* what libgit2 allocated is freed before a leak checker looks */
}
