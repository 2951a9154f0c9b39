/* rreduce's keys on a terminal, as C-Vise's: `s` skips the rest of the current pass for this round. */
#ifndef RELAYKIT_KEYS_H
#define RELAYKIT_KEYS_H

#include <stdbool.h>

/* Reads keys without echo or Enter when standard input is the terminal of a foreground job;
   whether it does.  The terminal's modes come back at red_keys_stop or at exit. */
bool red_keys_start(void);
void red_keys_stop(void);
/* Whether `s` was pressed since the last call (never blocks). */
bool red_keys_skip(void);

#endif
