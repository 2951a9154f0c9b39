/* Seconds on the monotonic clock: how long things take (tests, servers, reductions). */
#ifndef RELAYKIT_CLOCK_H
#define RELAYKIT_CLOCK_H

double clock_seconds(void);

#endif
