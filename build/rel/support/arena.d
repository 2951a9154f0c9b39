build/rel/support/arena.o: support/arena.c support/arena.h \
 support/xalloc.h
support/arena.h:
support/xalloc.h:
