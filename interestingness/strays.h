/* Processes a test leaves behind outside its process group (`setsid sleep 100 &`, a daemon):
   the group kill that ends a test misses them.  The process that runs tests becomes their
   subreaper (Linux), so when their parent dies they become its children; every child it did not
   start as a test or a server is then a stray, killed with its group and reaped. */
#ifndef RELAYKIT_STRAYS_H
#define RELAYKIT_STRAYS_H

#include <stdbool.h>
#include <sys/types.h>

/* A child started on purpose (a test, a server): never a stray.  The first call makes this
   process a subreaper. */
void strays_track(pid_t pid);
/* It has been reaped. */
void strays_untrack(pid_t pid);
/* Kills and reaps the strays there are now; how many. */
unsigned strays_reap(void);

#endif
