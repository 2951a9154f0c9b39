build/rel/support/fileio.o: support/fileio.c support/fileio.h \
 support/xalloc.h
support/fileio.h:
support/xalloc.h:
