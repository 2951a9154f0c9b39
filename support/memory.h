/* How much more memory this process can get: what the kernel says is available (MemAvailable
   plus free swap) and what its own limits leave (ulimit -v, -d).  For refusing up front an input
   that cannot fit, with the limit stated, rather than failing in the middle. */
#ifndef RELAYKIT_MEMORY_H
#define RELAYKIT_MEMORY_H

#include <stddef.h>

/* Bytes; SIZE_MAX when nothing says (not Linux, no /proc). */
size_t mem_available(void);

#endif
