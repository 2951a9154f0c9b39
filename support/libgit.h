/* libgit2 for support/'s wrappers of it (content_hash.c, text_diff.c, git_repo.c): initialised on
   first use and shut down at exit, so no code outside support/ initialises it, or needs to know
   it is there.  Internal to support/: everything else includes the wrappers' headers, never
   <git2.h>. */
#ifndef RELAYKIT_LIBGIT_H
#define RELAYKIT_LIBGIT_H

/* Makes libgit2 ready (once per process; relaykit runs no threads).  libgit2 counts its
   initialisations, so code that still pairs git_libgit2_init and _shutdown itself works beside. */
void libgit_ready(void);

#endif
