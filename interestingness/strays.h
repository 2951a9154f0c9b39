/* Processes a test leaves behind outside its process group (`setsid sleep 100 &`, a daemon):
   the group kill that ends a test misses them.  The process that runs tests becomes their
   subreaper (Linux), so when their parent dies they become its children; every child it did not
   start as a test or a server is then a stray, killed with its group and reaped.

   A process killed outright (SIGKILL, the OOM killer) can do none of that: its tests die with it
   (PR_SET_PDEATHSIG), but what they started in their groups would keep running (a `sleep` in a
   test script).  So the first tracked child also starts a watchdog, a process of its own group
   that learns the tracked groups through a pipe and, when the pipe closes because this process
   ended, however it ended, kills the groups still tracked.  Limits: what a test started outside
   its group (setsid) and then left is not in a tracked group, and is left running after such a
   kill (strays_reap catches it in every other end); a killed watchdog watches nothing. */
#ifndef RELAYKIT_STRAYS_H
#define RELAYKIT_STRAYS_H

#include <stdbool.h>
#include <sys/types.h>

/* A child started on purpose (a test, a server), the leader of its own process group: never a
   stray, and its group is killed if this process is killed outright.  The first call makes this
   process a subreaper and starts the watchdog. */
void strays_track(pid_t pid);
/* It has been reaped. */
void strays_untrack(pid_t pid);
/* Kills and reaps the strays there are now; how many. */
unsigned strays_reap(void);

#endif
