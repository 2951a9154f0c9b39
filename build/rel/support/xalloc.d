build/rel/support/xalloc.o: support/xalloc.c support/xalloc.h
support/xalloc.h:
